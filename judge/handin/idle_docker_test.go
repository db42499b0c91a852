package handin

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"botjudge/judge/arena"
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

// TestArenaKeepsContainersDocker: with the arena on, the example bots keep
// their containers from one check's sparring to the next and into the
// arena, and nothing is removed when no check waits.
func TestArenaKeepsContainersDocker(t *testing.T) {
	d := sandboxtest.Docker(t)
	pool := sandbox.NewPool(d, 0)
	t.Cleanup(func() { pool.Drain(context.Background()) })
	sc := &SandboxChecker{Run: pool, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits(), Opponents: 1, KeepIdle: true}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "alice", "bob")
	os.Remove(filepath.Join(c.subs, "virus", "example.py"))
	bot, err := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", "first_cell.py"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(c.subs, "virus", "first_cell.py"), bot, 0o644)
	created := []int{0}
	for _, name := range []string{"alice", "bob"} {
		c.student(name).location("virus", "mine.py", append([]byte("# "+name+"\n"), bot...))
		h := waitDoneWithin(t, c, name, 1, 5*time.Minute)[0]
		if rep, _ := ReadReport(h); !rep.Ready || len(rep.Sparring) != 1 {
			t.Fatalf("%s's check: %s", name, h.Report)
		}
		created = append(created, pool.Created())
	}
	// Alice's check started her containers and the example's; Bob's, his
	// own only.
	alice, bob := created[1]-created[0], created[2]-created[1]
	if bob != alice-1 {
		t.Errorf("alice's check created %d containers, bob's %d: want one less, the example's", alice, bob)
	}
	if left := sandboxtest.Leftovers(t, d); left == 0 {
		t.Errorf("no container waits after the checks, with the arena on")
	}
	// The arena's first game: alice's version as staged for the ladder, the
	// example in its sparring container.
	p := &ArenaPlayer{Checker: sc}
	a, err := p.Arena(context.Background(), "virus")
	if err != nil {
		t.Fatal(err)
	}
	var g arena.Game
	for _, b := range a.Bots {
		switch b.Name {
		case "alice":
			g.Seats[0] = b.BotID
		case "first_cell":
			g.Seats[1] = b.BotID
		}
	}
	g.Key = "arena/keep/1"
	if err := p.Play(context.Background(), "virus", g); err != nil {
		t.Fatal(err)
	}
	if n := pool.Created() - created[2]; n != 1 {
		t.Errorf("the arena's first game created %d containers, want 1 (alice's)", n)
	}
}
