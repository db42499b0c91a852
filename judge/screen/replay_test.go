package screen_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"botjudge/games"
	"botjudge/judge/screen"
	"botjudge/results"
)

// Every stored game of the seed database replays through the rules to its
// stored result, every frame in the envelope the pages draw without the
// game: a score per seat, and whose turn it is until the end.
func TestReplaysEndOnStoredOutcome(t *testing.T) {
	ctx := context.Background()
	for _, sd := range fix.all() {
		list, err := fix.db.Games(ctx, sd.t.ID, results.GameFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range list {
			g, err := fix.db.Game(ctx, item.ID)
			if err != nil {
				t.Fatal(err)
			}
			rp, err := screen.NewReplay(sd.t.Game, g)
			if err != nil {
				t.Fatal(err)
			}
			if !rp.Consistent || rp.Problem != "" {
				t.Fatalf("%s game %d: consistent=%v problem=%q", sd.t.Game, g.ID, rp.Consistent, rp.Problem)
			}
			if rp.Outcome.Reason != g.Reason || len(rp.Outcome.Rank) != len(g.Players) {
				t.Fatalf("%s game %d: outcome %+v, stored reason %q", sd.t.Game, g.ID, rp.Outcome, g.Reason)
			}
			for i, p := range g.Players {
				if rp.Outcome.Rank[i] != p.Rank || rp.Outcome.Score[i] != p.Score {
					t.Fatalf("%s game %d seat %d: replay rank %d score %d, stored %d %d", sd.t.Game, g.ID, i,
						rp.Outcome.Rank[i], rp.Outcome.Score[i], p.Rank, p.Score)
				}
			}
			// Views that fold from events come first and last only.
			folds := games.IncrementalView(must(lookup(sd.t.Game)))
			moves := 0
			for i, f := range rp.Frames {
				moves += len(f.Moves)
				if want := !folds || i == 0 || i == len(rp.Frames)-1; (f.View != nil) != want {
					t.Fatalf("%s game %d frame %d of %d: has a view %v, want %v", sd.t.Game, g.ID, i, len(rp.Frames), f.View != nil, want)
				}
				if len(f.Scores) != len(g.Players) || (len(f.ToMove) == 0) != (i == len(rp.Frames)-1) {
					t.Fatalf("%s game %d frame %d: scores %v, to move %v", sd.t.Game, g.ID, i, f.Scores, f.ToMove)
				}
			}
			// The envelope's last scores are the stored ones: the cards
			// of any game end on the result.
			if last := rp.Frames[len(rp.Frames)-1]; !slices.Equal(last.Scores, rp.Outcome.Score) {
				t.Fatalf("%s game %d: last frame's scores %v, outcome %v", sd.t.Game, g.ID, last.Scores, rp.Outcome.Score)
			}
			if moves != len(g.Moves) {
				t.Fatalf("%s game %d: %d moves in the frames, %d stored", sd.t.Game, g.ID, moves, len(g.Moves))
			}
		}
	}
}

// A frame's seats to move are those the game waits on for a move: before
// botsArena's init, which every bot answers at once and which the rules
// take unjudged, the first player alone (every seat in Tron).
func TestFirstToMove(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		sd   seeded
		want []int
	}{
		{fix.ttt, []int{0}}, {fix.c4, []int{0}}, {fix.virus, []int{0}},
		// Both fleets are placed at once, and judged.
		{fix.ships, []int{0, 1}}, {fix.boats, []int{0, 1}},
		{fix.ffa, everyone(12)},
	} {
		list := must(fix.db.Games(ctx, c.sd.t.ID, results.GameFilter{}))
		rp := must(screen.NewReplay(c.sd.t.Game, must(fix.db.Game(ctx, list[0].ID))))
		if got := rp.Frames[0].ToMove; !slices.Equal(got, c.want) {
			t.Errorf("%s: at the start the seats to move are %v, want %v", c.sd.t.Game, got, c.want)
		}
		for i, f := range rp.Frames[1:] {
			if f.Moves[0].Unjudged && !slices.Equal(f.ToMove, rp.Frames[i].ToMove) {
				t.Errorf("%s: after the init the seats to move are %v, before it %v", c.sd.t.Game, f.ToMove, rp.Frames[i].ToMove)
			}
		}
	}
}

func lookup(name string) (games.Rules, error) {
	r, ok := games.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no game %q", name)
	}
	return r, nil
}

// The screen's progress counts what the games list holds, without reading
// the games.
func TestCountGamesMatchesTheList(t *testing.T) {
	ctx := context.Background()
	for _, sd := range fix.all() {
		list := must(fix.db.Games(ctx, sd.t.ID, results.GameFilter{}))
		var want results.GameCount
		for _, g := range list {
			want.Games++
			want.LastID = max(want.LastID, g.ID)
			if g.Finished.After(want.LastFinished) {
				want.LastFinished = g.Finished
			}
			if !g.Finished.Before(sd.t.Started) {
				want.Since++
			}
		}
		got := must(fix.db.CountGames(ctx, sd.t.ID, sd.t.Started))
		if !got.LastFinished.Equal(want.LastFinished) || got.Games != want.Games || got.Since != want.Since || got.LastID != want.LastID {
			t.Errorf("%s #%d: counted %+v, the list gives %+v", sd.t.Game, sd.t.ID, got, want)
		}
	}
}
