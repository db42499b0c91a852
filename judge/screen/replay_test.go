package screen_test

import (
	"context"
	"slices"
	"testing"

	"botjudge/judge/screen"
	"botjudge/results"
)

// Every stored game of the seed database replays through the rules to its
// stored result, every frame in the envelope the pages draw without the
// game: a score per seat, and whose turn it is until the end.
func TestReplaysEndOnStoredOutcome(t *testing.T) {
	ctx := context.Background()
	for _, sd := range []seeded{fix.virus, fix.ships, fix.tron, fix.live} {
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
			moves := 0
			for i, f := range rp.Frames {
				moves += len(f.Moves)
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
