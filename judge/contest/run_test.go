package contest

import (
	"context"
	"os"
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
				if m.Elapsed > 2*lim.Move+2*time.Second || !strings.Contains(m.Detail, "of wall time (twice the limit)") {
					t.Errorf("sleeper's move took %s, more than twice the limit + 2 s, or does not say why: %s", m.Elapsed, m.Detail)
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
