package scoring

import (
	"math"
	"slices"
	"sort"
)

// The tie-break rules, in the order they apply, as Line.TieBreak names
// them.
const (
	ByPoints     = "points"
	ByHeadToHead = "head-to-head"
	ByWins       = "wins"
	BySB         = "Sonneborn–Berger"
	// ByBuchholz comes right after points in a swiss tournament.
	ByBuchholz = "Buchholz"
)

// Bye is a round of a swiss tournament that a bot sat out because the
// number of bots was odd: it counts as a match won, Games wins' points.
type Bye struct {
	Round int   `json:"round"`
	BotID int64 `json:"bot_id"`
	Games int   `json:"games"`
}

// Entrant is a bot to rank.
type Entrant struct {
	ID int64
	// Name orders the bots that no rule separates (then ID).
	Name string
}

// Place is one bot's place in the standings.
type Place struct {
	// Entrant is the bot's index among the entrants ranked.
	Entrant int
	// Rank is shared by bots that no rule separates (1, 2, 2, 4).
	Rank int
	Line
}

// Line is what the standings count for one bot.
type Line struct {
	// Points, Wins, Draws and Losses count pairwise results (see Rank);
	// Games counts games.
	Points float64 `json:"points"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	// Beaten counts the opponents whose pairing this bot won: it scored more
	// points than the opponent over the games between them.
	Beaten int `json:"beaten"`
	// Faults: Crashes include error, crash, oom and output verdicts; Illegal
	// includes malformed answers.
	Timeouts int `json:"timeouts"`
	Crashes  int `json:"crashes"`
	Illegal  int `json:"illegal"`
	// HeadToHead is the points scored against the bots with the same points
	// (0 when there are none); SB is the Sonneborn–Berger score.
	HeadToHead float64 `json:"head_to_head"`
	SB         float64 `json:"sb"`
	// Byes counts the rounds of a swiss tournament the bot sat out; their
	// points are in Points. Buchholz is the sum of the points of the
	// opponents it met: in a swiss tournament, where bots meet only some
	// others, it says how hard its draw was.
	Byes     int     `json:"byes,omitempty"`
	Buchholz float64 `json:"buchholz"`
	// Rating is a Bradley–Terry rating on the Elo scale, with its 95 %
	// interval.
	Rating     float64 `json:"rating"`
	RatingLow  float64 `json:"rating_low"`
	RatingHigh float64 `json:"rating_high"`
	// TieBreak names the rule that put this bot above the next one (ByPoints,
	// ByHeadToHead, ByWins, BySB), "" when they are tied or this is the last.
	TieBreak string `json:"tie_break"`
}

// Rank computes the standings of entrants over games (SPEC §4); games with
// a player who is not an entrant are ignored.
//
// Every pair of seats of a game is one pairwise result (see Pairings): a
// duel is one result; a free-for-all of k seats gives each player k-1
// results, so a Tron winner among four scores three wins. Points, wins,
// draws, losses, head-to-head, opponents beaten, Sonneborn–Berger and the
// rating all count these results.
//
// Order: points; then head-to-head points within the group of bots with the
// same points (the group is not split again for this rule); then wins; then
// Sonneborn–Berger, the sum over opponents of the opponent's points times
// the points scored against it. Bots equal on all four share a rank and are
// listed by name.
func Rank(entrants []Entrant, games []Game, s Scheme) []Place {
	return rank(entrants, games, nil, s, false)
}

// RankSwiss computes the standings of a swiss tournament: as Rank, with
// each bye worth its games' wins in points, and Buchholz (the sum of the
// points of the opponents met) as the first tie-break after points, since
// bots who met stronger opponents for the same points did better (SPEC §4).
func RankSwiss(entrants []Entrant, games []Game, byes []Bye, s Scheme) []Place {
	return rank(entrants, games, byes, s, true)
}

// rank goes in the order each count needs: the opponents' points are
// final only once the byes are in.
func rank(entrants []Entrant, games []Game, byes []Bye, s Scheme, swiss bool) []Place {
	t := newTable(entrants, games, s)
	t.addByes(byes, s)
	t.addOpponents(swiss)
	t.addHeadToHead()
	t.rate()
	return t.places(entrants, swiss)
}

// table is the standings being counted, indexed as the entrants.
type table struct {
	lines []Line
	index map[int64]int // of a bot's ID
	cells [][]*Pairing
	// score[i][j] counts i's results against j as 1, ½, 0 (the rating's
	// data), pts[i][j] as the scheme's points; played[i][j] counts them.
	score, pts, played [][]float64
}

func newTable(entrants []Entrant, games []Game, s Scheme) *table {
	n := len(entrants)
	ids := make([]int64, n)
	for i, e := range entrants {
		ids[i] = e.ID
	}
	t := &table{lines: make([]Line, n), index: indexOf(ids), cells: Pairings(ids, games, s),
		score: square(n), pts: square(n), played: square(n)}
	t.countGames(games)
	t.addPairings()
	return t
}

// countGames counts the games and faults of the games among entrants.
func (t *table) countGames(games []Game) {
	stranger := func(p Seat) bool { _, ok := t.index[p.BotID]; return !ok }
	for _, g := range games {
		if slices.ContainsFunc(g.Seats, stranger) {
			continue
		}
		for _, p := range g.Seats {
			l := &t.lines[t.index[p.BotID]]
			l.Games++
			l.Timeouts += p.Timeouts
			l.Crashes += p.Crashes
			l.Illegal += p.Illegal
		}
	}
}

// addPairings sums each bot's pairwise results.
func (t *table) addPairings() {
	for i, row := range t.cells {
		l := &t.lines[i]
		for j, c := range row {
			if c == nil {
				continue
			}
			l.Wins += c.Wins
			l.Draws += c.Draws
			l.Losses += c.Losses
			l.Points += c.Points
			t.score[i][j] = float64(c.Wins) + float64(c.Draws)/2
			t.pts[i][j] = c.Points
			t.played[i][j] = float64(c.Games)
		}
	}
}

func (t *table) addByes(byes []Bye, s Scheme) {
	for _, b := range byes {
		if i, ok := t.index[b.BotID]; ok {
			t.lines[i].Byes++
			t.lines[i].Points += float64(b.Games) * s.Win()
		}
	}
}

// addOpponents counts what the opponents' points weigh: Buchholz (in a
// swiss tournament only), the opponents beaten and Sonneborn–Berger.
func (t *table) addOpponents(swiss bool) {
	lines := t.lines
	for i := range lines {
		for j, c := range t.cells[i] {
			if c != nil && swiss {
				lines[i].Buchholz += lines[j].Points
			}
		}
	}
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			switch {
			case t.pts[i][j] > t.pts[j][i]:
				lines[i].Beaten++
			case t.pts[i][j] < t.pts[j][i]:
				lines[j].Beaten++
			}
		}
		for j := range lines {
			lines[i].SB += t.pts[i][j] * lines[j].Points
		}
	}
}

// addHeadToHead sums each bot's points against the bots with its points
// (a bot scores nothing against itself, so a bot alone on its points
// keeps 0).
func (t *table) addHeadToHead() {
	for i := range t.lines {
		for j := range t.lines {
			if t.lines[j].Points == t.lines[i].Points {
				t.lines[i].HeadToHead += t.pts[i][j]
			}
		}
	}
}

// rate puts the Bradley–Terry strengths on the Elo scale, 1500 for an
// average bot.
func (t *table) rate() {
	theta, se := bradleyTerry(t.score, t.played)
	const eloScale = 400 / math.Ln10
	for i := range t.lines {
		l := &t.lines[i]
		l.Rating = 1500 + eloScale*theta[i]
		l.RatingLow = l.Rating - 1.96*eloScale*se[i]
		l.RatingHigh = l.Rating + 1.96*eloScale*se[i]
	}
}

// places orders the lines by the tie-break rules, then by name, and
// numbers them; TieBreak says which rule separated each from the next.
func (t *table) places(entrants []Entrant, swiss bool) []Place {
	n := len(t.lines)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if rule := separate(&t.lines[i], &t.lines[j], swiss); rule != "" {
			return better(&t.lines[i], &t.lines[j], rule)
		}
		if x, y := entrants[i], entrants[j]; x.Name != y.Name {
			return x.Name < y.Name
		}
		return entrants[i].ID < entrants[j].ID
	})
	out := make([]Place, n)
	for k, i := range order {
		out[k] = Place{Entrant: i, Rank: k + 1, Line: t.lines[i]}
	}
	for k := range out {
		if k+1 < n {
			out[k].TieBreak = separate(&out[k].Line, &out[k+1].Line, swiss)
		}
		if k > 0 && out[k-1].TieBreak == "" {
			out[k].Rank = out[k-1].Rank
		}
	}
	return out
}

// separate names the first rule that orders x and y, "" if none does.
// HeadToHead only counts between bots with the same points, where it is
// comparable. Buchholz comes second in a swiss tournament only.
func separate(x, y *Line, swiss bool) string {
	switch {
	case x.Points != y.Points:
		return ByPoints
	case swiss && x.Buchholz != y.Buchholz:
		return ByBuchholz
	case x.HeadToHead != y.HeadToHead:
		return ByHeadToHead
	case x.Wins != y.Wins:
		return ByWins
	case x.SB != y.SB:
		return BySB
	}
	return ""
}

// better reports whether x is ahead of y by rule.
func better(x, y *Line, rule string) bool {
	switch rule {
	case ByPoints:
		return x.Points > y.Points
	case ByBuchholz:
		return x.Buchholz > y.Buchholz
	case ByHeadToHead:
		return x.HeadToHead > y.HeadToHead
	case ByWins:
		return x.Wins > y.Wins
	}
	return x.SB > y.SB
}
