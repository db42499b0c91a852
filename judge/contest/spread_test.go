package contest

import (
	"fmt"
	"slices"
	"testing"
)

// TestSpreadKeepsGamesApart: the order of play keeps every game and spaces
// each bot's games, where the schedule's own order has bot 0 in its first
// 2(n-1) games in a row.
func TestSpreadKeepsGamesApart(t *testing.T) {
	for _, n := range []int{2, 3, 4, 6, 7, 30} {
		var games []Planned
		for i := range n {
			for j := i + 1; j < n; j++ {
				games = append(games, Planned{Key: fmt.Sprintf("%d/%d", i, j), Seats: []int{i, j}}, Planned{Key: fmt.Sprintf("%d/%d", j, i), Seats: []int{j, i}})
			}
		}
		got := spread(games)
		keys := func(g []Planned) []string {
			var k []string
			for _, p := range g {
				k = append(k, p.Key)
			}
			slices.Sort(k)
			return k
		}
		if !slices.Equal(keys(got), keys(games)) {
			t.Fatalf("%d bots: the games changed", n)
		}
		// With four bots or more two games in a row can be apart, but for
		// a few (the last of a round robin); in the schedule's order,
		// nearly all share one.
		if together, before := sharing(got), sharing(games); n >= 4 && together > n {
			t.Errorf("%d bots: %d games in a row share a bot (%d in the schedule's order): %v", n, together, before, keys(got))
		}
	}
}

// sharing counts the games that share a bot with the one before.
func sharing(games []Planned) int {
	n := 0
	for i := 1; i < len(games); i++ {
		if slices.ContainsFunc(games[i].Seats, func(s int) bool { return slices.Contains(games[i-1].Seats, s) }) {
			n++
		}
	}
	return n
}
