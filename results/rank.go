package results

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Scheme is how many points a win and a draw are worth; a loss is 0.
type Scheme string

const (
	SchemeDefault Scheme = "1-0.5-0" // SPEC §4's default
	Scheme310     Scheme = "3-1-0"
)

// Win is the points of a win in s (a bye's game counts as one).
func (s Scheme) Win() float64 {
	win, _ := s.values()
	return win
}

// ParseScheme accepts the two schemes of SPEC §4; "" is the default.
func ParseScheme(s string) (Scheme, error) {
	switch Scheme(s) {
	case "", SchemeDefault:
		return SchemeDefault, nil
	case Scheme310:
		return Scheme310, nil
	}
	return "", fmt.Errorf("results: unknown point scheme %q (want %s or %s)", s, SchemeDefault, Scheme310)
}

// values are the points of a win and of a draw; an unknown scheme counts as
// the default (ParseScheme is where schemes are checked).
func (s Scheme) values() (win, draw float64) {
	if s == Scheme310 {
		return 3, 1
	}
	return 1, 0.5
}

// The tie-break rules, in the order they apply, as Standing.TieBreak names
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

// Standing is one bot's line in the standings.
type Standing struct {
	// Rank is shared by bots that no rule separates (1, 2, 2, 4).
	Rank  int   `json:"rank"`
	Bot   Bot   `json:"bot"`
	Check Check `json:"check"`
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

// Pairing is one bot's record against one opponent: a result for every
// game they were both in (a game of k seats gives each pair of its seats one
// result: the lower rank wins, equal ranks draw), and the points of those
// results in a scheme. It is the one computation of pairwise results that
// the standings, the crosstable and the pair pages share.
type Pairing struct {
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Points are the bot's, Against its opponent's, in the scheme.
	Points  float64 `json:"points"`
	Against float64 `json:"against"`
	// Results are their games in the order given, each with the bot's
	// result and points: what a crosstable cell's marks and a pair page's
	// rows show.
	Results []PairGame `json:"results"`
}

// PairGame is one game of a pairing, from the bot's side.
type PairGame struct {
	ID int64 `json:"id"`
	// Result is "W", "D" or "L": the bot's rank against the opponent's.
	Result string `json:"r"`
	// Points are what the result is worth in the scheme.
	Points float64 `json:"p"`
}

// Pairings computes every pair's record among bots (by ID) over games, in
// scheme s: cells[i][j] is bots[i]'s record against bots[j], nil when they
// met in no game. Games with a player not among bots are ignored.
func Pairings(bots []int64, games []Game, s Scheme) [][]*Pairing {
	win, draw := s.values()
	n := len(bots)
	index := make(map[int64]int, n)
	cells := make([][]*Pairing, n)
	for i, id := range bots {
		index[id] = i
		cells[i] = make([]*Pairing, n)
	}
	cell := func(i, j int) *Pairing {
		if cells[i][j] == nil {
			cells[i][j] = &Pairing{}
		}
		return cells[i][j]
	}
	seats := make([]int, 0, 8)
games:
	for _, g := range games {
		seats = seats[:0]
		for _, p := range g.Players {
			i, ok := index[p.BotID]
			if !ok {
				continue games
			}
			seats = append(seats, i)
		}
		for a, p := range g.Players {
			for b := a + 1; b < len(seats); b++ {
				i, j := seats[a], seats[b]
				if i == j {
					continue
				}
				x, y := cell(i, j), cell(j, i)
				x.Games++
				y.Games++
				switch ra, rb := p.Rank, g.Players[b].Rank; {
				case ra < rb:
					x.Wins++
					y.Losses++
					x.Points += win
					x.Results = append(x.Results, PairGame{g.ID, "W", win})
					y.Results = append(y.Results, PairGame{g.ID, "L", 0})
				case ra > rb:
					y.Wins++
					x.Losses++
					y.Points += win
					x.Results = append(x.Results, PairGame{g.ID, "L", 0})
					y.Results = append(y.Results, PairGame{g.ID, "W", win})
				default:
					x.Draws++
					y.Draws++
					x.Points += draw
					y.Points += draw
					x.Results = append(x.Results, PairGame{g.ID, "D", draw})
					y.Results = append(y.Results, PairGame{g.ID, "D", draw})
				}
				x.Against, y.Against = y.Points, x.Points
			}
		}
	}
	return cells
}

// Rank computes the standings of entries over games (SPEC §4); games with a
// player who is not an entry are ignored.
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
func Rank(entries []Entry, games []Game, s Scheme) []Standing {
	return rank(entries, games, nil, s, false)
}

// RankSwiss computes the standings of a swiss tournament: as Rank, with
// each bye worth its games' wins in points, and Buchholz (the sum of the
// points of the opponents met) as the first tie-break after points, since
// bots who met stronger opponents for the same points did better (SPEC §4).
func RankSwiss(entries []Entry, games []Game, byes []Bye, s Scheme) []Standing {
	return rank(entries, games, byes, s, true)
}

func rank(entries []Entry, games []Game, byes []Bye, s Scheme, swiss bool) []Standing {
	n := len(entries)
	st := make([]Standing, n)
	ids := make([]int64, n)
	index := make(map[int64]int, n)
	for i, e := range entries {
		st[i].Bot, st[i].Check = e.Bot, e.Check
		ids[i] = e.Bot.ID
		index[e.Bot.ID] = i
	}
	for _, g := range games {
		if !slices.ContainsFunc(g.Players, func(p Player) bool { _, ok := index[p.BotID]; return !ok }) {
			for _, p := range g.Players {
				i := index[p.BotID]
				st[i].Games++
				st[i].Timeouts += p.Timeouts
				st[i].Crashes += p.Crashes
				st[i].Illegal += p.Illegal
			}
		}
	}
	cells := Pairings(ids, games, s)
	// score[i][j] counts i's results against j as 1, ½, 0 (the rating's
	// data), pts[i][j] as the scheme's points; played[i][j] counts them.
	score, pts, played := square(n), square(n), square(n)
	for i := range n {
		for j, c := range cells[i] {
			if c == nil {
				continue
			}
			st[i].Wins += c.Wins
			st[i].Draws += c.Draws
			st[i].Losses += c.Losses
			st[i].Points += c.Points
			score[i][j] = float64(c.Wins) + float64(c.Draws)/2
			pts[i][j] = c.Points
			played[i][j] = float64(c.Games)
		}
	}
	win, _ := s.values()
	for _, b := range byes {
		if i, ok := index[b.BotID]; ok {
			st[i].Byes++
			st[i].Points += float64(b.Games) * win
		}
	}
	for i := range n {
		for j, c := range cells[i] {
			if c != nil && swiss {
				st[i].Buchholz += st[j].Points
			}
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch {
			case pts[i][j] > pts[j][i]:
				st[i].Beaten++
			case pts[i][j] < pts[j][i]:
				st[j].Beaten++
			}
		}
		for j := range n {
			st[i].SB += pts[i][j] * st[j].Points
		}
	}

	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return st[order[a]].Points > st[order[b]].Points })
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && st[order[hi]].Points == st[order[lo]].Points {
			hi++
		}
		if hi-lo > 1 {
			for _, i := range order[lo:hi] {
				for _, j := range order[lo:hi] {
					st[i].HeadToHead += pts[i][j]
				}
			}
		}
		lo = hi
	}

	theta, se := bradleyTerry(score, played)
	const eloScale = 400 / math.Ln10
	for i := range st {
		st[i].Rating = 1500 + eloScale*theta[i]
		st[i].RatingLow = st[i].Rating - 1.96*eloScale*se[i]
		st[i].RatingHigh = st[i].Rating + 1.96*eloScale*se[i]
	}

	sort.Slice(order, func(a, b int) bool {
		x, y := &st[order[a]], &st[order[b]]
		if rule := separate(x, y, swiss); rule != "" {
			return better(x, y, rule)
		}
		if x.Bot.Name != y.Bot.Name {
			return x.Bot.Name < y.Bot.Name
		}
		return x.Bot.ID < y.Bot.ID
	})
	out := make([]Standing, n)
	for k, i := range order {
		out[k] = st[i]
	}
	for k := range out {
		if k+1 < n {
			out[k].TieBreak = separate(&out[k], &out[k+1], swiss)
		}
		out[k].Rank = k + 1
		if k > 0 && out[k-1].TieBreak == "" {
			out[k].Rank = out[k-1].Rank
		}
	}
	return out
}

// separate names the first rule that orders x and y, "" if none does.
// HeadToHead only counts between bots with the same points, where it is
// comparable. Buchholz comes second in a swiss tournament only.
func separate(x, y *Standing, swiss bool) string {
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
func better(x, y *Standing, rule string) bool {
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

func square(n int) [][]float64 {
	cells := make([]float64, n*n)
	m := make([][]float64, n)
	for i := range m {
		m[i] = cells[i*n : (i+1)*n]
	}
	return m
}
