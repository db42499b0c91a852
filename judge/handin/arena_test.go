package handin

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/judge/arena"
	"botjudge/judge/arena/arenatest"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// stopAfter ends the loop's context once n games are stored.
type stopAfter struct {
	arena.Player
	n      int
	cancel context.CancelFunc
	mu     sync.Mutex
}

func (s *stopAfter) Play(ctx context.Context, game string, g arena.Game) error {
	err := s.Player.Play(ctx, game, g)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		if s.n--; s.n == 0 {
			s.cancel()
		}
	}
	return err
}

// The arena plays the students' ready versions and the example bot through
// the match pipeline (here on the fake runner), stored as replayable
// games; a version whose check failed stays off the ladder.
func TestArenaPlaysReadyVersions(t *testing.T) {
	fake := &sandboxtest.Fake{Reply: func(bot sandbox.Bot, n int) sandbox.Reply {
		if bot.Name == "carol" {
			return sandbox.Reply{Data: []byte("nonsense")}
		}
		return sandbox.Reply{Data: []byte("false")}
	}}
	sc := &SandboxChecker{Run: fake, StageRoot: t.TempDir(), Limits: sandbox.DefaultLimits()}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "alice", "bob", "carol")
	bot := []byte("def ia(game, side):\n    return False\n")
	for _, name := range []string{"alice", "bob", "carol"} {
		c.student(name).location("virus", "mine.py", bot)
		waitDone(t, c, name, 1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &ArenaPlayer{Checker: sc}
	(&arena.Loop{Source: p, Player: &stopAfter{Player: p, n: 10, cancel: cancel}, Games: []string{"virus"}, Parallel: 2}).Run(ctx)

	a, err := c.db.Arena(context.Background(), "virus")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range a.Bots {
		names = append(names, b.Name)
		if b.Example != (b.Name == "example") {
			t.Errorf("%s: example %v", b.Name, b.Example)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"alice", "bob", "example"}) {
		t.Errorf("on the ladder: %v, want alice, bob and the example (carol's check failed)", names)
	}
	if len(a.Games) < 10 {
		t.Fatalf("%d arena games, want 10", len(a.Games))
	}
	g, err := c.db.Game(context.Background(), a.Games[0].ID)
	if err != nil || len(g.Moves) == 0 || g.Reason == "" {
		t.Errorf("the first arena game is not replayable: %+v %v", g, err)
	}
	// Its players' students replay it; carol, who did not play it, cannot.
	for _, name := range []string{g.Players[0].Name, g.Players[1].Name, "carol"} {
		if name == "example" {
			continue
		}
		st, body := c.student(name).get(fmt.Sprintf("/api/game/%d/replay.json", g.ID))
		if want := name != "carol"; (st == http.StatusOK) != want || (want && !strings.Contains(body, `"frames"`)) {
			t.Errorf("%s asks for arena game %d (%s against %s): %d %.200s", name, g.ID, g.Players[0].Name, g.Players[1].Name, st, body)
		}
	}
}

// The server says checks wait while a version waits for a free worker,
// not while one is only being checked: the arena holds its games then
// (arena.Loop's Hold, as judge serve wires it).
func TestChecksWaitHoldsTheArena(t *testing.T) {
	bc := &blockingChecker{release: make(chan struct{})}
	c := newClass(t, Options{Checker: bc, Games: []string{"virus"}, Workers: 1}, "alice", "bob")
	c.student("alice").location("virus", "a.py", []byte(pyBot))
	for end := time.Now().Add(10 * time.Second); c.versions("alice", "virus")[0].Status != results.StatusPlaying; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("alice's check did not begin within 10 s")
		}
	}
	if c.srv.ChecksWait() {
		t.Error("checks wait while the only version is being checked")
	}
	c.student("bob").location("virus", "b.py", []byte(pyBot))
	if !c.srv.ChecksWait() {
		t.Error("no check waits while bob's version waits for alice's check")
	}
	close(bc.release)
	waitDone(t, c, "bob", 1)
	if c.srv.ChecksWait() {
		t.Error("checks wait once both were checked")
	}
}

// The public ladder marks the row of the student whose session asks: none
// for the organiser, nor for a request without a session.
func TestLadderMarksTheSessionsStudent(t *testing.T) {
	c := newClass(t, Options{Games: []string{"virus"}}, "alice", "bob", "carol")
	// The ladder's rows come from arenatest's versions: no server
	// installs them while they are stored.
	c.stop()
	arenatest.Class(t, c.db, "virus")
	for _, who := range []string{"carol", results.OrganiserName, ""} {
		b := c.browser()
		if who != "" {
			b = c.student(who)
		}
		st, body := b.get("/api/arena/virus.json")
		want := 0
		if who == "carol" {
			want = 1
		}
		if st != http.StatusOK || strings.Count(body, `"you":true`) != want || (want == 1 && !strings.Contains(body, `"name":"carol","bot_id"`)) {
			t.Errorf("%q asks for the ladder: %d %s, want %d row marked", who, st, body, want)
		}
	}
}
