package results

import (
	"fmt"
	"math"
	"sort"
)

// Scheme is how many points a win and a draw are worth; a loss is 0.
type Scheme string

const (
	SchemeDefault Scheme = "1-0.5-0" // SPEC §4's default
	Scheme310     Scheme = "3-1-0"
)

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
)

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
	// Rating is a Bradley–Terry rating on the Elo scale, with its 95 %
	// interval.
	Rating     float64 `json:"rating"`
	RatingLow  float64 `json:"rating_low"`
	RatingHigh float64 `json:"rating_high"`
	// TieBreak names the rule that put this bot above the next one (ByPoints,
	// ByHeadToHead, ByWins, BySB), "" when they are tied or this is the last.
	TieBreak string `json:"tie_break"`
}

// Rank computes the standings of entries over games (SPEC §4); games with a
// player who is not an entry are ignored.
//
// Every pair of seats of a game is one pairwise result: the seat with the
// lower Player.Rank wins it, equal ranks draw. A duel is one result; a
// free-for-all of k seats gives each player k-1 results, so a Tron winner
// among four scores three wins. Points, wins, draws, losses, head-to-head,
// opponents beaten, Sonneborn–Berger and the rating all count these results.
//
// Order: points; then head-to-head points within the group of bots with the
// same points (the group is not split again for this rule); then wins; then
// Sonneborn–Berger, the sum over opponents of the opponent's points times
// the points scored against it. Bots equal on all four share a rank and are
// listed by name.
func Rank(entries []Entry, games []Game, s Scheme) []Standing {
	win, draw := s.values()
	n := len(entries)
	st := make([]Standing, n)
	index := make(map[int64]int, n)
	for i, e := range entries {
		st[i].Bot, st[i].Check = e.Bot, e.Check
		index[e.Bot.ID] = i
	}
	// score[i][j] counts i's results against j as 1, ½, 0 (the rating's
	// data), pts[i][j] as the scheme's points; played[i][j] counts them.
	score, pts, played := square(n), square(n), square(n)
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
			i := seats[a]
			st[i].Games++
			st[i].Timeouts += p.Timeouts
			st[i].Crashes += p.Crashes
			st[i].Illegal += p.Illegal
			for b := a + 1; b < len(seats); b++ {
				j := seats[b]
				if i == j {
					continue
				}
				played[i][j]++
				played[j][i]++
				switch ra, rb := p.Rank, g.Players[b].Rank; {
				case ra < rb:
					st[i].Wins++
					st[j].Losses++
					score[i][j]++
					pts[i][j] += win
				case ra > rb:
					st[j].Wins++
					st[i].Losses++
					score[j][i]++
					pts[j][i] += win
				default:
					st[i].Draws++
					st[j].Draws++
					score[i][j] += 0.5
					score[j][i] += 0.5
					pts[i][j] += draw
					pts[j][i] += draw
				}
			}
		}
	}
	for i := range st {
		st[i].Points = float64(st[i].Wins)*win + float64(st[i].Draws)*draw
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
		if rule := separate(x, y); rule != "" {
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
			out[k].TieBreak = separate(&out[k], &out[k+1])
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
// comparable.
func separate(x, y *Standing) string {
	switch {
	case x.Points != y.Points:
		return ByPoints
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
