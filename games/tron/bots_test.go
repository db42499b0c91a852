package tron

import (
	"encoding/json"
	"testing"

	"botjudge/games/fault"
	"botjudge/games/gamestest"
)

const botsDir = "../../submissions/tron"

// TestExampleBots runs the example bots, as programs, on requests of a real
// game: each answers legally, and the same way twice.
func TestExampleBots(t *testing.T) {
	gamestest.CheckBots(t, Rules{Width: 12, Height: 10}, gamestest.Programs(t, botsDir), player)
}

// TestExampleFreeForAll plays the example bots against each other in
// free-for-alls on a small grid: none is ever faulted, and flood fill, which
// keeps to the room it reaches first, outlives the others most of the time.
func TestExampleFreeForAll(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bots' interpreters for hundreds of moves")
	}
	programs := gamestest.Programs(t, botsDir)
	names := make([]string, len(programs))
	bots := make([]gamestest.Bot, len(programs))
	for i, p := range programs {
		names[i], bots[i] = p.Name(), p.Ask
	}
	const games_ = 3
	best := map[string]int{}
	for seed := range int64(games_) {
		s, steps := gamestest.Play(t, Rules{Width: 16, Height: 12}, seed, names, bots)
		for _, st := range steps {
			for _, m := range st.Moves {
				if m.Verdict != fault.None {
					t.Errorf("game %d: %s was faulted: %s %s", seed, names[m.Seat], m.Verdict, m.Reason)
				}
			}
		}
		o := s.Outcome()
		for seat, r := range o.Rank {
			if r == 1 {
				best[names[seat]]++
			}
		}
		out, _ := json.Marshal(o)
		t.Logf("game %d: %s", seed, out)
	}
	if best["floodfill"] < games_/2 {
		t.Errorf("flood fill was first in %d of %d games (%v)", best["floodfill"], games_, best)
	}
}
