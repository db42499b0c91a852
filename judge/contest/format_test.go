package contest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"botjudge/games/tron"
	"botjudge/games/virus"
	"botjudge/results"
)

// threeSeats is a game that seats 3 or 4 bots.
type threeSeats struct{ virus.Rules }

func (threeSeats) Seats() (int, int) { return 3, 4 }

// testField is n bots of distinct versions, recorded in a fresh database's
// tournament.
func testField(t *testing.T, n int) field {
	t.Helper()
	db, err := results.Open(filepath.Join(t.TempDir(), "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	tr, err := db.EnsureTournament(ctx, "virus", 1, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	f := field{rules: virus.Rules{}, seed: 1, store: db, tid: tr.ID}
	for i := range n {
		e := Entry{Name: fmt.Sprintf("bot%d", i), SHA256: fmt.Sprintf("%064d", i)}
		b, err := db.AddBot(ctx, results.Bot{Game: "virus", Name: e.Name, SHA256: e.SHA256})
		if err != nil {
			t.Fatal(err)
		}
		f.entries, f.ids = append(f.entries, e), append(f.ids, b.ID)
	}
	return f
}

// TestSchedulers: each format's scheduler counts its games before the
// first is played, plays them in the stages it says, and bounds its worst
// case by the games it will play: a round robin plans every game in one
// stage and is told of swiss; swiss plans a round a stage, from the
// results stored, sits a bot out when the field is odd, and counts the
// rounds not yet paired as duels in its worst case; a free-for-all of more
// bots than seats plays heats.
func TestSchedulers(t *testing.T) {
	ctx := context.Background()
	f := testField(t, 9)

	rr, rounds, err := schedulerFor(Duels, f, 0)
	if err != nil || rounds != 1 || rr.games() != 9*8 || rr.stages() != 1 || !rr.suggests() || rr.seats() != 2 {
		t.Fatalf("duels: %d rounds, %d games, %d stages, suggests %v (%v)", rounds, rr.games(), rr.stages(), rr.suggests(), err)
	}
	if all, _ := rr.next(ctx, 1); len(all) != rr.games() || len(rr.worst(all[:5], 5)) != 5 {
		t.Errorf("duels: stage 1 has %d games, want all %d", len(all), rr.games())
	}

	sw, rounds, err := schedulerFor(Swiss, f, 0)
	if err != nil || rounds != SwissRounds(9) || sw.games() != swissGames(9, rounds, 1) || sw.stages() != rounds || sw.suggests() {
		t.Fatalf("swiss: %d rounds, %d games, %d stages (%v)", rounds, sw.games(), sw.stages(), err)
	}
	round1, err := sw.next(ctx, 1)
	if err != nil || len(round1) != 8 { // 4 pairs, both ways; one bot sits out
		t.Fatalf("swiss round 1: %d games (%v), want 8", len(round1), err)
	}
	byes, err := f.store.Byes(ctx, f.tid)
	if err != nil || len(byes) != 1 || byes[0].Round != 1 {
		t.Errorf("swiss round 1's bye: %+v (%v)", byes, err)
	}
	for _, g := range round1 {
		if g.Round != 1 || !strings.HasPrefix(g.Key, "r1/swiss1/") {
			t.Errorf("swiss round 1 plans %+v", g)
		}
	}
	if worst := sw.worst(round1[:1], 20); len(worst) != 20 || len(worst[19].Seats) != 2 {
		t.Errorf("swiss worst case counts %d games, want the 20 left, duels", len(worst))
	}

	if _, _, err := schedulerFor(Swiss, field{rules: threeSeats{}, entries: f.entries}, 0); err == nil || !strings.Contains(err.Error(), "cannot be played in swiss rounds of duels") {
		t.Errorf("a game of 3 seats in swiss: %v", err)
	}

	tf := f
	tf.rules = tron.Rules{}
	ffa, _, err := schedulerFor(FreeForAll, tf, 1)
	_, most := tron.Rules{}.Seats()
	if err != nil || ffa.suggests() || ffa.seats() > most || ffa.games() != (9+most-1)/most {
		t.Errorf("ffa of 9 tron bots: %d games of %d seats, suggests %v (%v)", ffa.games(), ffa.seats(), ffa.suggests(), err)
	}
}
