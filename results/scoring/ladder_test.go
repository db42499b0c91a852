package scoring_test

import (
	"math"
	"testing"

	"botjudge/results/scoring"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func ids(entrants []scoring.Entrant) []int64 {
	var list []int64
	for _, e := range entrants {
		list = append(list, e.ID)
	}
	return list
}

// The ladder's rating is the standings' rating: one fit, two views.
func TestRatingsAreTheStandingsRatings(t *testing.T) {
	entrants, games := league("ABCD", "AB", "AB", "BA", "AC", "CA", "A=D", "BC", "CB", "CD", "DB")
	ratings := scoring.Ratings(ids(entrants), games)
	for _, p := range scoring.Rank(entrants, games, scoring.SchemeDefault) {
		r := ratings[p.Entrant]
		if r.BotID != entrants[p.Entrant].ID || !near(r.Rating, p.Rating) || !near(r.Low, p.RatingLow) || !near(r.High, p.RatingHigh) {
			t.Errorf("%s: ladder %+v, standings %.3f [%.3f, %.3f]", entrants[p.Entrant].Name, r, p.Rating, p.RatingLow, p.RatingHigh)
		}
		if r.Games != p.Games || r.Wins != p.Wins || r.Draws != p.Draws || r.Losses != p.Losses {
			t.Errorf("%s: ladder %d games %d/%d/%d, standings %d games %d/%d/%d", entrants[p.Entrant].Name,
				r.Games, r.Wins, r.Draws, r.Losses, p.Games, p.Wins, p.Draws, p.Losses)
		}
		if !near(r.Deviation*2*1.96, r.High-r.Low) {
			t.Errorf("%s: deviation %.3f is not the interval's %.3f / 3.92", entrants[p.Entrant].Name, r.Deviation, r.High-r.Low)
		}
	}
}

// A newcomer sits at the average with the widest interval, and the
// interval narrows as games come.
func TestRatingsNewcomer(t *testing.T) {
	entrants, games := league("ABC", "AB", "BA", "AB", "BA")
	r := scoring.Ratings(ids(entrants), games)
	if !near(r[2].Rating, 1500) || r[2].Games != 0 {
		t.Errorf("C without games: %+v, want 1500 and 0 games", r[2])
	}
	if !(r[2].High-r[2].Low > r[0].High-r[0].Low) {
		t.Errorf("C's interval %.0f is not wider than A's %.0f after 4 games", r[2].High-r[2].Low, r[0].High-r[0].Low)
	}
	// Games with a bot not on the ladder count for nobody.
	_, more := league("ABCX", "AX", "XA")
	if r := scoring.Ratings(ids(entrants), more); r[0].Games != 0 {
		t.Errorf("A counted %d games against a bot off the ladder", r[0].Games)
	}
}

func TestExpected(t *testing.T) {
	if got := scoring.Expected(1900, 1500); !near(got, 10.0/11) {
		t.Errorf("400 points above: %.6f, want 10/11", got)
	}
	if got := scoring.Expected(1500, 1500); !near(got, 0.5) {
		t.Errorf("level: %.6f, want ½", got)
	}
}

// BrainJar's rule: the winner takes 5 % of the loser's points, the loser
// never falls below 10, a draw moves nothing.
func TestBrainJarPoints(t *testing.T) {
	cases := []struct {
		games []string
		want  [3]float64
	}{
		{nil, [3]float64{10, 10, 10}},
		// The loser at 10 loses nothing; the winner takes 5 % of 10.
		{[]string{"AB"}, [3]float64{10.5, 10, 10}},
		// B takes 5 % of A's 10.5; A falls to 10, not 9.975.
		{[]string{"AB", "BA"}, [3]float64{10, 10.525, 10}},
		// A takes 5 % of B's 10.525 and B loses it all but 10.
		{[]string{"AB", "BA", "AB"}, [3]float64{10.52625, 10, 10}},
		// Above the floor the loser loses what the winner takes.
		{[]string{"AC", "AC", "BA"}, [3]float64{10.45, 10.55, 10}},
		{[]string{"AB", "A=B", "C=A"}, [3]float64{10.5, 10, 10}},
	}
	for _, c := range cases {
		entrants, games := league("ABC", c.games...)
		got := scoring.BrainJarPoints(ids(entrants), games)
		for i := range got {
			if !near(got[i], c.want[i]) {
				t.Errorf("%v: %c has %.6f points, want %.6f", c.games, 'A'+i, got[i], c.want[i])
			}
		}
	}
}

// botsArena's Elo: 1500 to start, K 50 between 1000 and 2000.
func TestBotsArenaElo(t *testing.T) {
	entrants, games := league("ABC", "AB", "B=A")
	got := scoring.BotsArenaElo(ids(entrants), games)
	// AB: 1525/1475. B=A: A expects 1/(1+10^(-50/400)).
	e := 1 / (1 + math.Pow(10, -50.0/400))
	want := []float64{1525 + 50*(0.5-e), 1475 - 50*(0.5-e), 1500}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("%c: %.6f, want %.6f", 'A'+i, got[i], want[i])
		}
	}
}

// Tron scored pairwise: a dead bot draws with those dead the same turn
// (same rank) and loses to those still alive (better rank); the duels of
// one game are reckoned from the ratings before it.
func TestBotsArenaEloTron(t *testing.T) {
	game := scoring.Game{Seats: []scoring.Seat{{BotID: 2, Rank: 2}, {BotID: 1, Rank: 1}, {BotID: 3, Rank: 2}, {BotID: 4, Rank: 4}}}
	got := scoring.BotsArenaElo([]int64{1, 2, 3, 4}, []scoring.Game{game})
	want := []float64{1500 + 3*25, 1500 - 25 + 0 + 25, 1500 - 25 + 0 + 25, 1500 - 3*25}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("bot %d: %.6f, want %.6f", i+1, got[i], want[i])
		}
	}
}
