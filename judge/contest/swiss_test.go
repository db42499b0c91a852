package contest

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSwissRounds(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 1, 3: 3, 4: 3, 8: 5, 9: 6, 16: 6, 30: 7, 40: 8, 64: 8, 65: 9} {
		if got := SwissRounds(n); got != want {
			t.Errorf("SwissRounds(%d) = %d, want %d", n, got, want)
		}
	}
}

// playSwiss pairs n bots over rounds rounds with pairRound, deciding each
// match by strength (the lower index wins, as a field of bots of different
// strengths would), and checks each round: every bot plays or has the bye,
// once; the bye goes to a bot with the fewest byes; no pair meets twice while
// a pairing without rematch exists (rematchFree); pairs are of equal score
// whenever the field allows it, checked as: no pair could swap partners with
// another to make both pairs of equal score without a rematch.
func playSwiss(t *testing.T, n, rounds int, seed int64, rematchFree bool) {
	t.Helper()
	s := swissStand{score: make([]float64, n), byes: make([]int, n), met: map[[2]int]int{}}
	rng := rand.New(rand.NewSource(seed))
	for r := 1; r <= rounds; r++ {
		pairs, bye := pairRound(s, rng)
		seen := make([]int, n)
		for _, p := range pairs {
			seen[p[0]]++
			seen[p[1]]++
		}
		if n%2 == 1 {
			if bye < 0 {
				t.Fatalf("%d bots, round %d: no bye", n, r)
			}
			seen[bye]++
			if s.byes[bye] != slices.Min(s.byes) {
				t.Errorf("%d bots, round %d: bye to bot %d who had %d, while some had %d", n, r, bye, s.byes[bye], slices.Min(s.byes))
			}
		} else if bye >= 0 {
			t.Errorf("%d bots, round %d: a bye with an even field", n, r)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("%d bots, round %d: bot %d in %d pairings", n, r, i, c)
			}
		}
		for _, p := range pairs {
			if rematchFree && s.met[pairKey(p[0], p[1])] > 0 {
				t.Errorf("%d bots, round %d: %v meet again", n, r, p)
			}
		}
		for x, p := range pairs {
			if s.score[p[0]] == s.score[p[1]] {
				continue
			}
			for _, q := range pairs[x+1:] {
				for _, swap := range [][2][2]int{{{p[0], q[0]}, {p[1], q[1]}}, {{p[0], q[1]}, {p[1], q[0]}}} {
					a, b := swap[0], swap[1]
					if s.score[a[0]] == s.score[a[1]] && s.score[b[0]] == s.score[b[1]] &&
						s.met[pairKey(a[0], a[1])] == 0 && s.met[pairKey(b[0], b[1])] == 0 && s.score[q[0]] != s.score[q[1]] {
						t.Errorf("%d bots, round %d: %v and %v (scores %v %v, %v %v) could be two pairs of equal scores",
							n, r, p, q, s.score[p[0]], s.score[p[1]], s.score[q[0]], s.score[q[1]])
					}
				}
			}
		}
		for _, p := range pairs {
			s.met[pairKey(p[0], p[1])]++
			s.score[min(p[0], p[1])] += 2
		}
		if bye >= 0 {
			s.byes[bye]++
			s.score[bye] += 2
		}
	}
}

func TestPairRoundProperties(t *testing.T) {
	for _, n := range []int{2, 3, 5, 8, 13, 30, 40, 41} {
		for seed := range int64(5) {
			t.Run(fmt.Sprintf("%d bots seed %d", n, seed), func(t *testing.T) {
				playSwiss(t, n, SwissRounds(n), seed, true)
			})
		}
	}
}

// With more rounds than opponents, rematches cannot be avoided: the pairing
// still pairs every bot, each with the one it met least.
func TestPairRoundRematchFallback(t *testing.T) {
	playSwiss(t, 4, 6, 1, false)
	s := swissStand{score: make([]float64, 4), byes: make([]int, 4), met: map[[2]int]int{{0, 1}: 1, {2, 3}: 1, {0, 2}: 1, {1, 3}: 1, {0, 3}: 2, {1, 2}: 2}}
	pairs, _ := pairRound(s, rand.New(rand.NewSource(1)))
	for _, p := range pairs {
		if s.met[pairKey(p[0], p[1])] != 1 {
			t.Errorf("paired %v, who met twice, while a pairing of pairs that met once exists: %v", p, pairs)
		}
	}
}

// The pairing among bots of equal score is drawn from the seed: the same
// seed pairs the same, another seed (some of them) otherwise.
func TestPairRoundDrawnFromSeed(t *testing.T) {
	s := swissStand{score: make([]float64, 10), byes: make([]int, 10), met: map[[2]int]int{}}
	first, _ := pairRound(s, rand.New(rand.NewSource(1)))
	same, _ := pairRound(s, rand.New(rand.NewSource(1)))
	if !slices.Equal(first, same) {
		t.Errorf("the same seed paired %v then %v", first, same)
	}
	differs := false
	for seed := int64(2); seed < 10; seed++ {
		other, _ := pairRound(s, rand.New(rand.NewSource(seed)))
		differs = differs || !slices.Equal(first, other)
	}
	if !differs {
		t.Errorf("every seed paired %v", first)
	}
}

// Heats: every bot plays once a round, in games of at most maxSeats whose
// sizes differ by one at most, groups differ from round to round, and each
// bot's seat moves over the rounds.
func TestHeats(t *testing.T) {
	for _, n := range []int{13, 24, 25, 30, 40} {
		firstSeats := map[int]int{}
		var groups []string
		for r := 1; r <= 6; r++ {
			hs := heats(n, 12, r, 3)
			if want := (n + 11) / 12; len(hs) != want {
				t.Errorf("%d bots: %d heats, want %d", n, len(hs), want)
			}
			seen := make([]int, n)
			sizes := []int{}
			for _, h := range hs {
				sizes = append(sizes, len(h))
				for _, b := range h {
					seen[b]++
				}
				firstSeats[h[0]]++
			}
			if slices.Max(sizes) > 12 || slices.Max(sizes)-slices.Min(sizes) > 1 {
				t.Errorf("%d bots, round %d: heats of %v bots", n, r, sizes)
			}
			for b, c := range seen {
				if c != 1 {
					t.Fatalf("%d bots, round %d: bot %d in %d heats", n, r, b, c)
				}
			}
			groups = append(groups, fmt.Sprint(hs))
			if !slices.Equal(heats(n, 12, r, 3)[0], hs[0]) {
				t.Errorf("%d bots, round %d: heats not drawn from the seed alone", n, r)
			}
		}
		slices.Sort(groups)
		if len(slices.Compact(groups)) < 6 {
			t.Errorf("%d bots: the same heats in two rounds", n)
		}
		for b, c := range firstSeats {
			if c > 3 {
				t.Errorf("%d bots: bot %d held the first seat in %d rounds of 6", n, b, c)
			}
		}
	}
}

// A class of 30 battleships bots (5 games a pair and seat) at 2.5 s a game
// does not fit a lesson in a round robin, and fits in swiss; 8 virus bots
// at 1 s a game fit.
func TestSuggestSwiss(t *testing.T) {
	line := suggestSwiss(30, 30*29*5, 5, 2500*time.Millisecond, "measured")
	for _, want := range []string{"30 bots", "4350 games", "3 h 01", "--format swiss plays 7 rounds, 1050 games, in about 44 min"} {
		if !strings.Contains(line, want) {
			t.Errorf("suggestion %q does not say %q", line, want)
		}
	}
	if line := suggestSwiss(8, 56, 1, time.Second, "measured"); line != "" {
		t.Errorf("a round robin of a minute got a suggestion: %s", line)
	}
}
