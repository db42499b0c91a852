package scoring_test

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"botjudge/results/scoring"
	"botjudge/results/scoring/scoringtest"
)

var league = scoringtest.League

// names are the places' entrants' names.
func names(entrants []scoring.Entrant, st []scoring.Place) []string {
	var list []string
	for _, p := range st {
		list = append(list, entrants[p.Entrant].Name)
	}
	return list
}

// table is "name rank tiebreak" per place, for compact comparisons.
func table(entrants []scoring.Entrant, st []scoring.Place) []string {
	var rows []string
	for k, p := range st {
		rows = append(rows, strings.TrimSpace(names(entrants, st)[k]+" "+strconv.Itoa(p.Rank)+" "+p.TieBreak))
	}
	return rows
}

func TestRankTieBreaks(t *testing.T) {
	cases := []struct {
		name   string
		bots   string
		games  []string
		scheme scoring.Scheme
		want   []string
	}{{
		// A and B have 3 points each; B beat A, although A has more wins.
		name:  "head-to-head decides",
		bots:  "ABC",
		games: []string{"BA", "AC", "AC", "AC", "B=C", "B=C", "B=C", "B=C"},
		want:  []string{"B 1 head-to-head", "A 2 points", "C 3"},
	}, {
		// A and B have 1.5 points and drew each other; A won a game, B drew twice.
		name:  "wins decide",
		bots:  "ABC",
		games: []string{"A=B", "AC", "CA", "B=C", "B=C"},
		want:  []string{"C 1 points", "A 2 wins", "B 3"},
	}, {
		// A and B: 1.5 points, drew each other, one win each; A beat C (2
		// points), B beat D (1 point).
		name:  "Sonneborn–Berger decides",
		bots:  "ABCD",
		games: []string{"A=B", "AC", "DA", "BD", "CB", "CD"},
		want:  []string{"C 1 points", "A 2 Sonneborn–Berger", "B 3 points", "D 4"},
	}, {
		// B and C are equal on every rule: they share second place.
		name:  "full tie shares the rank",
		bots:  "ABCD",
		games: []string{"AB", "AC", "AD", "B=C", "BD", "CD"},
		want:  []string{"A 1 points", "B 2", "C 2 points", "D 4"},
	}, {
		// Two draws against one win and one loss: equal in 1-0.5-0 (the
		// win decides)...
		name:  "default scheme",
		bots:  "ABCD",
		games: []string{"A=C", "A=D", "BC", "DB"},
		want:  []string{"D 1 points", "B 2 wins", "A 3 points", "C 4"},
	}, {
		// ...but not in 3-1-0, where the win is worth three draws.
		name:   "3-1-0 scheme",
		bots:   "ABCD",
		games:  []string{"A=C", "A=D", "BC", "DB"},
		scheme: scoring.Scheme310,
		want:   []string{"D 1 points", "B 2 points", "A 3 points", "C 4"},
	}, {
		name: "no games",
		bots: "BA",
		want: []string{"A 1", "B 1"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entrants, games := league(c.bots, c.games...)
			st := scoring.Rank(entrants, games, c.scheme)
			if got := table(entrants, st); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestRankCounts(t *testing.T) {
	entrants, games := league("ABC", "AB", "BA", "AB", "A=C", "CB")
	games[0].Seats[0].Timeouts = 2
	games[0].Seats[1].Crashes = 1
	games[1].Seats[0].Illegal = 3
	// A game of a bot that is not an entrant (an old version) is ignored.
	games = append(games, scoring.Game{Seats: []scoring.Seat{{BotID: 1, Rank: 2}, {BotID: 99, Rank: 1}}})
	st := scoring.Rank(entrants, games, scoring.SchemeDefault)
	got := map[string]scoring.Place{}
	for _, p := range st {
		p.Rating, p.RatingLow, p.RatingHigh = 0, 0, 0
		got[entrants[p.Entrant].Name] = p
	}
	want := map[string]scoring.Place{
		"A": {Rank: 1, Entrant: 0, Line: scoring.Line{Points: 2.5, Games: 4, Wins: 2, Draws: 1, Losses: 1, Beaten: 1,
			Timeouts: 2, SB: 2*1 + 0.5*1.5, TieBreak: scoring.ByPoints}},
		"C": {Rank: 2, Entrant: 2, Line: scoring.Line{Points: 1.5, Games: 2, Wins: 1, Draws: 1, Beaten: 1,
			SB: 0.5*2.5 + 1*1, TieBreak: scoring.ByPoints}},
		"B": {Rank: 3, Entrant: 1, Line: scoring.Line{Points: 1, Games: 4, Wins: 1, Losses: 3,
			Crashes: 1, Illegal: 3, SB: 1 * 2.5}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestRankFreeForAll(t *testing.T) {
	entrants, _ := league("ABCD")
	// One four-seat game: A first, B and C share second, D last. Every pair
	// of seats is one result.
	games := []scoring.Game{{Seats: []scoring.Seat{{BotID: 4, Rank: 4}, {BotID: 2, Rank: 2}, {BotID: 1, Rank: 1}, {BotID: 3, Rank: 2}}}}
	st := scoring.Rank(entrants, games, scoring.SchemeDefault)
	type line struct {
		name           string
		points         float64
		games, w, d, l int
	}
	var got []line
	for _, p := range st {
		got = append(got, line{entrants[p.Entrant].Name, p.Points, p.Games, p.Wins, p.Draws, p.Losses})
	}
	want := []line{{"A", 3, 1, 3, 0, 0}, {"B", 1.5, 1, 1, 1, 1}, {"C", 1.5, 1, 1, 1, 1}, {"D", 0, 1, 0, 0, 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestRankRating(t *testing.T) {
	// U never loses; A > B > C otherwise.
	entrants, games := league("ABCU",
		"AB", "AB", "AB", "BA",
		"BC", "BC", "BC", "CB",
		"AC", "AC", "AC", "CA",
		"UA", "UA", "UB", "UB", "UC", "UC")
	st := scoring.Rank(entrants, games, scoring.SchemeDefault)
	order := names(entrants, st)
	for k, p := range st {
		if math.IsInf(p.Rating, 0) || math.IsNaN(p.Rating) || !(p.RatingLow < p.Rating && p.Rating < p.RatingHigh) ||
			math.IsInf(p.RatingHigh, 0) {
			t.Errorf("%s: rating %v in [%v, %v]", order[k], p.Rating, p.RatingLow, p.RatingHigh)
		}
	}
	if want := []string{"U", "A", "B", "C"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	for k := 1; k < len(st); k++ {
		if st[k-1].Rating <= st[k].Rating {
			t.Errorf("%s rated %.1f, not above %s at %.1f", order[k-1], st[k-1].Rating, order[k], st[k].Rating)
		}
	}
	if st[0].Rating > 2500 {
		t.Errorf("undefeated bot rated %.0f: the regularisation does not hold it", st[0].Rating)
	}
}

// TestRankRatingTwoBots checks the fit against the model solved by hand: A
// beats B 3 times out of 4. By symmetry θB = −θA = −x, and x solves
// 3 − 4σ(2x) + ½ − σ(x) = 0 (its results plus the virtual draw).
func TestRankRatingTwoBots(t *testing.T) {
	entrants, games := league("AB", "AB", "AB", "AB", "BA")
	st := scoring.Rank(entrants, games, scoring.SchemeDefault)
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	lo, hi := 0.0, 10.0
	for range 200 {
		mid := (lo + hi) / 2
		if 3.5-4*sigmoid(2*mid)-sigmoid(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	want := 1500 + 400/math.Ln10*lo
	if math.Abs(st[0].Rating-want) > 1e-6 || math.Abs(st[1].Rating-(3000-want)) > 1e-6 {
		t.Errorf("ratings %v and %v, want %v and %v", st[0].Rating, st[1].Rating, want, 3000-want)
	}
	// The interval: information matrix [[a+c, -a], [-a, a+c]] with
	// a = 4σ(2x)(1−σ(2x)), c = σ(x)(1−σ(x)); its inverse has diagonal
	// (a+c) / ((a+c)² − a²).
	p, q := sigmoid(2*lo), sigmoid(lo)
	a, c := 4*p*(1-p), q*(1-q)
	se := math.Sqrt((a + c) / ((a+c)*(a+c) - a*a))
	if half := (st[0].RatingHigh - st[0].RatingLow) / 2; math.Abs(half-1.96*400/math.Ln10*se) > 1e-6 {
		t.Errorf("half interval %v, want %v", half, 1.96*400/math.Ln10*se)
	}
}

// Pairings is the one computation of pairwise results: a free-for-all of
// three seats gives each pair a result, in the scheme's points.
func TestPairings(t *testing.T) {
	ffa := scoring.Game{ID: 7, Seats: []scoring.Seat{{BotID: 1, Rank: 2}, {BotID: 2, Rank: 1}, {BotID: 3, Rank: 2}}}
	duel := scoring.Game{ID: 8, Seats: []scoring.Seat{{BotID: 1, Rank: 1}, {BotID: 3, Rank: 2}}}
	stranger := scoring.Game{ID: 9, Seats: []scoring.Seat{{BotID: 1, Rank: 1}, {BotID: 99, Rank: 2}}}
	cells := scoring.Pairings([]int64{1, 2, 3}, []scoring.Game{ffa, duel, stranger}, scoring.Scheme310)
	want := map[[2]int]scoring.Pairing{
		{0, 1}: {Games: 1, Losses: 1, Points: 0, Against: 3, Results: []scoring.PairGame{{7, "L", 0}}},
		{1, 0}: {Games: 1, Wins: 1, Points: 3, Against: 0, Results: []scoring.PairGame{{7, "W", 3}}},
		{0, 2}: {Games: 2, Wins: 1, Draws: 1, Points: 4, Against: 1, Results: []scoring.PairGame{{7, "D", 1}, {8, "W", 3}}},
		{2, 0}: {Games: 2, Losses: 1, Draws: 1, Points: 1, Against: 4, Results: []scoring.PairGame{{7, "D", 1}, {8, "L", 0}}},
		{1, 2}: {Games: 1, Wins: 1, Points: 3, Results: []scoring.PairGame{{7, "W", 3}}},
		{2, 1}: {Games: 1, Losses: 1, Against: 3, Results: []scoring.PairGame{{7, "L", 0}}},
	}
	for i := range 3 {
		for j := range 3 {
			w, ok := want[[2]int{i, j}]
			switch {
			case !ok && cells[i][j] != nil:
				t.Errorf("cell %d,%d = %+v, want none", i, j, *cells[i][j])
			case ok && (cells[i][j] == nil || !reflect.DeepEqual(*cells[i][j], w)):
				t.Errorf("cell %d,%d = %+v, want %+v", i, j, cells[i][j], w)
			}
		}
	}
}

// TestRankSwissBuchholz: in a swiss tournament of five bots over three
// rounds, bots equal on points are ordered by Buchholz (the points of the
// opponents they met) before any other rule, and a bye is a match won
// (two games' wins here). The table is checked by hand: A 4.5 points met B 4, E 4 and D 1 (Buchholz 9), ahead of C 4.5
// who met D and E (5), although C has the bye.
func TestRankSwissBuchholz(t *testing.T) {
	// Round 1: A-B, C-D, E sits out. Round 2: E-A, B-D, C sits out.
	// Round 3: E-C, A-D, B sits out. Each pairing plays both seats.
	entrants, games := league("ABCDE",
		"AB", "AB", "CD", "C=D",
		"EA", "AE", "BD", "BD",
		"CE", "EC", "AD", "A=D")
	byes := []scoring.Bye{{Round: 1, BotID: 5, Games: 2}, {Round: 2, BotID: 3, Games: 2}, {Round: 3, BotID: 2, Games: 2}}
	st := scoring.RankSwiss(entrants, games, byes, scoring.SchemeDefault)
	var b strings.Builder
	for _, p := range st {
		line := fmt.Sprintf("%d %s points %.1f buchholz %.1f byes %d games %d W%d D%d L%d %s",
			p.Rank, entrants[p.Entrant].Name, p.Points, p.Buchholz, p.Byes, p.Games, p.Wins, p.Draws, p.Losses, p.TieBreak)
		b.WriteString(strings.TrimSpace(line) + "\n")
	}
	want := `1 A points 4.5 buchholz 9.0 byes 0 games 6 W4 D1 L1 Buchholz
2 C points 4.5 buchholz 5.0 byes 1 games 4 W2 D1 L1 points
3 E points 4.0 buchholz 9.0 byes 1 games 4 W2 D0 L2 Buchholz
4 B points 4.0 buchholz 5.5 byes 1 games 4 W2 D0 L2 points
5 D points 1.0 buchholz 13.0 byes 0 games 6 W0 D2 L4
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var buchholz bool
	for _, p := range st {
		buchholz = buchholz || p.TieBreak == scoring.ByBuchholz
	}
	if !buchholz {
		t.Errorf("no tie broken by Buchholz: the case tests nothing\n%s", b.String())
	}
}
