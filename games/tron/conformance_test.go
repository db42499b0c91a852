package tron

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"botjudge/games/gamestest"
)

// player moves its head to a random free cell next to it, or anywhere when
// it is walled in.
func player(rng *rand.Rand, raw json.RawMessage) json.RawMessage {
	var req struct {
		Action string     `json:"action"`
		Board  [][][2]int `json:"board"`
		Me     int        `json:"player-index"`
		Width  int        `json:"width"`
		Height int        `json:"height"`
	}
	if json.Unmarshal(raw, &req) != nil || req.Action == "init" || req.Me >= len(req.Board) || len(req.Board[req.Me]) == 0 {
		return json.RawMessage(`{"name":"random"}`)
	}
	taken := map[[2]int]bool{}
	for _, trail := range req.Board {
		for _, c := range trail {
			taken[c] = true
		}
	}
	head := req.Board[req.Me][0]
	names := []string{"x+", "x-", "y+", "y-"}
	var free []string
	for _, name := range names {
		d := directions[name]
		to := [2]int{head[0] + d.x, head[1] + d.y}
		if to[0] >= 0 && to[0] < req.Width && to[1] >= 0 && to[1] < req.Height && !taken[to] {
			free = append(free, name)
		}
	}
	if len(free) == 0 {
		free = names
	}
	slices.Sort(free)
	return json.RawMessage(`{"play":"` + free[rng.IntN(len(free))] + `"}`)
}

func TestConformance(t *testing.T) {
	gamestest.Conformance(t, Rules{}, player)
	gamestest.Conformance(t, Rules{Width: 6, Height: 5}, player)
}
