package arena

import (
	"maps"
	"slices"

	"botjudge/results"
	"botjudge/results/scoring"
)

// Point is a version's rating just after one of its arena games, as the
// ladder stood then (see Paths).
type Point struct {
	// Game is the arena game's ID.
	Game   int64   `json:"game"`
	Rating float64 `json:"rating"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
}

// Paths is the rating path of each of one student's versions (bots, by
// bot ID): its rating after each of its arena games, at most most points,
// spread evenly over its games and always after its last one. It answers
// "did my change help?": a version's path beside the one before.
//
// The rating after game k is the ladder's own fit (Rank's) over the arena
// games up to k among the bots on the ladder then: each student's version
// that played last by then, and the example bots that played. A version
// since replaced keeps the path it had while it played, which the ladder
// of now, without it, could not give.
func Paths(a results.Arena, bots []int64, most int) map[int64][]Point {
	at := checkpoints(a.Games, bots, most)
	latest := map[int64]int64{} // by player: the bot that played last
	out := map[int64][]Point{}
	for k, g := range a.Games {
		for _, s := range g.Seats {
			latest[player(a, s.BotID)] = s.BotID
		}
		bot, ok := at[k]
		if !ok {
			continue
		}
		ids := slices.Sorted(maps.Values(latest))
		r := scoring.Ratings(ids, a.Games[:k+1])[slices.Index(ids, bot)]
		out[bot] = append(out[bot], Point{Game: g.ID, Rating: r.Rating, Low: r.Low, High: r.High})
	}
	return out
}

// player is who plays as bot on the ladder: its student, whose versions
// take each other's place, or (negated, never a student's id) the example
// bot itself.
func player(a results.Arena, bot int64) int64 {
	if b, ok := a.Joined[bot]; ok && b.Student != 0 {
		return b.Student
	}
	return -bot
}

// checkpoints are the games (by index in games) after which a bot of bots
// is rated, with that bot: at most most of each bot's games, the last
// always, so that a page's cost stays bounded however long a version plays.
func checkpoints(games []scoring.Game, bots []int64, most int) map[int]int64 {
	played := map[int64][]int{}
	for k, g := range games {
		for _, s := range g.Seats {
			if slices.Contains(bots, s.BotID) {
				played[s.BotID] = append(played[s.BotID], k)
			}
		}
	}
	at := map[int]int64{}
	for bot, ks := range played {
		n := min(most, len(ks))
		for j := 1; j <= n; j++ {
			at[ks[j*len(ks)/n-1]] = bot
		}
	}
	return at
}
