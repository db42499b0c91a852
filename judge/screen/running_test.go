package screen_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/battleship"
	"botjudge/games/battleships"
	"botjudge/games/connectfour"
	"botjudge/games/tictactoe"
	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/judge/screen"
	"botjudge/results"
)

// Tournaments in progress, as a projector shows them while `judge run`
// plays: games stored, games being played (a live row each, half-way
// through), and the rest to come. Their bots bear the names of the example
// bots of submissions/, which a first `make run` shows.

// running are the fixture's tournaments in progress.
type running struct {
	// busy is the longest progress line the header shows: the second round
	// of 30 tictactoe bots, started two hours ago, "1000 / 1740 games · 12
	// playing · about 11 h 20 min left".
	busy seeded
	// boards has one tournament in progress per board (and per kind of
	// live card: two seats, three, five, twelve), each with a game on
	// every live card.
	boards []seeded
}

// renamed is bots under these names, their ways of playing taken in turn.
func renamed(bots []bot, names ...string) []bot {
	out := make([]bot, len(names))
	for i, n := range names {
		out[i] = bots[i%len(bots)]
		out[i].name = n
	}
	return out
}

// inRowClass are n marks-in-a-row bots of the first names, of every style.
func inRowClass(n int) []bot {
	return renamed(inRowBots(), firstNames[:n]...)
}

// inProgress plays the games of plan (the bots of each, by seat) of rules
// between bots, stores the first `store`, and writes the next `live` as
// games in progress, each half-way through. Games before `since` in the
// plan were stored by an earlier run (a first round); the current run
// started `ago` before now and stored the others since, so that the
// screen's estimate of the time left is the run's pace.
func inProgress(ctx context.Context, db *results.DB, path string, rules games.Rules, seed int64, bots []bot, plan [][]int, rounds, since, store, live int, ago time.Duration) (seeded, error) {
	set := fmt.Sprintf(`{"rounds":%d,"scheme":"1-0.5-0","limits":{"move_ms":10000}}`, rounds)
	t, err := db.EnsureTournament(ctx, rules.Name(), seed, []byte(set))
	if err != nil {
		return seeded{}, err
	}
	sd := seeded{bots: bots}
	if sd.ids, err = enter(ctx, db, rules, seed, bots); err != nil {
		return sd, err
	}
	if err := db.StartRun(ctx, t.ID, results.Run{BotIDs: sd.ids, Planned: len(plan), Rounds: rounds}); err != nil {
		return sd, err
	}
	now := time.Now()
	started := now.Add(-ago)
	perRound := len(plan) / rounds
	for n, seats := range plan {
		round := 1 + n/perRound
		key := fmt.Sprintf("r%d", round)
		for _, b := range seats {
			key += "/" + bots[b].name
		}
		p := pendingGame{key: key, seed: seed*1000 + int64(n), seats: seats}
		gbots, ids := sd.seated(seats)
		switch {
		case n < store:
			// The earlier run's games end before this one started; this
			// run's are spread over its time so far.
			at := started.Add(-time.Duration(since-n) * time.Minute)
			if n >= since {
				at = started.Add(ago * time.Duration(n-since) / time.Duration(max(store-since, 1)))
			}
			g := play(rules, t.ID, key, round, p.seed, gbots, ids, at)
			g.Finished = at.Add(time.Second)
			if _, err := db.SaveGame(ctx, g); err != nil {
				return sd, err
			}
		case n < store+live:
			g := play(rules, t.ID, key, round, p.seed, gbots, ids, now)
			l := liveAt(rules, g, len(g.Moves)/2)
			// Updated ahead of time: the run looks alive (it wrote a
			// move in the last minutes) for as long as the tests take.
			l.Updated = now.Add(time.Hour)
			if err := db.PutLive(ctx, l); err != nil {
				return sd, err
			}
			sd.live = append(sd.live, l)
		default:
			sd.pending = append(sd.pending, p)
		}
	}
	if err := backdate(ctx, path, t.ID, started); err != nil {
		return sd, err
	}
	sd.t, err = db.Tournament(ctx, t.ID)
	return sd, err
}

// backdate makes the run of tournament tid of the database at path start
// at `at`: StartRun says now, and the time left is only worth reading
// after hours of play.
func backdate(ctx context.Context, path string, tid int64, at time.Time) error {
	conn, err := sql.Open("sqlite3", path+"?_busy_timeout=5000")
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.ExecContext(ctx, `UPDATE tournaments SET started = ? WHERE id = ?`, at.UnixNano(), tid)
	return err
}

// newRunning builds the tournaments in progress in db, the file at path.
// Seeds from 101 on: no other tournament of the fixture has them.
func newRunning(ctx context.Context, db *results.DB, path string) (running, error) {
	var r running
	var err error
	// 30 bots, two rounds: the first round (870 games) was played by an
	// earlier run, the second has 130 games after two hours.
	class := inRowClass(30)
	plan := append(duels(30), duels(30)...)
	if r.busy, err = inProgress(ctx, db, path, tictactoe.Rules, 101, class, plan, 2, 870, 1000, 12, 2*time.Hour); err != nil {
		return r, err
	}
	// Each with half its games stored (a free-for-all, its first game),
	// then its games in progress.
	type board struct {
		rules       games.Rules
		bots        []bot
		plan        [][]int
		store, live int
	}
	boards := []board{
		// A long name of one word, which must not cover the crosstable.
		{virus.Rules{}, renamed(virusBots(4), "first_cell", "greedy", "lookahead", "victoria_de_la_fontaine_longname"), duels(4), 6, 2},
		{battleships.Rules{}, renamed(shipsBots(), "Checker", "backwards", "hunter", "parity", "random_shots", "rows", "starter", "sweep"), duels(8), 28, 4},
		{connectfour.Rules, renamed(inRowBots(), "alphabeta", "greedy", "random_column"), duels(3), 3, 2},
		{battleship.Rules{}, renamed(boatsBots()[:3], "hunter", "parity", "random_shots"), duels(3), 3, 2},
		{tron.Rules{}, renamed(tronBots(3), "floodfill", "straight", "wanderer"), duels(3), 3, 2},
		// A game of three seats and one of five in progress, as fix.tron.
		{tron.Rules{}, tronBots(5), freeForAll(5), 9, 2},
		// A free-for-all of twelve: one game a round.
		{tron.Rules{}, tronBots(tron.MaxSeats), [][]int{everyone(tron.MaxSeats), everyone(tron.MaxSeats)}, 1, 1},
	}
	for i, b := range boards {
		sd, err := inProgress(ctx, db, path, b.rules, int64(102+i), b.bots, b.plan, 1, 0, b.store, b.live, 10*time.Minute)
		if err != nil {
			return r, err
		}
		r.boards = append(r.boards, sd)
	}
	return r, nil
}

// liveAt is game g after the steps of its first n moves (fewer when a step
// would need more), as `judge run` writes it while the game is played.
func liveAt(rules games.Rules, g results.Game, n int) results.Live {
	answers := answersOf(g.Moves[:n])
	names := make([]string, len(g.Players))
	players := make([]results.Player, len(g.Players))
	for i, pl := range g.Players {
		names[i] = pl.Name
		players[i] = results.Player{Seat: i, BotID: pl.BotID, Name: pl.Name}
	}
	applied, step := 0, 0
	s, _ := games.Replay(rules, g.Seed, names, answers, func(_ games.State, moves []games.Move) { // stops where the answers do
		step = len(moves)
		applied += step
	})
	return results.Live{TournamentID: g.TournamentID, Key: g.Key, Players: players, Moves: applied,
		Last: g.Moves[applied-step : applied], View: s.View(), Scores: s.Scores()}
}

// A tournament's time left counts the games of the others running at the
// same time, which share the machine (a side-by-side `judge run`), and no
// longer those of one that finished. Its 4 games of 1 s to come on its 2
// workers (its games in progress) take 2 s alone; beside a tournament of
// games as long with one in progress, the two deal the 3 workers evenly: 4/1.5 s.
func TestLeftBesideOthers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "beside.db")
	db, err := results.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(screen.New(db, screen.Options{Log: log.New(testLog{t}, "", 0)}))
	defer srv.Close()
	left := func(tid int64) float64 {
		t.Helper()
		var in screen.Info
		res, err := http.Get(fmt.Sprintf("%s/api/t/%d/info.json", srv.URL, tid))
		if err == nil {
			defer res.Body.Close()
			err = json.NewDecoder(res.Body).Decode(&in)
		}
		if err != nil || in.Progress.LeftKind != "about" {
			t.Fatalf("%v: %+v", err, in.Progress)
		}
		return in.Progress.Left
	}
	bots := renamed(virusBots(4), "first_cell", "greedy", "lookahead", "random_bot")
	first, err := inProgress(ctx, db, path, virus.Rules{}, 201, bots, duels(4), 1, 0, 6, 2, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	alone := left(first.t.ID)
	other, err := inProgress(ctx, db, path, virus.Rules{}, 202, bots, append(duels(4), duels(4)...), 1, 0, 3, 1, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if alone != 2 {
		t.Errorf("alone: %v s left, want 2", alone)
	}
	if beside := left(first.t.ID); beside < 2.66 || beside > 2.67 {
		t.Errorf("beside another tournament's games: %v s left, want 2.67", beside)
	}
	// The list's stream leaves the estimate out, since it would change at
	// every poll; tournaments.json has it.
	var list []screen.Info
	if err := json.Unmarshal(firstEvent(t, srv.URL+"/api/events"), &list); err != nil || len(list) != 2 {
		t.Fatalf("the list's stream: %v, %+v", err, list)
	}
	for _, in := range list {
		if in.Progress.LeftKind != "" || in.Progress.Left != 0 || !in.Progress.Running {
			t.Errorf("the list's stream: %+v, want running with no time left", in.Progress)
		}
	}
	if err := db.FinishRun(ctx, other.t.ID); err != nil {
		t.Fatal(err)
	}
	if again := left(first.t.ID); again != alone {
		t.Errorf("once the other finished: %v s left, want %v as alone", again, alone)
	}
}

// firstEvent is the data of the first event of the stream at url.
func firstEvent(t *testing.T, url string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := bufio.NewScanner(res.Body)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		if data, ok := strings.CutPrefix(lines.Text(), "data: "); ok {
			return []byte(data)
		}
	}
	t.Fatalf("the stream ended: %v", lines.Err())
	return nil
}
