// Package scoringtest writes the games of a test in a short notation, for
// the tests of package scoring and of the packages that rank with it.
package scoringtest

import (
	"strings"

	"botjudge/results/scoring"
)

// League builds entrants named by single letters (bot IDs 1, 2, ...) and
// games from results written "AB" (A beats B), "BA" or "A=B" (draw).
func League(names string, played ...string) ([]scoring.Entrant, []scoring.Game) {
	var entrants []scoring.Entrant
	for i, r := range names {
		entrants = append(entrants, scoring.Entrant{ID: int64(i + 1), Name: string(r)})
	}
	id := func(r byte) int64 { return int64(strings.IndexByte(names, r) + 1) }
	var games []scoring.Game
	for _, p := range played {
		a, b, rb := p[0], p[len(p)-1], 2
		if strings.Contains(p, "=") {
			rb = 1
		}
		games = append(games, scoring.Game{Seats: []scoring.Seat{{BotID: id(a), Rank: 1}, {BotID: id(b), Rank: rb}}})
	}
	return entrants, games
}
