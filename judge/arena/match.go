// Package arena is the live ladder of SPEC §7: while students hand in,
// the current version of every student's bot plays rated games against
// the others' and the example bots. It chooses those games (matchmaking,
// not round robin) from the stored results, as round robin, Swiss and
// heats choose a tournament's; the games themselves are played and stored
// like any other.
package arena

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"botjudge/judge/contest"
	"botjudge/results/scoring"
)

// Version is one bot on the ladder now: a student's current version or an
// example bot.
type Version struct {
	BotID int64
	// Example bots anchor the ladder: they play the students' versions,
	// never each other.
	Example bool
}

// Game is a duel to play: its bots in seat order, the key it is stored
// under and its seed.
type Game struct {
	Key   string
	Seats [2]int64
	Seed  int64
}

// Matchmaker chooses the arena's next games. The zero value is usable.
type Matchmaker struct {
	// Placement is the number of games a new version plays first, against
	// opponents spread over the ladder, each met in both seats; 0 is 6.
	Placement int
	// Seed makes the games' seeds and breaks ties between equal pairs.
	Seed int64
}

func (m Matchmaker) placement() int {
	if m.Placement > 0 {
		return m.Placement
	}
	return 6
}

// Next returns up to n games to play next between versions, given the
// games played (in the order played), the keys of the games stored
// (stored; nil for none) and those under way (pending, which count as
// played for what comes next but have no result yet). The same inputs give
// the same games. A game's key is never one stored or pending: a game lost
// when the judge stopped leaves a gap in a pair's count of games.
//
// A version that has played fewer than its placement games plays them
// first, the newest (fewest games) first. The rest go to the pairs whose
// order on the ladder is most uncertain and that met least: the
// probability that the ladder has the two in the wrong order, divided by
// one plus the games they played. A bot plays at most once among the n
// while other bots can.
func (m Matchmaker) Next(versions []Version, played []scoring.Game, stored map[string]bool, pending []Game, n int) []Game {
	l := newLadder(versions, played, stored, pending)
	var out []Game
	busy := map[int]bool{}
	add := func(i, j int) {
		g := l.game(i, j, m.Seed)
		l.count(g)
		busy[i], busy[j] = true, true
		out = append(out, g)
	}
	for _, i := range l.newcomers(m.placement()) {
		if len(out) == n {
			return out
		}
		if j, first := l.placementOpponent(i, m.placement()); j >= 0 && !busy[i] && !busy[j] {
			if first {
				add(i, j)
			} else {
				add(j, i)
			}
		}
	}
	for _, free := range []bool{true, false} {
		for _, p := range l.pairs(m.Seed) {
			if len(out) == n {
				return out
			}
			if free && (busy[p[0]] || busy[p[1]]) {
				continue
			}
			i, j := l.seats(p[0], p[1])
			add(i, j)
		}
	}
	return out
}

// ladder is the state matchmaking reads, indexed as the versions.
type ladder struct {
	versions []Version
	ratings  []scoring.Rating
	index    map[int64]int
	games    []int           // per version, played or under way
	met      [][]int         // met[i][j]: games with i in the first seat and j in the second
	taken    map[string]bool // keys stored or under way
}

func newLadder(versions []Version, played []scoring.Game, stored map[string]bool, pending []Game) *ladder {
	n := len(versions)
	ids := make([]int64, n)
	for i, v := range versions {
		ids[i] = v.BotID
	}
	l := &ladder{versions: versions, ratings: scoring.Ratings(ids, played), index: map[int64]int{},
		games: make([]int, n), met: make([][]int, n), taken: map[string]bool{}}
	for k := range stored {
		l.taken[k] = true
	}
	for i, id := range ids {
		l.index[id] = i
		l.met[i] = make([]int, n)
	}
	for _, g := range played {
		if len(g.Seats) == 2 {
			l.count(Game{Seats: [2]int64{g.Seats[0].BotID, g.Seats[1].BotID}})
		}
	}
	for _, g := range pending {
		l.count(g)
	}
	return l
}

// count adds a game between two versions; games with another bot count
// for nobody.
func (l *ladder) count(g Game) {
	i, ok := l.index[g.Seats[0]]
	j, ok2 := l.index[g.Seats[1]]
	if !ok || !ok2 || i == j {
		return
	}
	l.games[i]++
	l.games[j]++
	l.met[i][j]++
	if g.Key != "" {
		l.taken[g.Key] = true
	}
}

// game is the next game of i in the first seat against j. Its key names
// the bots and how many times they met in these seats (the first number
// not taken from there), so a game's key and seed follow from the games
// before it.
func (l *ladder) game(i, j int, seed int64) Game {
	a, b := l.versions[i].BotID, l.versions[j].BotID
	var key string
	for k := l.met[i][j] + 1; key == "" || l.taken[key]; k++ {
		key = fmt.Sprintf("arena/%d-%d/%d", a, b, k)
	}
	return Game{Key: key, Seats: [2]int64{a, b}, Seed: contest.GameSeed(seed, key)}
}

// newcomers are the students' versions still in placement, fewest games
// first (then the order of versions). Example bots need none: they are
// there from the start.
func (l *ladder) newcomers(placement int) []int {
	var list []int
	for i, v := range l.versions {
		if !v.Example && l.games[i] < placement {
			list = append(list, i)
		}
	}
	slices.SortStableFunc(list, func(a, b int) int { return cmp.Compare(l.games[a], l.games[b]) })
	return list
}

// placementOpponent is newcomer i's next placement opponent, -1 if it has
// none: its k-th game meets the opponent at the (k/2)-th of placement/2
// evenly spread places of the ladder (best to worst), the first time with
// i in the first seat (first is true), the second in the second. When the
// bot at that place already met i in that seat (the ladder moved), the
// nearest place that did not is taken.
func (l *ladder) placementOpponent(i, placement int) (j int, first bool) {
	others := l.byRating(i)
	if len(others) == 0 {
		return -1, false
	}
	k := l.games[i]
	first = k%2 == 0
	spots := max(placement/2, 1)
	at := min((2*(k/2)+1)*len(others)/(2*spots), len(others)-1)
	for d := 0; d < len(others); d++ {
		for _, p := range []int{at - d, at + d} {
			if p < 0 || p >= len(others) {
				continue
			}
			if o := others[p]; (first && l.met[i][o] == 0) || (!first && l.met[o][i] == 0) {
				return o, first
			}
		}
	}
	return others[at], first
}

// byRating lists the versions other than i, best rated first.
func (l *ladder) byRating(i int) []int {
	var list []int
	for j := range l.versions {
		if j != i {
			list = append(list, j)
		}
	}
	slices.SortStableFunc(list, func(a, b int) int { return cmp.Compare(l.ratings[b].Rating, l.ratings[a].Rating) })
	return list
}

// pairs lists the pairs that may meet, most worth playing first; ties go
// by a hash of the seed and the bots, so that equal pairs take turns.
func (l *ladder) pairs(seed int64) [][2]int {
	type scored struct {
		p     [2]int
		value float64
		tie   int64
	}
	var list []scored
	for i := range l.versions {
		for j := i + 1; j < len(l.versions); j++ {
			if l.versions[i].Example && l.versions[j].Example {
				continue
			}
			v := misorder(l.ratings[i], l.ratings[j]) / float64(1+l.met[i][j]+l.met[j][i])
			tie := contest.GameSeed(seed, fmt.Sprintf("%d-%d", l.versions[i].BotID, l.versions[j].BotID))
			list = append(list, scored{[2]int{i, j}, v, tie})
		}
	}
	slices.SortFunc(list, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.value, a.value), cmp.Compare(a.tie, b.tie))
	})
	out := make([][2]int, len(list))
	for k, s := range list {
		out[k] = s.p
	}
	return out
}

// misorder is the probability that the ladder has a and b in the wrong
// order: the chance that the difference of their true ratings has the
// other sign than the difference of their ratings, both uncertain.
func misorder(a, b scoring.Rating) float64 {
	z := math.Abs(a.Rating-b.Rating) / math.Hypot(a.Deviation, b.Deviation)
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// seats puts first the one of i and j that held the first seat less often
// against the other (i on a tie).
func (l *ladder) seats(i, j int) (int, int) {
	if l.met[j][i] < l.met[i][j] {
		return j, i
	}
	return i, j
}
