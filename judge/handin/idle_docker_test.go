package handin

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestIdleContainersReleasedDocker: after its last check, the hand-in
// server keeps no container of the sandbox's pool waiting.
func TestIdleContainersReleasedDocker(t *testing.T) {
	d := sandboxtest.Docker(t)
	pool := sandbox.NewPool(d, 0)
	// Whatever the outcome, no container outlives the test.
	t.Cleanup(func() { pool.Drain(context.Background()) })
	sc := &SandboxChecker{Run: pool, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "alice")
	os.Remove(filepath.Join(c.subs, "virus", "example.py"))
	bot, err := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", "first_cell.py"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(c.subs, "virus", "first_cell.py"), bot, 0o644)
	c.student("alice").location("virus", "mine.py", append([]byte("# alice\n"), bot...))
	h := waitDoneWithin(t, c, "alice", 1, 5*time.Minute)[0]
	if rep, _ := ReadReport(h); !rep.Ready || len(rep.Sparring) != 1 {
		t.Fatalf("alice's check: %s", h.Report)
	}
	// The containers go once the check is recorded: give them a moment.
	left := 0
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if left = sandboxtest.Leftovers(t, d); left == 0 {
			return
		}
	}
	t.Errorf("%d containers still waiting a minute after the last check, want none", left)
}
