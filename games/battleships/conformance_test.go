package battleships_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"botjudge/games/battleships"
	"botjudge/games/gamestest"
)

// player places fleetA or fleetB, then shoots a random cell it has not shot
// yet.
func player(rng *rand.Rand, raw json.RawMessage) json.RawMessage {
	var req request
	if json.Unmarshal(raw, &req) != nil {
		return nil
	}
	if req.Cmd == "init" {
		return json.RawMessage([]string{fleetA, fleetB}[rng.IntN(2)])
	}
	var free []string
	for _, c := range scan() {
		if !slices.Contains(req.Hit, c) && !slices.Contains(req.Missed, c) {
			free = append(free, c)
		}
	}
	if len(free) == 0 {
		return nil
	}
	return json.RawMessage(fmt.Sprintf(`{"move":%q}`, free[rng.IntN(len(free))]))
}

func TestConformance(t *testing.T) { gamestest.Conformance(t, battleships.Rules{}, player) }
