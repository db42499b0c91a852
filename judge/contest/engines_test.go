package contest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/enginetest"
	"botjudge/sandbox/sandboxtest"
)

var _ Engine = (*sandbox.Docker)(nil)

// counted counts the bots started on an engine and the requests they
// answered, and calls asked after each answer.
type counted struct {
	Engine
	n     atomic.Int64
	fails atomic.Int64 // starts that failed
	asks  atomic.Int64
	asked func(n int64)
}

func (c *counted) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	s, err := c.Engine.Start(ctx, bot, lim, labels)
	if err != nil {
		c.fails.Add(1)
		return nil, err
	}
	c.n.Add(1)
	return &countedSession{Session: s, c: c}, nil
}

type countedSession struct {
	sandbox.Session
	c *counted
}

func (s *countedSession) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	r, err := s.Session.Ask(ctx, request)
	if n := s.c.asks.Add(1); err == nil && s.c.asked != nil {
		s.c.asked(n)
	}
	return r, err
}

// twoEngines gives the machine's engine and a second one started by the
// test, the runtime image sent to it.
func twoEngines(t *testing.T) (*sandbox.Docker, *sandbox.Docker, *enginetest.Engine) {
	first := sandboxtest.Docker(t)
	e := enginetest.Start(t)
	ctx := context.Background()
	second, err := sandbox.NewDocker(ctx, sandbox.Options{Host: e.Host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	if _, err := second.SendImage(ctx, first, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return first, second, e
}

func deterministicVirus(t *testing.T) (string, Config, *results.DB) {
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	for _, name := range []string{"first_cell.py", "greedy.py", "lookahead.py"} {
		copyExample(t, subs, name)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	lim := sandbox.DefaultLimits()
	lim.Move = 5 * time.Second
	return root, Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Rounds: 2, Seed: 7,
		Scheme: results.SchemeDefault, Limits: lim, Workers: 4, Image: "test"}, db
}

// movesByKey is every recorded game's answers and outcome, by game key.
func movesByKey(t *testing.T, db *results.DB, tid int64) map[string]string {
	t.Helper()
	ctx := context.Background()
	list, err := db.Games(ctx, tid, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, sum := range list {
		g, err := db.Game(ctx, sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		s := string(g.Outcome)
		for _, m := range g.Moves {
			s += fmt.Sprintf(" %d:%s%s", m.Seat, m.Answer, m.Verdict)
		}
		out[g.Key] = s
	}
	return out
}

// noFaults checks that no bot was charged anything: the example bots never
// misbehave, so a fault would be the judge's failure scored against a bot.
func noFaults(t *testing.T, db *results.DB, tid int64) {
	t.Helper()
	st, err := db.Standings(context.Background(), tid, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Timeouts+s.Crashes+s.Illegal != 0 {
			t.Errorf("%s was charged faults: %+v", s.Bot.Name, s)
		}
	}
}

// nothingLeft checks that d's engine holds none of d's containers and
// volumes once the run is cleared.
func nothingLeft(t *testing.T, d *sandbox.Docker) {
	t.Helper()
	ctx := context.Background()
	if err := d.Clear(ctx); err != nil {
		t.Error(err)
	}
	ids, err := d.ContainersLabelled(ctx, sandbox.LabelOwner, d.Owner())
	vols, verr := d.VolumesLabelled(ctx, sandbox.LabelOwner, d.Owner())
	if err != nil || verr != nil || len(ids)+len(vols) != 0 {
		t.Errorf("left on %s: containers %v, volumes %v (%v, %v)", d.Host(), ids, vols, err, verr)
	}
}

// TestTwoEngines plays the same tournament on one engine and on two: the
// same games are recorded, move for move; then again on two, stopping the
// second engine in the middle: every game is recorded once, none is
// charged to a bot, and nothing is left on either engine.
func TestTwoEngines(t *testing.T) {
	first, second, e := twoEngines(t)
	ctx := context.Background()

	_, cfg, db1 := deterministicVirus(t)
	one, err := Run(ctx, first, db1, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if one.Played != 12 {
		t.Fatalf("played %d games on one engine, want 12", one.Played)
	}

	a, b := &counted{Engine: first}, &counted{Engine: second}
	both, err := NewEngines(ctx, []Engine{a, b})
	if err != nil {
		t.Fatal(err)
	}
	_, cfg2, db2 := deterministicVirus(t)
	two, err := Run(ctx, both, db2, cfg2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.n.Load() == 0 || b.n.Load() == 0 {
		t.Errorf("bots started: %d on the first engine, %d on the second; want both used", a.n.Load(), b.n.Load())
	}
	want, got := movesByKey(t, db1, one.Tournament.ID), movesByKey(t, db2, two.Tournament.ID)
	if len(got) != len(want) {
		t.Errorf("%d games on two engines, %d on one", len(got), len(want))
	}
	for key, moves := range want {
		if got[key] != moves {
			t.Errorf("game %s differs:\none engine:  %s\ntwo engines: %s", key, moves, got[key])
		}
	}

	// The same on two engines, the second stopped in the middle of a game
	// (after its bots' tenth answer, before the next request): its games
	// are played again on the first.
	var stopping sync.Once
	c := &counted{Engine: second, asked: func(n int64) {
		if n >= 10 {
			stopping.Do(func() { e.Stop(t) })
		}
	}}
	both, err = NewEngines(ctx, []Engine{&counted{Engine: first}, c})
	if err != nil {
		t.Fatal(err)
	}
	_, cfg3, db3 := deterministicVirus(t)
	var failures int
	third, err := Run(ctx, both, db3, cfg3, func(ev Event) {
		if ev.Kind == "failure" {
			failures++
			t.Logf("failure: %s", ev.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.asks.Load() < 10 || len(both.Down()) != 1 || failures == 0 {
		t.Errorf("the second engine answered %d requests, %v is down, %d games failed: it was not stopped mid-game", c.asks.Load(), both.Down(), failures)
	}
	// Once left out, the engine is not tried again: only the starts
	// under way when it went away (a game's two seats on each of the
	// pool's starters) can fail there.
	if n := c.fails.Load(); n > 2*int64(cfg3.Workers) {
		t.Errorf("%d bots failed to start on the stopped engine: it was tried again", n)
	}
	if third.Played != 12 || third.Failed != 0 {
		t.Errorf("played %d, failed %d; want 12, 0", third.Played, third.Failed)
	}
	checkWhole(t, db3, third.Tournament.ID, 12)
	noFaults(t, db3, third.Tournament.ID)
	if got := movesByKey(t, db3, third.Tournament.ID); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the games with an engine stopped differ from the games on one engine")
	}
	t.Logf("%d games failed on the stopped engine and were played again", failures)

	nothingLeft(t, first)
	// The stopped engine keeps its stopped containers until it is back:
	// then the judge's owner clears them.
	e.Restart(t)
	nothingLeft(t, second)
}
