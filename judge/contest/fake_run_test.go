package contest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// fakeTour is a virus tournament of bots named names, for a fake runner:
// their files are only names. Its games last 20 passes each (virus.MaxIdle).
func fakeTour(t *testing.T, names ...string) (Config, *results.DB) {
	t.Helper()
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	for _, name := range names {
		write(t, filepath.Join(subs, name+".py"), "# "+name+"\n", 0o644)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Rounds: 1, Seed: 1,
		Scheme: results.SchemeDefault, Limits: sandbox.DefaultLimits(), Workers: 3, Image: "test"}
	return cfg, db
}

// storedKeys are the keys of the games recorded in tid, each once.
func storedKeys(t *testing.T, db *results.DB, tid int64) map[string]bool {
	t.Helper()
	list, err := db.Games(context.Background(), tid, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, g := range list {
		if keys[g.Key] {
			t.Errorf("game %s recorded twice", g.Key)
		}
		keys[g.Key] = true
	}
	return keys
}

// TestFakeRunSchedule: every game of the schedule is started once, each
// seat once, and recorded once; the runner is drained once and keeps no
// session open; a second run starts nothing.
func TestFakeRunSchedule(t *testing.T) {
	ctx := context.Background()
	cfg, db := fakeTour(t, "a", "b", "c", "d", "e")
	run := &sandboxtest.Fake{}
	sum, err := Run(ctx, run, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, _, err := Discover(cfg.Dir, virus.Rules{}.Protocol(), false)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Schedule(entries, 1, cfg.Seed, Duels, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	started, stored := run.Games(), storedKeys(t, db, sum.Tournament.ID)
	if len(plan) != 20 || sum.Played != 20 || len(started) != 20 || len(stored) != 20 {
		t.Fatalf("%d planned, %d played, %d started, %d stored: want 20 each", len(plan), sum.Played, len(started), len(stored))
	}
	for _, p := range plan {
		if started[p.Key] != 2 || !stored[p.Key] {
			t.Errorf("game %s: %d sessions started, stored %v; want 2 and stored", p.Key, started[p.Key], stored[p.Key])
		}
	}
	if run.Open() != 0 || run.Drains() != 1 {
		t.Errorf("%d sessions left open, drained %d times; want 0 and once", run.Open(), run.Drains())
	}
	again := &sandboxtest.Fake{}
	if sum, err := Run(ctx, again, db, cfg, nil); err != nil || sum.Played != 0 || sum.Skipped != 20 || len(again.Games()) != 0 {
		t.Errorf("second run: played %d, skipped %d, %d games started (%v): want 0 20 0", sum.Played, sum.Skipped, len(again.Games()), err)
	}
}

// TestFakeRunResume: a run stopped after a few games records only whole
// games, and the next run plays the others and none of those again.
func TestFakeRunResume(t *testing.T) {
	cfg, db := fakeTour(t, "a", "b", "c", "d", "e")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := &sandboxtest.Fake{Delay: time.Millisecond}
	games := 0
	sum, err := Run(ctx, first, db, cfg, func(e Event) {
		if e.Kind == "game" {
			if games++; games == 3 {
				cancel()
			}
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v, want context.Canceled", err)
	}
	stored := storedKeys(t, db, sum.Tournament.ID)
	if len(stored) < 3 || len(stored) >= 20 || first.Open() != 0 {
		t.Fatalf("stopped run: %d games stored, %d sessions open; want 3 to 19 and none", len(stored), first.Open())
	}
	second := &sandboxtest.Fake{}
	sum, err = Run(context.Background(), second, db, cfg, nil)
	if err != nil || sum.Skipped != len(stored) || sum.Played != 20-len(stored) {
		t.Fatalf("resumed run: played %d skipped %d (%v), want %d %d", sum.Played, sum.Skipped, err, 20-len(stored), len(stored))
	}
	for key := range second.Games() {
		if stored[key] {
			t.Errorf("game %s played again", key)
		}
	}
	if n := len(storedKeys(t, db, sum.Tournament.ID)); n != 20 {
		t.Errorf("%d games stored, want 20", n)
	}
}

// TestFakeRunGiveUp: a bot that always times out is asked GiveUp times per
// game, then recorded timing out at once, and its games go on.
func TestFakeRunGiveUp(t *testing.T) {
	ctx := context.Background()
	cfg, db := fakeTour(t, "sleeper", "passer", "other")
	cfg.Policy = Policy{GiveUp: 2}
	run := &sandboxtest.Fake{Reply: func(bot sandbox.Bot, n int) sandbox.Reply {
		if bot.Name == "sleeper" {
			return sandbox.Reply{Fault: fault.Timeout, Detail: "no answer within 10s", Elapsed: 20 * time.Second}
		}
		return sandbox.Reply{Data: []byte("false")}
	}}
	sum, err := Run(ctx, run, db, cfg, nil)
	if err != nil || sum.Played != 6 {
		t.Fatalf("played %d (%v), want 6", sum.Played, err)
	}
	list, err := db.Games(ctx, sum.Tournament.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sg := range list {
		if !strings.Contains(sg.Key, "sleeper@") {
			continue
		}
		if n := run.Asked(sg.Key, "sleeper"); n != 2 {
			t.Errorf("game %s: the sleeper was asked %d times, want 2", sg.Key, n)
		}
		g, err := db.Game(ctx, sg.ID)
		if err != nil {
			t.Fatal(err)
		}
		notAsked := 0
		for _, m := range g.Moves {
			if g.Players[m.Seat].Name == "sleeper" && strings.HasPrefix(m.Detail, "not asked: given up") {
				notAsked++
			}
		}
		if len(g.Moves) < virus.MaxIdle || notAsked == 0 {
			t.Errorf("game %s: %d moves, %d of the sleeper's not asked", sg.Key, len(g.Moves), notAsked)
		}
	}
}

// TestFakeRunFailure: the judge's own failures are retried within the run
// (a refused start once: then played), recorded at every attempt, and a
// game failing every time (1 + Retries) is reported, not scored; a later
// run plays just it.
func TestFakeRunFailure(t *testing.T) {
	ctx := context.Background()
	cfg, db := fakeTour(t, "a", "b", "c")
	run := &sandboxtest.Fake{Fail: func(bot, key string, attempt, n int) error {
		switch {
		case key == "":
			return nil
		case pairOf(key) == "a+b" && bot == "a" && attempt == 0 && n == -1:
			return errors.New("the engine refused the container (test)")
		case pairOf(key) == "a+c" && bot == "c" && n == 3:
			return errors.New("the engine connection was lost (test)")
		}
		return nil
	}}
	failures := 0
	sum, err := Run(ctx, run, db, cfg, func(e Event) {
		if e.Kind == "failure" {
			failures++
		}
	})
	if err == nil || !strings.Contains(err.Error(), "2 games could not be played because the judge failed") || !strings.Contains(err.Error(), "connection was lost") {
		t.Errorf("err = %v; want the 2 games and the runner's words", err)
	}
	if sum.Played != 4 || sum.Failed != 2 || run.Open() != 0 {
		t.Errorf("played %d failed %d, %d sessions open; want 4 2 0", sum.Played, sum.Failed, run.Open())
	}
	fails, err := db.Failures(ctx, sum.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	perPair := map[string]int{}
	for _, f := range fails {
		perPair[pairOf(f.Key)]++
	}
	if want := map[string]int{"a+b": 2, "a+c": 6}; fmt.Sprint(perPair) != fmt.Sprint(want) || failures != len(fails) {
		t.Errorf("failures per pair = %v (%d reported), want %v", perPair, failures, want)
	}
	st, err := db.Standings(ctx, sum.Tournament.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{}
	for _, s := range st {
		games[s.Bot.Name] = s.Games
	}
	if want := map[string]int{"a": 2, "b": 4, "c": 2}; fmt.Sprint(games) != fmt.Sprint(want) {
		t.Errorf("games per bot in the standings = %v, want %v", games, want)
	}
	again, err := Run(ctx, &sandboxtest.Fake{}, db, cfg, nil)
	if err != nil || again.Played != 2 || again.Skipped != 4 {
		t.Errorf("second run: played %d skipped %d (%v), want 2 4", again.Played, again.Skipped, err)
	}
}
