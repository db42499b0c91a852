package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Two game folders in one `judge run` play side by side: every progress
// line says its game, each tournament's standings come whole under its
// heading, and a second run plays nothing again.
func TestRunSideBySide(t *testing.T) {
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	for game, bots := range map[string][]string{"virus": {"first_cell.py", "greedy.py"}, "tictactoe": {"random_cell.py", "minimax.py"}} {
		for _, bot := range bots {
			b, err := os.ReadFile(filepath.Join("..", "submissions", game, bot))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(subs, game, bot), string(b), 0o644)
		}
	}
	db := filepath.Join(dir, "judge.db")
	args := []string{"run", "--db", db, "--submissions", subs, "--sandbox", "none", "--workers", "2", "--move-limit", "5s"}
	code, stdout, stderr := judge(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if lines[0] != "== tictactoe, virus: side by side, 2 games at once" {
		t.Errorf("first line %q, want the games side by side and the workers", lines[0])
	}
	blocks := 0
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		switch {
		case l == "":
		case strings.HasPrefix(l, "== "):
			blocks++
			game, _, _ := strings.Cut(strings.TrimPrefix(l, "== "), ":")
			if i+3 >= len(lines) || !strings.HasPrefix(lines[i+1], "2 games played, 0 already recorded") ||
				!strings.HasPrefix(lines[i+3], game+" standings (2 bots, 2 of 2 games)") {
				t.Errorf("%s's standings are not whole under its heading:\n%s", game, stdout)
			}
			// The table, up to its legend.
			for i < len(lines) && !strings.HasPrefix(lines[i], "faults =") {
				i++
			}
		case !strings.HasPrefix(l, "virus      ") && !strings.HasPrefix(l, "tictactoe  "):
			t.Errorf("line %q does not say its game", l)
		}
	}
	if blocks != 2 {
		t.Errorf("%d standings, want 2:\n%s", blocks, stdout)
	}
	_, stdout, _ = judge(t, args...)
	for _, want := range []string{"tictactoe  0 games to play, 2 already recorded", "virus      0 games to play, 2 already recorded"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("second run: no %q in\n%s", want, stdout)
		}
	}
}

// Side by side, the standings print in the folders' order, not in the order
// the tournaments ended: here the first folder's ends last, its bot slow.
func TestRunSideBySideTablesInOrder(t *testing.T) {
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions")
	for game, bots := range map[string][]string{"virus": {"first_cell.py", "greedy.py"}, "tictactoe": {"random_cell.py"}} {
		for _, bot := range bots {
			b, err := os.ReadFile(filepath.Join("..", "submissions", game, bot))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(subs, game, bot), string(b), 0o644)
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "submissions", "tictactoe", "random_cell.py"))
	if err != nil {
		t.Fatal(err)
	}
	slow := strings.Replace(string(b), "\nmain()\n", "\nimport time\ntime.sleep(0.7)\nmain()\n", 1)
	writeFile(t, filepath.Join(subs, "tictactoe", "slow.py"), slow, 0o644)
	args := []string{"run", "--db", filepath.Join(dir, "judge.db"), "--submissions", subs, "--sandbox", "none", "--workers", "2", "--move-limit", "5s"}
	code, stdout, stderr := judge(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	first, second := strings.Index(stdout, "\n== tictactoe: "), strings.Index(stdout, "\n== virus: ")
	if first < 0 || second < first {
		t.Errorf("the standings are not in the folders' order (tictactoe, virus):\n%s", stdout)
	}
}
