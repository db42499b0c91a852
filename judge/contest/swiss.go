package contest

import (
	"fmt"
	"math/bits"
	"math/rand"
	"slices"

	"botjudge/results"
)

// SwissRounds is the default number of rounds of a swiss tournament of n
// bots (SPEC §4): ⌈log2 n⌉ + 2, enough for one bot to stand alone at the top
// with room for the tie-breaks, but never more than the rounds in which
// every bot can meet a new opponent (n-1, or n when one sits out each
// round).
func SwissRounds(n int) int {
	if n < 2 {
		return 1
	}
	r := bits.Len(uint(n-1)) + 2 // bits.Len(n-1) is ⌈log2 n⌉
	most := n - 1
	if n%2 == 1 {
		most = n
	}
	return max(1, min(r, most))
}

// swissStand is what the pairing of a round knows of the rounds before it.
type swissStand struct {
	score []float64      // points over the games and byes so far (1, ½, 0 a game)
	byes  []int          // byes so far
	met   map[[2]int]int // games played by each pair (lower index first)
}

func pairKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// standBefore counts the results of the stored games of rounds before round
// (and their byes) among the bots of ids. Points are always 1-½-0 whatever
// the scheme, which is not part of the tournament's identity: another scheme
// must not change who met whom.
func standBefore(round int, ids []int64, stored []results.Game, byes []results.Bye) swissStand {
	s := swissStand{score: make([]float64, len(ids)), byes: make([]int, len(ids)), met: map[[2]int]int{}}
	index := make(map[int64]int, len(ids))
	for i, id := range ids {
		index[id] = i
	}
	for _, g := range stored {
		if g.Round >= round || len(g.Players) != 2 {
			continue
		}
		a, okA := index[g.Players[0].BotID]
		b, okB := index[g.Players[1].BotID]
		if !okA || !okB {
			continue
		}
		s.met[pairKey(a, b)]++
		switch ra, rb := g.Players[0].Rank, g.Players[1].Rank; {
		case ra < rb:
			s.score[a]++
		case ra > rb:
			s.score[b]++
		default:
			s.score[a] += 0.5
			s.score[b] += 0.5
		}
	}
	for _, y := range byes {
		if i, ok := index[y.BotID]; ok && y.Round < round {
			s.byes[i]++
			s.score[i] += float64(y.Games)
		}
	}
	return s
}

// pairRound pairs the bots of one swiss round: each with a bot of the same
// score it has not met, or of the nearest score when none is left. The
// order among bots of equal score is drawn from rng, so that the pairing
// is one of the possible ones, the same every time for the same seed and
// results. With an odd number of bots, the lowest-scored among those with
// the fewest byes sits out (bye = -1 otherwise). When no pairing avoids a
// rematch, the one that rematches least greedily is taken.
func pairRound(s swissStand, rng *rand.Rand) (pairs [][2]int, bye int) {
	order, bye := scoreOrder(s, rng)
	if pairs, ok := pairNew(s, order); ok {
		return pairs, bye
	}
	return pairNearest(s, order), bye
}

// scoreOrder is the bots best score first, in an order drawn from rng among
// equal scores, without the one sitting out (bye, -1 if none).
func scoreOrder(s swissStand, rng *rand.Rand) (order []int, bye int) {
	n := len(s.score)
	order = rng.Perm(n)
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case s.score[a] > s.score[b]:
			return -1
		case s.score[a] < s.score[b]:
			return 1
		}
		return 0
	})
	bye = -1
	if n%2 == 1 {
		fewest := slices.Min(s.byes)
		for k := n - 1; k >= 0; k-- {
			if s.byes[order[k]] == fewest {
				bye = order[k]
				order = slices.Delete(order, k, k+1)
				break
			}
		}
	}
	return order, bye
}

// pairNew is a depth-first search for a pairing of order without rematch,
// nearest scores first; bounded, since a field where none exists would try
// them all.
func pairNew(s swissStand, order []int) ([][2]int, bool) {
	var pairs [][2]int
	budget := 200000
	var search func(left []int) bool
	search = func(left []int) bool {
		if len(left) == 0 {
			return true
		}
		if budget--; budget < 0 {
			return false
		}
		a := left[0]
		for k := 1; k < len(left); k++ {
			b := left[k]
			if s.met[pairKey(a, b)] > 0 {
				continue
			}
			rest := make([]int, 0, len(left)-2)
			rest = append(rest, left[1:k]...)
			rest = append(rest, left[k+1:]...)
			pairs = append(pairs, [2]int{a, b})
			if search(rest) {
				return true
			}
			pairs = pairs[:len(pairs)-1]
		}
		return false
	}
	return pairs, search(order)
}

// pairNearest pairs order when rematches cannot be avoided (few bots, many
// rounds): each bot in score order takes the nearest one it met least.
func pairNearest(s swissStand, order []int) [][2]int {
	var pairs [][2]int
	left := slices.Clone(order)
	for len(left) > 0 {
		a, best := left[0], 1
		for k := 2; k < len(left); k++ {
			if s.met[pairKey(a, left[k])] < s.met[pairKey(a, left[best])] {
				best = k
			}
		}
		pairs = append(pairs, [2]int{a, left[best]})
		left = slices.Delete(left, best, best+1)
		left = left[1:]
	}
	return pairs
}

// swissRound plans round r of a swiss tournament from the stored results
// of the rounds before it: each pairing plays legs × both seats. It returns
// the games and the bot sitting out (-1 if none). The pairing's draw comes
// from the tournament seed and the round, so planning the round again after
// a stop gives the same games, and the games already stored are not played
// again.
func swissRound(entries []Entry, ids []int64, r, legs int, seed int64, stored []results.Game, byes []results.Bye) ([]Planned, int) {
	s := standBefore(r, ids, stored, byes)
	rng := rand.New(rand.NewSource(GameSeed(seed, fmt.Sprintf("swiss/r%d", r))))
	pairs, bye := pairRound(s, rng)
	var plan []Planned
	for _, p := range pairs {
		for leg := 1; leg <= legs; leg++ {
			for _, seats := range [][]int{{p[0], p[1]}, {p[1], p[0]}} {
				key := fmt.Sprintf("r%d/swiss%d/%s/%s", r, leg, versionOf(entries[seats[0]]), versionOf(entries[seats[1]]))
				plan = append(plan, Planned{Key: key, Round: r, Seats: seats, Seed: GameSeed(seed, key)})
			}
		}
	}
	return plan, bye
}

// swissGames is the number of games of a swiss tournament of n bots.
func swissGames(n, rounds, legs int) int { return rounds * (n / 2) * 2 * legs }
