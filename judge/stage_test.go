package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waiter is a virus bot that plays the example first_cell's moves, but in
// the middle of its first game stops until the test lets it go, so that the
// test knows its run is playing.
const waiter = `

def ia(game, side):
    import os, time
    if len(game["history"]) >= 2 and not os.path.exists(%[1]q):
        open(%[1]q, "w").close()
        while not os.path.exists(%[2]q):
            time.sleep(0.05)
    return first_cell(game, side)
`

// TestPruneSparesAnotherRunsBots: two runs on two databases in one folder
// share the staged copies in _bots. The one that ends first cleans up what
// its database no longer uses, while the other still plays: no copy the
// playing run staged may go, however long ago it was staged, and once that
// run has ended its copies are cleaned up.
func TestPruneSparesAnotherRunsBots(t *testing.T) {
	dir := t.TempDir()
	started, letGo := filepath.Join(dir, "started"), filepath.Join(dir, "go")
	example := copyExample(t, "first_cell.py", filepath.Join(dir, "b", "virus"))
	writeFile(t, filepath.Join(dir, "b", "virus", "waiter.py"), strings.Replace(example, "def ia(", "def first_cell(", 1)+fmt.Sprintf(waiter, started, letGo), 0o644)
	for _, bot := range []string{"greedy.py", "random_bot.py"} {
		copyExample(t, bot, filepath.Join(dir, "a", "virus"))
	}
	runOn := func(db, subs string) []string {
		return []string{"run", "--db", filepath.Join(dir, db), "--submissions", filepath.Join(dir, subs), "--sandbox", "none", "--workers", "1", "--move-limit", "1m"}
	}
	playing := startJudge(t, runOn("b.db", "b")...)
	playing.waitFor(t, "the waiter in the middle of a game", time.Minute, func() bool {
		_, err := os.Stat(started)
		return err == nil
	})
	// As if the tournament had been playing for an hour.
	stage := filepath.Join(dir, "_bots")
	des, err := os.ReadDir(stage)
	if err != nil {
		t.Fatal(err)
	}
	var staged []string
	long := time.Now().Add(-time.Hour)
	for _, de := range des {
		if de.IsDir() && !strings.HasPrefix(de.Name(), ".") {
			staged = append(staged, de.Name())
			if err := os.Chtimes(filepath.Join(stage, de.Name()), long, long); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(staged) != 2 {
		t.Fatalf("staged %v, want the 2 bots of b", staged)
	}
	if code, stdout, stderr := judge(t, runOn("a.db", "a")...); code != 0 {
		t.Fatalf("the run on a.db: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, s := range staged {
		if _, err := os.Stat(filepath.Join(stage, s)); err != nil {
			t.Errorf("the run on a.db removed %s, staged by the run playing on b.db", s)
		}
	}
	writeFile(t, letGo, "", 0o644)
	if code := playing.wait(t, time.Minute); code != 0 || strings.Contains(playing.stdout.String(), "CRASH") {
		t.Errorf("the run on b.db: exit %d\n%s%s", code, playing.stdout.String(), playing.stderr.String())
	}
	// b's run has ended: what only it used goes with the next cleaning.
	_, _, stderr := judge(t, runOn("a.db", "a")...)
	if !strings.Contains(stderr, "removed 2 staged bot versions") {
		t.Errorf("the copies of the ended run are kept: %q", stderr)
	}
}

// copyExample copies an example virus bot into the folder to, and returns
// its source.
func copyExample(t *testing.T, bot, to string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "submissions", "virus", bot))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(to, bot), string(b), 0o644)
	return string(b)
}
