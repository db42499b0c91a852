package screen_test

import (
	"context"
	"testing"

	"botjudge/judge/screen"
	"botjudge/results"
)

// Every stored game of the seed database replays through the rules to its
// stored result.
func TestReplaysEndOnStoredOutcome(t *testing.T) {
	ctx := context.Background()
	for _, sd := range []seeded{fix.virus, fix.ships, fix.live} {
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
			for _, f := range rp.Frames {
				moves += len(f.Moves)
			}
			if moves != len(g.Moves) {
				t.Fatalf("%s game %d: %d moves in the frames, %d stored", sd.t.Game, g.ID, moves, len(g.Moves))
			}
		}
	}
}
