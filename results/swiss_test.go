package results_test

import (
	"testing"
	"time"

	"botjudge/games"
	"botjudge/results"
)

// A swiss tournament's standings count its byes and break ties by
// Buchholz; a round's bye planned again goes to one bot only; byes of
// rounds beyond the latest run's are not counted.
func TestSwissStandingsFromStore(t *testing.T) {
	d := MustOpen(t)
	a, b, c := mustBot(t, d, "virus", "a", "1"), mustBot(t, d, "virus", "b", "2"), mustBot(t, d, "virus", "c", "3")
	tour := mustTournament(t, d, "virus", a, b, c)
	if err := d.StartRun(ctx, tour.ID, results.Run{BotIDs: []int64{a.ID, b.ID, c.ID}, Planned: 8, Rounds: 2, Format: results.FormatSwiss}); err != nil {
		t.Fatal(err)
	}
	for _, g := range []results.Game{duel(tour, "r1/a/b", a, b, 1, 2), duel(tour, "r1/b/a", b, a, 2, 1)} {
		if _, err := d.SaveGame(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, bye := range []results.Bye{{Round: 1, BotID: b.ID, Games: 2}, {Round: 1, BotID: c.ID, Games: 2}, {Round: 3, BotID: a.ID, Games: 2}} {
		if err := d.SetBye(ctx, tour.ID, bye); err != nil {
			t.Fatal(err)
		}
	}
	byes, err := d.Byes(ctx, tour.ID)
	if err != nil || len(byes) != 1 || byes[0].BotID != c.ID {
		t.Fatalf("byes %+v (%v), want round 1's to c only", byes, err)
	}
	st, err := d.Standings(ctx, tour.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	// a won both games against b and c had the bye: 2 points each; the
	// Buchholz of a is b's 0 points, that of b is a's 2.
	got := map[string]results.Standing{}
	for _, s := range st {
		got[s.Bot.Name] = s
	}
	if got["c"].Points != 2 || got["c"].Byes != 1 || got["a"].Points != 2 || got["a"].Buchholz != 0 || got["b"].Buchholz != 2 {
		t.Errorf("standings %+v", st)
	}
	if tr, err := d.Tournament(ctx, tour.ID); err != nil || tr.Format != results.FormatSwiss {
		t.Errorf("tournament format %q (%v)", tr.Format, err)
	}
}

// The time left is measured on the run's games (their durations and moves)
// and on the games in progress (their start).
func TestCountGamesMeasuresTheRun(t *testing.T) {
	d := MustOpen(t)
	a, b := mustBot(t, d, "virus", "a", "1"), mustBot(t, d, "virus", "b", "2")
	tour := mustTournament(t, d, "virus", a, b)
	start := time.Now().Add(-time.Minute)
	g := duel(tour, "r1/a/b", a, b, 1, 2, results.Move{Ply: 0}, results.Move{Ply: 1, Move: games.Move{Seat: 1}}, results.Move{Ply: 2})
	g.Started, g.Finished = start, start.Add(30*time.Second)
	if _, err := d.SaveGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	c, err := d.CountGames(ctx, tour.ID, start)
	if err != nil {
		t.Fatal(err)
	}
	if c.Since != 1 || c.SinceTime != 30*time.Second || c.SinceMoves != 3 {
		t.Errorf("count %+v, want 1 game of 30 s and 3 moves", c)
	}
	if mean, n, err := d.GameTime(ctx, "virus"); err != nil || n != 1 || mean != 30*time.Second {
		t.Errorf("game time %v over %d (%v), want 30s over 1", mean, n, err)
	}
	live := results.Live{TournamentID: tour.ID, Key: "r1/b/a", Players: g.Players, Moves: 5, Started: start}
	if err := d.PutLive(ctx, live); err != nil {
		t.Fatal(err)
	}
	ls, err := d.Live(ctx, tour.ID)
	if err != nil || len(ls) != 1 || !ls[0].Started.Equal(start) {
		t.Errorf("live %+v (%v), want started %v", ls, err, start)
	}
}
