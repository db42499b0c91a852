package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `judge run --format swiss` on five virus bots (plain processes): 5 rounds
// (⌈log2 5⌉ + 2, at most one a bot can sit out), two pairings a round in
// both seats and a bye; the standings show Buchholz and the byes; run
// again, it plays nothing.
func TestRunSwiss(t *testing.T) {
	dir := t.TempDir()
	subs := filepath.Join(dir, "submissions", "virus")
	if err := os.MkdirAll(subs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"first_cell.py", "greedy.py", "random_bot.py", "lookahead.py"} {
		b, err := os.ReadFile(filepath.Join("..", "submissions", "virus", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(subs, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(subs, "passer.py"), []byte("def ia(game, side):\n    return False\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "j.db")
	args := []string{"run", "--db", db, "--submissions", filepath.Join(dir, "submissions"), "--sandbox", "none", "--format", "swiss", "--move-limit", "5s"}
	code, stdout, stderr := judge(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	for _, want := range []string{"20 games to play", "20 games played, 0 already recorded", "buchholz byes", "swiss, 5 rounds", "of 20 games"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the run does not say %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = judge(t, args...)
	if code != 0 || !strings.Contains(stdout, "0 games played, 20 already recorded") {
		t.Errorf("second run: exit %d, %s\n%s", code, stderr, stdout)
	}
}
