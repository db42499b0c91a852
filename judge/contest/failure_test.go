package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// faultyEngine is the real Docker with the engine failing some games, the
// way it fails for real: asked for a memory limit below its minimum, the
// engine refuses to create the container; or the judge loses a game's
// containers in the middle of the game.
type faultyEngine struct {
	sandbox.StartOnly
	d *sandbox.Docker
	// refuse and breakMidGame tell, from the pair of bots in a game and the
	// attempt (0 the first time the game is started), what goes wrong.
	refuse, breakMidGame func(pair string, attempt int) bool

	mu     sync.Mutex
	starts map[string]int // per game key and bot
}

func (f *faultyEngine) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	key := labels[sandbox.LabelGameKey]
	if key == "" { // a check, not a game
		return f.d.Start(ctx, bot, lim, labels)
	}
	f.mu.Lock()
	attempt := f.starts[key+" "+bot.Name]
	f.starts[key+" "+bot.Name]++
	f.mu.Unlock()
	p := pairOf(key)
	if f.refuse(p, attempt) {
		lim.Memory = 1 << 20
	}
	s, err := f.d.Start(ctx, bot, lim, labels)
	if err != nil || !f.breakMidGame(p, attempt) {
		return s, err
	}
	return &breaking{Session: s, left: 3}, nil
}

// breaking is a session whose engine connection dies after a few moves.
type breaking struct {
	sandbox.Session
	left int
}

func (b *breaking) Ask(ctx context.Context, req []byte) (sandbox.Reply, error) {
	if b.left--; b.left < 0 {
		return sandbox.Reply{}, errors.New("sandbox: the engine connection was lost (test)")
	}
	return b.Session.Ask(ctx, req)
}

// pairOf names a game's bots in alphabetical order: "first_cell+greedy".
func pairOf(key string) string {
	parts := strings.Split(key, "/") // r1/name@hash/name@hash
	a, _, _ := strings.Cut(parts[1], "@")
	b, _, _ := strings.Cut(parts[2], "@")
	if b < a {
		a, b = b, a
	}
	return a + "+" + b
}

// A failure of the judge's machinery (the engine refusing a container, a
// game broken off by the judge) is never scored: the game is recorded as a
// failure, retried within the run, and played by a later run if it still
// fails; meanwhile the standings do not count it.
func TestJudgeFailuresAreNotScored(t *testing.T) {
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	for _, name := range []string{"first_cell.py", "greedy.py", "random_bot.py"} {
		copyExample(t, subs, name)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lim := sandbox.DefaultLimits()
	lim.Move = 2 * time.Second
	cfg := Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Rounds: 1, Seed: 1,
		Scheme: results.SchemeDefault, Limits: lim, Workers: 2, Image: "test"}

	engine := &faultyEngine{d: d, starts: map[string]int{},
		// Refused once, then fine; refused all through the first run.
		refuse: func(pair string, attempt int) bool {
			return pair == "first_cell+greedy" && attempt == 0 || pair == "greedy+random_bot"
		},
		breakMidGame: func(pair string, attempt int) bool { return pair == "first_cell+random_bot" && attempt == 0 },
	}
	var failureEvents int
	sum, err := Run(ctx, engine, db, cfg, func(e Event) {
		if e.Kind == "failure" {
			failureEvents++
		}
	})
	if err == nil || !strings.Contains(err.Error(), "2 games could not be played because the judge failed") ||
		!strings.Contains(err.Error(), "run again") || !strings.Contains(err.Error(), "Minimum memory limit") {
		t.Errorf("first run: err = %v; want the 2 games, the engine's words and what to do", err)
	}
	if sum.Played != 4 || sum.Failed != 2 || sum.Skipped != 0 {
		t.Errorf("first run: played %d failed %d skipped %d, want 4 2 0", sum.Played, sum.Failed, sum.Skipped)
	}
	tid := sum.Tournament.ID

	// Each failure is recorded with its game: the retried ones once, the
	// one still failing at every attempt (1 + 2 retries).
	fails, err := db.Failures(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	perPair := map[string]int{}
	for _, f := range fails {
		perPair[pairOf(f.Key)]++
	}
	if want := map[string]int{"first_cell+greedy": 2, "first_cell+random_bot": 2, "greedy+random_bot": 6}; fmt.Sprint(perPair) != fmt.Sprint(want) {
		t.Errorf("failures per pair = %v, want %v", perPair, want)
	}
	if failureEvents != len(fails) {
		t.Errorf("%d failures reported, %d recorded", failureEvents, len(fails))
	}

	// Only the games played count: nobody lost or scored for the judge.
	gamesPerBot := func(wantGames map[string]int) {
		t.Helper()
		st, err := db.Standings(ctx, tid, results.SchemeDefault)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, s := range st {
			got[s.Bot.Name] = s.Games
			if s.Timeouts+s.Crashes+s.Illegal != 0 {
				t.Errorf("%s was charged faults: %+v", s.Bot.Name, s)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(wantGames) {
			t.Errorf("games per bot in the standings = %v, want %v", got, wantGames)
		}
		if n := sandboxtest.Leftovers(t, d); n != 0 {
			t.Errorf("%d containers left", n)
		}
		if live, err := db.Live(ctx, tid); err != nil || len(live) != 0 {
			t.Errorf("live games left: %v, %v", live, err)
		}
	}
	gamesPerBot(map[string]int{"first_cell": 4, "greedy": 2, "random_bot": 2})
	checkWhole(t, db, tid, 4)

	// Once the engine works again, a later run plays just the missing games.
	again, err := Run(ctx, d, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Played != 2 || again.Skipped != 4 || again.Failed != 0 {
		t.Errorf("second run: played %d skipped %d failed %d, want 2 4 0", again.Played, again.Skipped, again.Failed)
	}
	gamesPerBot(map[string]int{"first_cell": 4, "greedy": 4, "random_bot": 4})
	checkWhole(t, db, tid, 6)
}

// checkWhole checks that the tournament has n games, each once, each whole:
// its moves replay to the end of the game and to the recorded outcome.
func checkWhole(t *testing.T, db *results.DB, tid int64, n int) {
	t.Helper()
	ctx := context.Background()
	keys := storedGames(t, db, tid)
	for _, id := range keys {
		g, err := db.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{g.Players[0].Name, g.Players[1].Name}
		var answers []games.Answer
		for _, m := range g.Moves {
			a := games.Answer{Data: m.Answer}
			if len(m.Answer) == 0 {
				a = games.Answer{Fault: fault.Kind(m.Verdict), Detail: m.Detail}
			}
			answers = append(answers, a)
		}
		final, err := games.Replay(virus.Rules{}, g.Seed, names, answers, nil)
		out, _ := json.Marshal(final.Outcome())
		if err != nil || string(out) != string(g.Outcome) {
			t.Errorf("game %s is not whole: replay gives %s (%v), recorded %s", g.Key, out, err, g.Outcome)
		}
	}
	if len(keys) != n {
		t.Errorf("%d games recorded, want %d", len(keys), n)
	}
}
