package scoring

import "math"

// Rating is one bot's line on a ladder (SPEC §7): its Bradley–Terry
// rating on the Elo scale with the 95 % interval, and its pairwise results.
type Rating struct {
	BotID  int64   `json:"bot_id"`
	Rating float64 `json:"rating"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	// Deviation is one standard error of Rating: what matchmaking weighs
	// an outcome's uncertainty by.
	Deviation float64 `json:"deviation"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
}

// Ratings rates bots over the games among them, in the order of bots:
// the same Bradley–Terry fit and pairwise results as the standings (Rank),
// without the tie-breaks a ladder does not need. A bot without games has
// the average rating with the widest interval.
func Ratings(bots []int64, games []Game) []Rating {
	entrants := make([]Entrant, len(bots))
	for i, id := range bots {
		entrants[i] = Entrant{ID: id}
	}
	t := newTable(entrants, games, SchemeDefault)
	t.rate()
	out := make([]Rating, len(bots))
	for i, l := range t.lines {
		out[i] = Rating{BotID: bots[i], Rating: l.Rating, Low: l.RatingLow, High: l.RatingHigh,
			Deviation: (l.RatingHigh - l.RatingLow) / (2 * 1.96),
			Games:     l.Games, Wins: l.Wins, Draws: l.Draws, Losses: l.Losses}
	}
	return out
}

// Expected is the expected score (a win 1, a draw ½) of a bot rated a
// against one rated b: the Elo scale's logistic, which is the
// Bradley–Terry model's probability on that scale.
func Expected(a, b float64) float64 {
	return 1 / (1 + math.Pow(10, (b-a)/400))
}

// BrainJar's points (SPEC §7, seeds/brainjar-battleships-readme.txt): every
// bot starts at 10; the winner of a game takes 5 % of the loser's points,
// which the loser loses; nobody falls below 10.
const (
	brainJarStart = 10
	brainJarTake  = 0.05
)

// BrainJarPoints replays games, in the order they were played, with
// BrainJar's points, and returns each bot's points in the order of bots.
// A game of more seats counts each pair of its seats (the lower rank wins);
// a draw moves no points. Games with a player not among bots are ignored.
func BrainJarPoints(bots []int64, games []Game) []float64 {
	return replay(bots, games, brainJarStart, func(points []float64, i, j int, score float64) (float64, float64) {
		switch score {
		case 1:
			return brainJarMove(points[j])
		case 0:
			gain, loss := brainJarMove(points[i])
			return loss, gain
		}
		return 0, 0
	})
}

// brainJarMove is what the winner gains and the loser loses (a negative
// number) when the loser had points.
func brainJarMove(points float64) (gain, loss float64) {
	take := brainJarTake * points
	return take, -min(take, points-brainJarStart)
}

// botsArena's Elo (github.com/gnieark/botsArena): every bot starts at
// 1500 on the scale of 400, and K falls as the rating rises.
const botsArenaStart = 1500

func botsArenaK(r float64) float64 {
	switch {
	case r < 1000:
		return 80
	case r < 2000:
		return 50
	case r <= 2400:
		return 30
	}
	return 20
}

// BotsArenaElo replays games, in the order they were played, with
// botsArena's Elo, and returns each bot's rating in the order of bots.
// Each pair of a game's seats is a duel (the lower rank wins, equal ranks
// draw): for Tron that is botsArena's rule, since the judge ranks a dead
// bot below those still alive and level with those that died the same
// turn. A game's duels are all reckoned from the ratings before it.
func BotsArenaElo(bots []int64, games []Game) []float64 {
	return replay(bots, games, botsArenaStart, func(r []float64, i, j int, score float64) (float64, float64) {
		e := Expected(r[i], r[j])
		return botsArenaK(r[i]) * (score - e), botsArenaK(r[j]) * (e - score)
	})
}

// replay runs a rating that moves after every game: change gives, from
// the values before the game, what bots i and j gain from i's score
// against j (1, ½ or 0); a game's changes are applied together.
func replay(bots []int64, games []Game, start float64, change func(v []float64, i, j int, score float64) (float64, float64)) []float64 {
	index := indexOf(bots)
	v := make([]float64, len(bots))
	for i := range v {
		v[i] = start
	}
	delta := make([]float64, len(bots))
	seats := make([]int, 0, 8)
	for _, g := range games {
		var ok bool
		if seats, ok = seatsOf(g, index, seats[:0]); !ok {
			continue
		}
		clear(delta)
		for a := range seats {
			for b := a + 1; b < len(seats); b++ {
				i, j := seats[a], seats[b]
				if i == j {
					continue
				}
				di, dj := change(v, i, j, pairScore(g.Seats[a].Rank, g.Seats[b].Rank))
				delta[i] += di
				delta[j] += dj
			}
		}
		for i, d := range delta {
			v[i] += d
		}
	}
	return v
}

// pairScore is the score of a seat ranked ra against one ranked rb.
func pairScore(ra, rb int) float64 {
	switch {
	case ra < rb:
		return 1
	case ra > rb:
		return 0
	}
	return 0.5
}
