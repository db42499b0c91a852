package arena_test

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"

	"botjudge/judge/arena"
	"botjudge/results/scoring"
)

var class = flag.Bool("arena.class", false, "simulate a class (30 students, 4 versions each over an hour) and print the ladder's agreement with the hidden order against games played")

// world plays duels between bots of hidden strengths θ: a beats b with
// probability σ(θa − θb), the Bradley–Terry model the ladder fits.
type world struct {
	theta map[int64]float64
	rng   *rand.Rand
	games []scoring.Game
}

func newWorld(seed int64) *world {
	return &world{theta: map[int64]float64{}, rng: rand.New(rand.NewSource(seed))}
}

func (w *world) play(g arena.Game) {
	a, b := g.Seats[0], g.Seats[1]
	if w.rng.Float64() >= 1/(1+math.Exp(w.theta[b]-w.theta[a])) {
		a, b = b, a
	}
	w.games = append(w.games, duel(a, b, false))
}

// tau is Kendall's τ between the ladder's order of the students' versions
// and their hidden order.
func (w *world) tau(versions []arena.Version) float64 {
	ids := make([]int64, len(versions))
	for i, v := range versions {
		ids[i] = v.BotID
	}
	r := scoring.Ratings(ids, w.games)
	concordant, pairs := 0.0, 0.0
	for i := range versions {
		for j := i + 1; j < len(versions); j++ {
			if versions[i].Example || versions[j].Example {
				continue
			}
			pairs++
			hidden := w.theta[ids[i]] - w.theta[ids[j]]
			seen := r[i].Rating - r[j].Rating
			switch {
			case hidden*seen > 0:
				concordant++
			case hidden*seen < 0:
				concordant--
			}
		}
	}
	return concordant / pairs
}

// examples are three example bots, weak, average and strong, IDs 1 to 3.
func (w *world) examples() []arena.Version {
	for i, th := range []float64{-1.5, 0, 1.5} {
		w.theta[int64(i+1)] = th
	}
	return []arena.Version{{BotID: 1, Example: true}, {BotID: 2, Example: true}, {BotID: 3, Example: true}}
}

// point is the ladder's agreement after a number of games.
type point struct {
	games int
	tau   float64
}

// stableAt is the games after which τ stays at least target to the end of
// the curve, -1 if it does not end there.
func stableAt(curve []point, target float64) int {
	at := -1
	for _, p := range curve {
		switch {
		case p.tau < target:
			at = -1
		case at < 0:
			at = p.games
		}
	}
	return at
}

// arenaCurve plays the arena among versions, parallel games at a time,
// until games, noting τ every step games.
func (w *world) arenaCurve(versions []arena.Version, parallel, games, step int) []point {
	m := arena.Matchmaker{Seed: 1}
	start := len(w.games)
	var curve []point
	for len(w.games)-start < games {
		for _, g := range m.Next(versions, w.games, nil, nil, parallel) {
			w.play(g)
		}
		if n := len(w.games) - start; n >= (len(curve)+1)*step {
			curve = append(curve, point{n, w.tau(versions)})
		}
	}
	return curve
}

// roundRobinCurve plays the round robin of versions (every pair twice,
// both seats, example bots never against each other) in a random order,
// noting τ every step games.
func (w *world) roundRobinCurve(versions []arena.Version, step int) []point {
	var plan []arena.Game
	for i, a := range versions {
		for _, b := range versions[i+1:] {
			if !a.Example || !b.Example {
				plan = append(plan, arena.Game{Seats: [2]int64{a.BotID, b.BotID}}, arena.Game{Seats: [2]int64{b.BotID, a.BotID}})
			}
		}
	}
	w.rng.Shuffle(len(plan), func(i, j int) { plan[i], plan[j] = plan[j], plan[i] })
	var curve []point
	for k, g := range plan {
		w.play(g)
		if (k+1)%step == 0 || k+1 == len(plan) {
			curve = append(curve, point{k + 1, w.tau(versions)})
		}
	}
	return curve
}

// freshClass is n students' versions of strengths drawn from N(0, 1),
// beside the example bots.
func freshClass(w *world, n int) []arena.Version {
	versions := w.examples()
	for i := range n {
		id := int64(100 + i)
		w.theta[id] = w.rng.NormFloat64()
		versions = append(versions, arena.Version{BotID: id})
	}
	return versions
}

// The arena orders a class's bots as they are: over several classes of 12
// students, after as many games as two round robins, its ladder agrees
// with the hidden order (τ ≥ 0.8 on average) and at least as well as two
// round robins do.
func TestLadderConverges(t *testing.T) {
	var arenaTau, robinTau float64
	const classes = 6
	for seed := range int64(classes) {
		rr := newWorld(seed)
		rrVersions := freshClass(rr, 12)
		rr.roundRobinCurve(rrVersions, 1000)
		robin := rr.roundRobinCurve(rrVersions, 1000)
		robinTau += robin[len(robin)-1].tau / classes
		w := newWorld(seed)
		versions := freshClass(w, 12)
		curve := w.arenaCurve(versions, 4, len(rr.games), len(rr.games))
		arenaTau += curve[len(curve)-1].tau / classes
	}
	t.Logf("mean τ: arena %.3f, round robin %.3f", arenaTau, robinTau)
	if arenaTau < 0.8 || arenaTau < robinTau {
		t.Errorf("after two round robins' games the arena's mean τ is %.3f, the round robins' %.3f: want ≥ 0.8 and ≥ the round robins'", arenaTau, robinTau)
	}
}

// TestClass is the benchmark of SPEC §7's arena (run with -arena.class):
// a class of 30 students hands in 4 versions each over an hour while the
// arena plays 12 (then 24) games a minute, 4 at a time, and goes on half an hour
// after the last; it prints τ between the ladder of the current versions
// and their hidden order against games played. Then, on classes of 30
// fresh versions, the mean τ of the arena's ladder and of a round robin's
// (played in a random order) against games played, and the games each
// needs for τ ≥ 0.8 to hold.
func TestClass(t *testing.T) {
	if !*class {
		t.Skip("a simulation: run with -arena.class")
	}
	var out strings.Builder
	for _, perMinute := range []int{12, 24} {
		hour(&out, newWorld(11), perMinute)
	}
	const classes, step = 5, 60
	var ac, rc []point
	for seed := range int64(classes) {
		w := newWorld(100 + seed)
		ac = addCurve(ac, w.arenaCurve(freshClass(w, 30), 4, 1500, step), classes)
		w = newWorld(100 + seed)
		rc = addCurve(rc, w.roundRobinCurve(freshClass(w, 30), step), classes)
	}
	fmt.Fprintf(&out, "\n%d classes of 30 fresh versions: mean τ ≥ 0.8 from game %d on (arena), %d (round robin, %d games)\n",
		classes, stableAt(ac, 0.8), stableAt(rc, 0.8), rc[len(rc)-1].games)
	fmt.Fprintln(&out, "games  arena τ  round robin τ")
	for k := range max(len(ac), len(rc)) {
		a, r := "", ""
		if k < len(ac) {
			a = fmt.Sprintf("%.3f", ac[k].tau)
		}
		if k < len(rc) {
			r = fmt.Sprintf("%.3f", rc[k].tau)
		}
		fmt.Fprintf(&out, "%5d  %7s  %s\n", (k+1)*step, a, r)
	}
	t.Log("\n" + out.String())
}

// addCurve adds curve's τ, divided by n, to sum's.
func addCurve(sum, curve []point, n int) []point {
	if sum == nil {
		sum = make([]point, len(curve))
	}
	for k, p := range curve {
		sum[k].games = p.games
		sum[k].tau += p.tau / float64(n)
	}
	return sum
}

// hour plays the class's hour and prints its curve.
func hour(out *strings.Builder, w *world, gamesPerMinute int) {
	current := w.examples()
	arrivals := w.arrivals(30, 4)
	of := map[int]int64{} // student → current version's bot
	m := arena.Matchmaker{Seed: 1}
	fmt.Fprintf(out, "%d games a minute\nminute  versions  games  τ\n", gamesPerMinute)
	next, robin := 0, 0
	for minute := 0; minute < 90; minute++ {
		for ; next < len(arrivals) && arrivals[next].minute < float64(minute); next++ {
			a := arrivals[next]
			id := int64(1000 + next)
			w.theta[id] = a.theta
			current = slices.DeleteFunc(current, func(v arena.Version) bool { return v.BotID == of[a.student] })
			robin += 2 * len(current) // a round robin kept current plays the new version's pairs
			of[a.student] = id
			current = append(current, arena.Version{BotID: id})
		}
		for range gamesPerMinute / 4 {
			for _, g := range m.Next(current, w.games, nil, nil, 4) {
				w.play(g)
			}
		}
		if minute%5 == 4 {
			fmt.Fprintf(out, "%6d  %8d  %5d  %.3f\n", minute+1, len(current)-3, len(w.games), w.tau(current))
		}
	}
	fmt.Fprintf(out, "a round robin kept current through the hour: %d games\n", robin)
}

// arrival is a version handed in.
type arrival struct {
	minute  float64
	student int
	theta   float64
}

// arrivals are each student's versions, at times drawn over an hour; a
// student's strength is drawn from N(0, 1), and each version is 0.3
// stronger than the one before give or take 0.3.
func (w *world) arrivals(students, each int) []arrival {
	var list []arrival
	for s := range students {
		base := w.rng.NormFloat64()
		times := make([]float64, each)
		for k := range times {
			times[k] = 60 * w.rng.Float64()
		}
		sort.Float64s(times)
		for k, at := range times {
			list = append(list, arrival{at, s, base + 0.3*float64(k) + 0.3*w.rng.NormFloat64()})
		}
	}
	slices.SortFunc(list, func(a, b arrival) int { return cmp.Compare(a.minute, b.minute) })
	return list
}
