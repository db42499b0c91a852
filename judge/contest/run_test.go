package contest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// hostile virus bots, each losing only its own moves.
var hostileVirus = map[string]string{
	"raiser.py": "def ia(game, side):\n    raise ValueError('boom from raiser')\n",
	"junk.py": `import sys
def ia(game, side):
    print("junk on stdout {not json")
    sys.stdout.write("\x00\x01 more junk\n")
    me = game["references"][side]
    g = game["grid"]
    for r in range(10):
        for c in range(10):
            if g[r][c] == 0 and any(0 <= r+i < 10 and 0 <= c+j < 10 and g[r+i][c+j] == me for i in (-1, 0, 1) for j in (-1, 0, 1)):
                return [r, c]
    return False
`,
	"badmove.py": "def ia(game, side):\n    return '3,4'\n",
	"sleeper.py": "import time\ndef ia(game, side):\n    if len(game['history']) < 2:\n        time.sleep(30)\n    return False\n",
}

func copyExample(t *testing.T, dir, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "submissions", "virus", name))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, name), string(b), 0o644)
}

func TestTournamentVirusDocker(t *testing.T) {
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	copyExample(t, subs, "greedy.py")
	for name, src := range hostileVirus {
		write(t, filepath.Join(subs, name), src, 0o644)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lim := sandbox.DefaultLimits()
	lim.Move = 2 * time.Second
	cfg := Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Rounds: 1, Seed: 1, Scheme: results.SchemeDefault, Limits: lim, Workers: 2, Image: "test"}

	sum, err := Run(ctx, d, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 20 || sum.Skipped != 0 || sum.Failed != 0 {
		t.Fatalf("first run: played %d skipped %d failed %d, want 20 0 0", sum.Played, sum.Skipped, sum.Failed)
	}
	st, err := db.Standings(ctx, sum.Tournament.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]results.Standing{}
	for _, s := range st {
		byName[s.Bot.Name] = s
	}
	if st[0].Bot.Name != "greedy" || st[0].Losses != 0 {
		t.Errorf("greedy should win everything: %+v", st[0])
	}
	for name, want := range map[string]string{"raiser": "error", "sleeper": "timeout", "badmove": "malformed"} {
		if c := byName[name].Check; c.OK || c.Verdict != want {
			t.Errorf("%s check = %+v, want failed with %s", name, c, want)
		}
	}
	if c := byName["junk"].Check; !c.OK {
		t.Errorf("junk check failed: %+v", c)
	}

	// Every fault is recorded with its reason; nobody else pays for it.
	gs, err := db.Games(ctx, sum.Tournament.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, gsum := range gs {
		g, err := db.Game(ctx, gsum.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range g.Moves {
			who := g.Players[m.Seat].Name
			if m.Verdict == fault.None {
				continue
			}
			seen[who+":"+string(m.Verdict)] = true
			switch who {
			case "raiser":
				if !strings.Contains(m.Reason+m.Detail, "boom from raiser") {
					t.Errorf("raiser's fault lost its error text: %+v", m)
				}
			case "sleeper":
				// A sleeper is charged no CPU: the wall-clock backstop,
				// twice the limit, ends its move, and says so.
				// On a loaded machine the backstop moves by the time it
				// waited for a CPU, up to sandbox.MaxWaitCredit times.
				if most := (1 + sandbox.MaxWaitCredit) * (2*lim.Move + 2*time.Second); m.Elapsed > most || !strings.Contains(m.Detail, "of wall time (twice the limit)") {
					t.Errorf("sleeper's move took %s, more than the backstop can move (%v), or does not say why: %s", m.Elapsed, most, m.Detail)
				}
				if m.CPU == nil || *m.CPU > lim.Move {
					t.Errorf("sleeper's move was charged %v of CPU", m.CPU)
				}
			case "greedy", "junk":
				t.Errorf("%s was charged a fault: %+v", who, m)
			}
		}
		for _, p := range g.Players {
			if p.Name == "junk" && !strings.Contains(p.Log, "junk on stdout") {
				t.Errorf("junk's prints are not in its log: %q", p.Log)
			}
		}
	}
	for _, want := range []string{"raiser:error", "sleeper:timeout", "badmove:malformed"} {
		if !seen[want] {
			t.Errorf("no %s fault recorded (seen %v)", want, seen)
		}
	}

	// Running again plays nothing and gives the same table.
	again, err := Run(ctx, d, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Played != 0 || again.Skipped != 20 {
		t.Errorf("second run played %d skipped %d, want 0 20", again.Played, again.Skipped)
	}
	st2, err := db.Standings(ctx, sum.Tournament.ID, results.SchemeDefault)
	if err != nil {
		t.Fatal(err)
	}
	for i := range st {
		if st[i].Bot.Name != st2[i].Bot.Name || st[i].Points != st2[i].Points {
			t.Errorf("row %d changed: %+v then %+v", i, st[i], st2[i])
		}
	}

	// A new version of one bot replays only its games.
	f, err := os.OpenFile(filepath.Join(subs, "badmove.py"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("# fixed nothing\n")
	f.Close()
	third, err := Run(ctx, d, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if third.Played != 8 || third.Skipped != 12 {
		t.Errorf("after changing one bot: played %d skipped %d, want 8 12", third.Played, third.Skipped)
	}
	if n := sandboxtest.Leftovers(t, d); n != 0 {
		t.Errorf("%d containers left after the tournament", n)
	}
}

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

// storedGames are the games recorded in tid, by key: each once.
func storedGames(t *testing.T, db *results.DB, tid int64) map[string]int64 {
	t.Helper()
	list, err := db.Games(context.Background(), tid, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, g := range list {
		if _, twice := ids[g.Key]; twice {
			t.Errorf("game %s stored twice", g.Key)
		}
		ids[g.Key] = g.ID
	}
	return ids
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
	started, stored := run.Games(), storedGames(t, db, sum.Tournament.ID)
	if len(plan) != 20 || sum.Played != 20 || len(started) != 20 || len(stored) != 20 {
		t.Fatalf("%d planned, %d played, %d started, %d stored: want 20 each", len(plan), sum.Played, len(started), len(stored))
	}
	for _, p := range plan {
		if _, ok := stored[p.Key]; started[p.Key] != 2 || !ok {
			t.Errorf("game %s: %d sessions started, stored %v; want 2 and stored", p.Key, started[p.Key], ok)
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
	stored := storedGames(t, db, sum.Tournament.ID)
	if len(stored) < 3 || len(stored) >= 20 || first.Open() != 0 {
		t.Fatalf("stopped run: %d games stored, %d sessions open; want 3 to 19 and none", len(stored), first.Open())
	}
	second := &sandboxtest.Fake{}
	sum, err = Run(context.Background(), second, db, cfg, nil)
	if err != nil || sum.Skipped != len(stored) || sum.Played != 20-len(stored) {
		t.Fatalf("resumed run: played %d skipped %d (%v), want %d %d", sum.Played, sum.Skipped, err, 20-len(stored), len(stored))
	}
	for key := range second.Games() {
		if _, ok := stored[key]; ok {
			t.Errorf("game %s played again", key)
		}
	}
	if n := len(storedGames(t, db, sum.Tournament.ID)); n != 20 {
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
	for key, id := range storedGames(t, db, sum.Tournament.ID) {
		if !strings.Contains(key, "sleeper@") {
			continue
		}
		if n := run.Asked(key, "sleeper"); n != 2 {
			t.Errorf("game %s: the sleeper was asked %d times, want 2", key, n)
		}
		g, err := db.Game(ctx, id)
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
			t.Errorf("game %s: %d moves, %d of the sleeper's not asked", key, len(g.Moves), notAsked)
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
	var failures atomic.Int32 // reported from several workers at once
	sum, err := Run(ctx, run, db, cfg, func(e Event) {
		if e.Kind == "failure" {
			failures.Add(1)
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
	if want := map[string]int{"a+b": 2, "a+c": 6}; fmt.Sprint(perPair) != fmt.Sprint(want) || int(failures.Load()) != len(fails) {
		t.Errorf("failures per pair = %v (%d reported), want %v", perPair, failures.Load(), want)
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
