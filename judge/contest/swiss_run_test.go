package contest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
)

// pickers is a runner of cheap virus bots, in Go: bot i plays the k-th
// legal cell, k = i mod 13 - 1 (passing when k is negative), so that a
// field of them has winners and losers for the pairings to sort, and 40 of
// them play a swiss tournament in seconds. The bots' files are only names.
type pickers struct{ sandbox.StartOnly }

func (pickers) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	var i int
	if _, err := fmt.Sscanf(bot.Name, "bot%d", &i); err != nil {
		return nil, err
	}
	return &picker{k: i%13 - 1}, nil
}

type picker struct{ k int }

func (p *picker) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	var req struct {
		Side string
		Game struct {
			Grid       [][]int
			References map[string]int
		}
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return sandbox.Reply{}, err
	}
	g, me, empty := req.Game.Grid, req.Game.References[req.Side], req.Game.References["neutral"]
	var cells [][2]int
	for r := range g {
		for c := range g[r] {
			if g[r][c] != empty {
				continue
			}
		near:
			for i := -1; i <= 1; i++ {
				for j := -1; j <= 1; j++ {
					if 0 <= r+i && r+i < len(g) && 0 <= c+j && c+j < len(g) && g[r+i][c+j] == me {
						cells = append(cells, [2]int{r, c})
						break near
					}
				}
			}
		}
	}
	answer := []byte("false")
	if p.k >= 0 && len(cells) > 0 {
		answer, _ = json.Marshal(cells[p.k%len(cells)])
	}
	return sandbox.Reply{Data: answer, Elapsed: time.Millisecond}, nil
}
func (p *picker) Ready() sandbox.Reply            { return sandbox.Reply{} }
func (p *picker) Log() string                     { return "" }
func (p *picker) Close(ctx context.Context) error { return nil }

// TestSwissFortyBotsResumes: `judge run --format swiss` on 40 bots plays
// exactly ⌈log2 40⌉+2 = 8 rounds of 20 pairings (both seats each), stopped
// in its second round and run again it plays only the games not recorded,
// no pair meets twice, every bot holds each seat once a round, and the run
// stopped and resumed records the same games as a run never stopped.
func TestSwissFortyBotsResumes(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	for i := range 40 {
		write(t, filepath.Join(subs, fmt.Sprintf("bot%02d.py", i)), fmt.Sprintf("# bot %d\n", i), 0o644)
	}
	open := func(name string) *results.DB {
		db, err := results.Open(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	cfg := Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Format: Swiss, Seed: 7,
		Scheme: results.SchemeDefault, Limits: sandbox.DefaultLimits(), Workers: 2, Image: "test"}
	const want = 8 * 20 * 2

	db := open("judge.db")
	stopCtx, stop := context.WithCancel(ctx)
	var games atomic.Int32
	first, err := Run(stopCtx, pickers{}, db, cfg, func(e Event) {
		if e.Kind == "game" && games.Add(1) == 50 { // round 1 is 40 games
			stop()
		}
	})
	if err == nil {
		t.Fatal("the stopped run says it finished")
	}
	if first.Played < 50 || first.Played >= want {
		t.Fatalf("stopped run played %d games", first.Played)
	}
	second, err := Run(ctx, pickers{}, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.Skipped != first.Played || first.Played+second.Played != want {
		t.Fatalf("stopped run played %d, second played %d and skipped %d: want %d in all, none twice",
			first.Played, second.Played, second.Skipped, want)
	}
	stored := checkSwiss(t, db, second.Tournament.ID, 40, 8)

	// The same tournament never stopped pairs the same bots.
	again, err := Run(ctx, pickers{}, open("again.db"), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Played != want {
		t.Fatalf("unstopped run played %d games, want %d", again.Played, want)
	}
	keys, err := open("again.db").PlayedKeys(ctx, again.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range stored {
		if !keys[g.Key] {
			t.Errorf("game %s of the resumed run is not in the unstopped run", g.Key)
		}
	}
}

// checkSwiss checks the stored games of a swiss tournament of n bots and
// rounds rounds of one leg: each round pairs every bot (n even) once, in
// both seats, and no pair meets in two rounds.
func checkSwiss(t *testing.T, db *results.DB, tid int64, n, rounds int) []results.Game {
	t.Helper()
	ctx := context.Background()
	stored, err := db.Games(ctx, tid, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != rounds*n {
		t.Fatalf("%d games stored, want %d", len(stored), rounds*n)
	}
	type seatCount struct{ first, second int }
	perRound := map[int]map[int64]*seatCount{}
	pairRound := map[[2]int64]int{}
	for _, g := range stored {
		if perRound[g.Round] == nil {
			perRound[g.Round] = map[int64]*seatCount{}
		}
		a, b := g.Players[0].BotID, g.Players[1].BotID
		for i, id := range []int64{a, b} {
			c := perRound[g.Round][id]
			if c == nil {
				c = &seatCount{}
				perRound[g.Round][id] = c
			}
			if i == 0 {
				c.first++
			} else {
				c.second++
			}
		}
		if a > b {
			a, b = b, a
		}
		if r, ok := pairRound[[2]int64{a, b}]; ok && r != g.Round {
			t.Errorf("bots %d and %d met in rounds %d and %d", a, b, r, g.Round)
		}
		pairRound[[2]int64{a, b}] = g.Round
	}
	for r := 1; r <= rounds; r++ {
		if len(perRound[r]) != n {
			t.Errorf("round %d: %d bots played, want %d", r, len(perRound[r]), n)
		}
		for id, c := range perRound[r] {
			if c.first != 1 || c.second != 1 {
				t.Errorf("round %d: bot %d held the first seat %d times and the second %d", r, id, c.first, c.second)
			}
		}
	}
	tour, err := db.Tournament(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if tour.Format != results.FormatSwiss || tour.Rounds != rounds || tour.Planned != rounds*n {
		t.Errorf("tournament: format %q, %d rounds, %d games planned", tour.Format, tour.Rounds, tour.Planned)
	}
	return stored
}

// dazed is a runner of bots that answer nonsense: a Tron game between them
// ends at its first turn, all dead at once, which is all a test of the
// schedule needs.
type dazed struct{ sandbox.StartOnly }

func (dazed) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	return dazed{}, nil
}

func (dazed) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	return sandbox.Reply{Data: []byte("false"), Elapsed: time.Millisecond}, nil // no direction
}
func (dazed) Ready() sandbox.Reply            { return sandbox.Reply{} }
func (dazed) Log() string                     { return "" }
func (dazed) Close(ctx context.Context) error { return nil }

// TestHeatsRun: 25 Tron bots in the free-for-all format play heats: two
// rounds (Tron's default) of three games of 8 or 9 bots, each bot in one
// game a round, and a run again plays nothing.
func TestHeatsRun(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	subs := filepath.Join(root, "tron")
	for i := range 25 {
		write(t, filepath.Join(subs, fmt.Sprintf("bot%02d.py", i)), fmt.Sprintf("# bot %d\n", i), 0o644)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := Config{Rules: tron.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Format: FreeForAll, Seed: 3,
		Scheme: results.SchemeDefault, Limits: sandbox.DefaultLimits(), Workers: 2, Image: "test"}
	sum, err := Run(ctx, dazed{}, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Played != 6 {
		t.Fatalf("played %d games, want 2 rounds of 3 heats", sum.Played)
	}
	stored, err := db.Games(ctx, sum.Tournament.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]map[int64]int{1: {}, 2: {}}
	for _, g := range stored {
		if n := len(g.Players); n < 8 || n > 9 {
			t.Errorf("game %s of %d bots", g.Key, n)
		}
		for _, p := range g.Players {
			seen[g.Round][p.BotID]++
		}
	}
	for r, bots := range seen {
		if len(bots) != 25 {
			t.Errorf("round %d: %d bots played, want 25", r, len(bots))
		}
		for id, n := range bots {
			if n != 1 {
				t.Errorf("round %d: bot %d in %d heats", r, id, n)
			}
		}
	}
	again, err := Run(ctx, dazed{}, db, cfg, nil)
	if err != nil || again.Played != 0 || again.Skipped != 6 {
		t.Errorf("run again: played %d, skipped %d (%v)", again.Played, again.Skipped, err)
	}
}

// A round robin of 40 bots, where the games stored before took a minute
// each, gets a suggestion of swiss before its first game, with both
// projected times; the same field in swiss rounds gets none.
func TestSuggestsSwissAtStart(t *testing.T) {
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	for i := range 40 {
		write(t, filepath.Join(subs, fmt.Sprintf("bot%02d.py", i)), fmt.Sprintf("# bot %d\n", i), 0o644)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	// Six games of a minute, in an earlier tournament of the same game.
	earlier, err := db.EnsureTournament(ctx, "virus", 99, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := db.AddBot(ctx, results.Bot{Game: "virus", Name: "a", SHA256: "a", Path: "a.py"})
	b, _ := db.AddBot(ctx, results.Bot{Game: "virus", Name: "b", SHA256: "b", Path: "b.py"})
	start := time.Now().Add(-time.Hour)
	for i := range minMeasured {
		g := results.Game{TournamentID: earlier.ID, Key: fmt.Sprint(i), Round: 1, Reason: "grid full", Started: start, Finished: start.Add(time.Minute),
			Players: []results.Player{{Seat: 0, BotID: a.ID, Rank: 1}, {Seat: 1, BotID: b.ID, Rank: 2}}}
		if _, err := db.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []Format{Duels, Swiss} {
		cfg := Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Format: format, Seed: 1,
			Scheme: results.SchemeDefault, Limits: sandbox.DefaultLimits(), Workers: 2, Image: "test"}
		stopCtx, stop := context.WithCancel(ctx)
		var said []string
		Run(stopCtx, pickers{}, db, cfg, func(e Event) {
			switch e.Kind {
			case "suggest":
				said = append(said, e.Text)
			case "start":
				stop() // the suggestion comes before the first game
			}
		})
		stop()
		switch {
		case format == Duels && (len(said) != 1 || !strings.Contains(said[0], "1560 games left take about 13 h 00 (30s a game, 2 at once, measured on 6 games before); --format swiss plays 8 rounds, 320 games, in about 2 h 40")):
			t.Errorf("round robin: said %q", said)
		case format == Swiss && len(said) != 0:
			t.Errorf("swiss: said %q", said)
		}
	}
}
