package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// The class row answers the organiser's question: does the final
// tournament of a class fit in a lesson? Playing a class's whole round
// robin for every game would take hours (that is the problem it measures),
// so it plays a sample and projects. The class is the game folder's example
// bots copied to ClassBots (copy k is example k mod m, the shipped mix of
// languages), and again only its Python examples. Every game of the class
// is between two copies, so its time is that of one pairing of example
// types: the sample plays each unordered pairing (a type against a copy of
// itself too), ClassGames games each, seats alternated, on the judge's
// default workers, and weighs each pairing's mean game by how many pairs of
// the class it stands for.

// lessonRoundRobin and lessonLargeField are the time a class's tournament
// must fit in: the round robin of a duel-only game in 30 minutes, the swiss
// or heats of a game of more seats in 45 (issue 20's targets).
const (
	lessonRoundRobin = 30 * time.Minute
	lessonLargeField = 45 * time.Minute
)

// classType is one example bot of a game folder: the pattern of the copies.
type classType struct {
	entry contest.Entry
	lang  string
	// seats are the staged (and built) bot on each runner; why says why a
	// runner cannot run it (the plain runner builds nothing).
	seats [2]*contest.Seat
	why   [2]string
}

// sampleGame is one game of the sample, measured on one runner.
type sampleGame struct {
	wall  time.Duration // bots started, game played, bots stopped
	play  time.Duration // the moves alone
	plies int
	steps int
	// capped: stopped after Sizes.ClassSteps plies; the projection counts
	// it as ended there (a lower bound) or extrapolated (an upper one).
	capped bool
	// answer is the answer time of the pairing's first and second type.
	answer [2]time.Duration
	faults int
}

// pairMean is one pairing's mean game as the projection uses it.
type pairMean struct {
	game time.Duration // mean wall time of one game
	ofA  float64       // the part of it owed to the first type (the rest: the second)
	ok   bool          // measured
}

// pairIndex numbers the unordered pairings a ≤ b of m types.
func pairIndex(m, a, b int) int {
	if a > b {
		a, b = b, a
	}
	return a*m - a*(a-1)/2 + (b - a)
}

// classCounts is how many copies of each of m types a class of n bots has
// when copy k is type k mod m.
func classCounts(n, m int) []int {
	c := make([]int, m)
	for k := range n {
		c[k%m]++
	}
	return c
}

// pairsOf is how many unordered pairs of the class's bots are of types a
// and b.
func pairsOf(counts []int, a, b int) int {
	if a == b {
		return counts[a] * (counts[a] - 1) / 2
	}
	return counts[a] * counts[b]
}

// projection is a class tournament's projected time.
type projection struct {
	games int
	// work is the sum of the games' times; wall is work over the
	// parallelism.
	work, wall time.Duration
	// share is each type's part of the work.
	share []float64
	// missing: a pairing with no measure, so no projection (wall is NaN).
	missing bool
}

// project is the round robin of a class of counts[t] copies of each type t:
// every unordered pair plays perPair games (2 × rounds in duels), each
// lasting its pairing's mean, parallel games at once. It is the arithmetic
// of the class row, kept apart so that a test can check it by hand.
func project(counts []int, means []pairMean, perPair int, parallel float64) projection {
	m := len(counts)
	p := projection{share: make([]float64, m)}
	var work float64 // seconds
	for a := range m {
		for b := a; b < m; b++ {
			n := pairsOf(counts, a, b)
			if n == 0 {
				continue
			}
			p.games += n * perPair
			pm := means[pairIndex(m, a, b)]
			if !pm.ok {
				p.missing = true
				continue
			}
			w := float64(n*perPair) * pm.game.Seconds()
			work += w
			p.share[a] += w * pm.ofA
			p.share[b] += w * (1 - pm.ofA)
		}
	}
	for t := range p.share {
		if work > 0 {
			p.share[t] /= work
		}
	}
	p.work = seconds(work)
	p.wall = seconds(work / parallel)
	return p
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// largeField projects a format for large fields from the round robin's
// projection rr of the same class: its games and time, and how it was
// played, "" when the format cannot be projected from duels. The pairings
// of a format by score are not those of the round robin; the projection
// takes the round robin's mean game, which is right on average over the
// class's mix. Heats (free-for-alls of up to the game's seats, for games of
// more than two) are not duels: projecting them needs a sample of heats,
// which is left to do when the judge plays them.
func largeField(format contest.Format, n, perPair int, rr projection) (games int, wall time.Duration, how string) {
	switch format {
	case contest.Swiss:
		r := contest.SwissRounds(n)
		games = r * (n / 2) * perPair
		if rr.games == 0 {
			return games, 0, ""
		}
		return games, time.Duration(float64(rr.wall) * float64(games) / float64(rr.games)),
			fmt.Sprintf("%d swiss rounds of %d pairings × %d games", r, n/2, perPair)
	}
	return 0, 0, ""
}

// languageOf names what runs an example bot, for the reader: by its file's
// extension, or for a folder by its main file or what its run.sh starts.
func languageOf(e contest.Entry) string {
	if e.Kind == "file" {
		l, _ := sandbox.LanguageOf(e.Source)
		return cmp.Or(l.Name, "program")
	}
	for _, main := range append(sandbox.MainFiles(), sandbox.ServerFiles()...) {
		l, ok := sandbox.LanguageOf(main)
		if _, err := os.Stat(filepath.Join(e.Source, main)); err == nil && ok {
			return l.Name
		}
	}
	run, err := os.ReadFile(filepath.Join(e.Source, sandbox.RunScript))
	if err != nil {
		return "program"
	}
	for _, l := range sandbox.Languages {
		if l.Word != "" && strings.Contains(string(run), l.Word) {
			return l.Name
		}
	}
	return "program"
}

// class adds, for every game folder of the submissions, the class row:
// the projected tournament of ClassBots copies of its examples in their
// mix, and of its Python examples, on both runners.
func (b *bencher) class(ctx context.Context) error {
	root := b.cfg.Submissions
	if root == "" || b.sz.ClassBots < 2 {
		return nil
	}
	des, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("bench: the class row needs the example bots: %w", err)
	}
	for _, de := range des {
		rules, ok := games.Lookup(de.Name())
		if !ok || !de.IsDir() {
			continue
		}
		if err := b.classOf(ctx, rules, filepath.Join(root, de.Name())); err != nil {
			return err
		}
	}
	b.note("class rows: %d bots, the game's default rounds, round robin (each pair twice a round, both seats), sampled and projected: every unordered pairing of its example bots (a bot against a copy of itself too) played %d time(s) (seats alternated) on %s worker(s), each pairing's mean game (bots started, played, stopped) weighed by the pairs of the class it stands for, divided by the sample's own parallelism (the sum of its games' times over its wall time); a tournament starts the next games' bots during the current ones, so the projection errs on the long side; a sample game stopped after %d plies counts as if it ended there (the row says \"at least\"; the game's note gives the upper bound, with the stopped games extrapolated to the most plies their rules allow)",
		b.sz.ClassBots, max(1, b.sz.ClassGames), b.workers(), b.sz.ClassSteps)
	b.note("class rows' targets: the all-Python class's round robin within %v min for games of two seats; for games of more, its swiss (or heats) within %v min", lessonRoundRobin.Minutes(), lessonLargeField.Minutes())
	return nil
}

// classOf measures and projects one game's class.
func (b *bencher) classOf(ctx context.Context, rules games.Rules, dir string) error {
	entries, _, err := contest.Discover(dir, rules.Protocol(), false)
	if err != nil || len(entries) == 0 {
		b.note("%s: no example bots in %s, no class row", rules.Name(), dir)
		return nil
	}
	if lo, hi := rules.Seats(); lo > 2 || hi < 2 {
		return nil // only duels make a round robin of pairs
	}
	types := make([]*classType, len(entries))
	stage := filepath.Join(b.work, "class", "_bots")
	for i, e := range entries {
		t := &classType{entry: e, lang: languageOf(e)}
		path, err := contest.Stage(stage, e)
		if err != nil {
			return err
		}
		for side := range b.sides {
			seat := contest.Seat{Name: e.Name, Bot: sandbox.Bot{Name: e.Name, Path: path, Protocol: rules.Protocol()}}
			seat, err := contest.BuildSeat(ctx, b.sides[side].Runner, seat, sandbox.DefaultBuildLimits())
			switch {
			case errors.Is(err, contest.ErrNoBuilder):
				t.why[side] = "cannot build compiled bots"
			case err != nil:
				return err
			case seat.Build != nil && seat.Build.Fault != fault.None:
				t.why[side] = "did not compile: " + seat.Build.Fault.Plain()
			default:
				t.seats[side] = &seat
			}
		}
		types[i] = t
	}
	var python []int
	for i, t := range types {
		if t.lang == "Python" {
			python = append(python, i)
		}
	}
	rounds := games.DefaultRounds(rules)
	perPair := 2 * rounds
	n := b.sz.ClassBots
	m := len(types)
	// means count a game stopped at the cap at its extrapolation, an upper
	// bound; floor counts it as if it ended there, a lower one.
	var means, floor [2][]pairMean
	var parallel [2]float64
	var capped [2][]string
	var faults [2]int
	for side := range b.sides {
		b.progress("class of %d, %s: sampling %d pairings of %d example bots, %s", n, rules.Name(), m*(m+1)/2, m, sideNames[side])
		sample, par, err := b.sampleClass(ctx, side, rules, types)
		if err != nil {
			return err
		}
		parallel[side] = par
		means[side], floor[side] = make([]pairMean, len(sample)), make([]pairMean, len(sample))
		for k, gs := range sample {
			means[side][k], floor[side][k] = meanOf(rules, gs, false), meanOf(rules, gs, true)
			for _, g := range gs {
				faults[side] += g.faults
				if _, how := extrapolate(rules, g); g.capped {
					capped[side] = append(capped[side], pairName(types, k)+": "+how)
				}
			}
		}
	}
	// Python only: the same pairings, among the Python types.
	sub := func(means []pairMean, idx []int) []pairMean {
		out := make([]pairMean, len(idx)*(len(idx)+1)/2)
		for i, a := range idx {
			for j := i; j < len(idx); j++ {
				out[pairIndex(len(idx), i, j)] = means[pairIndex(m, a, idx[j])]
			}
		}
		return out
	}
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	_, most := rules.Seats()
	for _, class := range []struct {
		what string
		idx  []int
	}{{"shipped mix", all}, {"all Python", python}} {
		if len(class.idx) == 0 {
			b.note("%s: no Python example bot, no all-Python class", rules.Name())
			continue
		}
		counts := classCounts(n, len(class.idx))
		// The rows show the lower bound, which is the projection itself
		// when no game was stopped: a class that misses its target even
		// so misses it for sure.
		var p, high [2]projection
		var wall [2]float64
		stopped := ""
		for side := range b.sides {
			p[side] = project(counts, sub(floor[side], class.idx), perPair, parallel[side])
			high[side] = project(counts, sub(means[side], class.idx), perPair, parallel[side])
			wall[side] = nanIf(p[side], p[side].wall)
			if high[side].work > p[side].work {
				stopped = atLeastWords
			}
		}
		row := Row{Measure: fmt.Sprintf("class of %d, %s, %s (%s): round robin, %d rounds, %d games, projected%s", n, rules.Name(), class.what, langs(types, class.idx), rounds, p[0].games, stopped),
			Unit: "min", Sandboxed: wall[0], Plain: wall[1], Compare: "ratio"}
		if class.what == "all Python" && most <= 2 {
			row.Target, row.Met = fmt.Sprintf("≤ %v min", lessonRoundRobin.Minutes()), atMost(wall[0], lessonRoundRobin.Minutes())
		}
		b.add(row)
		b.note("%s, %s: %s", rules.Name(), class.what, dominant(types, class.idx, p[0], high[0]))
		if most > 2 {
			ng, sw, how := largeField("swiss", n, perPair, p[0])
			_, swPlain, _ := largeField("swiss", n, perPair, p[1])
			if how == "" {
				continue
			}
			row := Row{Measure: fmt.Sprintf("class of %d, %s, %s: swiss, %d games, projected%s", n, rules.Name(), class.what, ng, stopped),
				Unit: "min", Sandboxed: nanIf(p[0], sw), Plain: nanIf(p[1], swPlain), Compare: "ratio"}
			if class.what == "all Python" {
				row.Target, row.Met = fmt.Sprintf("≤ %v min", lessonLargeField.Minutes()), atMost(row.Sandboxed, lessonLargeField.Minutes())
			}
			b.add(row)
			if class.what == "all Python" {
				b.note("%s swiss: %s, each at the round robin's mean game; heats (free-for-alls of up to %d) not projected: they need a sample of heats", rules.Name(), how, most)
			}
		}
	}
	// The examples' own round robin, one copy each, is what `make run`
	// plays: where the time of a first run goes, from the same sample.
	var own [2]float64
	var ownP, ownHigh [2]projection
	stopped := ""
	for side := range b.sides {
		ownP[side] = project(classCounts(m, m), floor[side], perPair, parallel[side])
		ownHigh[side] = project(classCounts(m, m), means[side], perPair, parallel[side])
		own[side] = nanIf(ownP[side], ownP[side].wall)
		if ownHigh[side].work > ownP[side].work {
			stopped = atLeastWords
		}
	}
	b.add(Row{Measure: fmt.Sprintf("%s, its examples alone (as make run plays them): %d bots, %d games, projected%s", rules.Name(), m, ownP[0].games, stopped),
		Unit: "min", Sandboxed: own[0], Plain: own[1], Compare: "ratio"})
	b.note("%s, its examples alone: %s", rules.Name(), dominant(types, all, ownP[0], ownHigh[0]))
	for side := range b.sides {
		var cannot []string
		for _, t := range types {
			if t.why[side] != "" {
				cannot = append(cannot, fmt.Sprintf("%s (%s): %s", t.entry.Name, t.lang, t.why[side]))
			}
		}
		if len(cannot) > 0 {
			b.note("%s, %s: not measured, %s: its classes with them show —", rules.Name(), sideNames[side], strings.Join(cannot, "; "))
		}
		if len(capped[side]) > 0 {
			b.note("%s, %s: extrapolated: %s", rules.Name(), sideNames[side], strings.Join(capped[side], "; "))
		}
		if faults[side] > 0 {
			b.note("%s, %s: %d faults (timeouts, crashes...) in the sample: its games are shorter than the bots' real ones", rules.Name(), sideNames[side], faults[side])
		}
		b.note("%s, %s: sample's parallelism ×%.2f", rules.Name(), sideNames[side], parallel[side])
	}
	return nil
}

// nanIf is d in minutes, or NaN when p lacks a pairing or parallelism.
func nanIf(p projection, d time.Duration) float64 {
	if p.missing || p.work == 0 {
		return math.NaN()
	}
	return d.Minutes()
}

// langs is the mix of a class's languages in words.
func langs(types []*classType, idx []int) string {
	count := map[string]int{}
	var order []string
	for _, i := range idx {
		l := types[i].lang
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l]++
	}
	parts := make([]string, len(order))
	for i, l := range order {
		parts[i] = fmt.Sprintf("%d %s", count[l], l)
		if count[l] == 1 {
			parts[i] = l
		}
	}
	if len(idx) == 1 {
		return "1 example: " + parts[0]
	}
	return fmt.Sprintf("%d examples: %s", len(idx), strings.Join(parts, ", "))
}

// atLeastWords mark a projection with games stopped at the cap counted as
// if they ended there.
const atLeastWords = ", at least (games stopped at the cap)"

// dominant says which example types take most of a class's projected time.
// high is the same projection with games stopped at the cap extrapolated.
func dominant(types []*classType, idx []int, p, high projection) string {
	if p.missing || p.work == 0 {
		return "not projected on the sandboxed runner"
	}
	order := make([]int, len(idx))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(p.share[y], p.share[x]) })
	var parts []string
	for _, i := range order[:min(3, len(order))] {
		t := types[idx[i]]
		parts = append(parts, fmt.Sprintf("%s (%s) %.0f %%", t.entry.Name, t.lang, 100*p.share[i]))
	}
	at := ""
	if high.work > p.work && !high.missing {
		at = fmt.Sprintf(" at least, %.0f min at most (the games stopped at the cap extrapolated to the rules' bound)", high.wall.Minutes())
	}
	return fmt.Sprintf("sandboxed, %s of games' time, %.1f min%s: %s of it", p.work.Round(time.Second), p.wall.Minutes(), at, strings.Join(parts, ", "))
}

// meanOf is the mean of one pairing's sample games. A game stopped at the
// cap counts at its extrapolation, or with atCap as if it ended there.
func meanOf(rules games.Rules, gs []sampleGame, atCap bool) pairMean {
	if len(gs) == 0 {
		return pairMean{}
	}
	var total, ofA float64
	for _, g := range gs {
		full, _ := extrapolate(rules, g)
		if atCap {
			full = g.wall
		}
		total += full.Seconds()
		// What the game costs besides answers is shared by both seats.
		fixed := (g.wall - g.play).Seconds()
		share := 0.5
		if ans := g.answer[0] + g.answer[1]; ans > 0 {
			share = g.answer[0].Seconds() / ans.Seconds()
		}
		ofA += fixed/2 + (full.Seconds()-fixed)*share
	}
	return pairMean{game: seconds(total / float64(len(gs))), ofA: ofA / total, ok: true}
}

// extrapolate is a sample game's whole time: its own when it ended, and
// when it was stopped at the cap, its moves' time scaled up to the most
// plies the rules allow (games.Bounded; their answers × seats, over the
// answers per ply seen), an upper bound, since the game could not be
// played to its end in the bench's time.
func extrapolate(rules games.Rules, g sampleGame) (time.Duration, string) {
	if !g.capped || g.plies == 0 {
		return g.wall, ""
	}
	bd, ok := rules.(games.Bounded)
	if !ok {
		return g.wall, fmt.Sprintf("stopped after %d plies, counted as if it ended there (the rules give no bound): an underestimate", g.plies)
	}
	perPly := float64(g.steps) / float64(g.plies)
	most := int(math.Ceil(float64(2*bd.MaxRequests(2)) / perPly))
	full := g.wall - g.play + time.Duration(float64(g.play)*float64(most)/float64(g.plies))
	return full, fmt.Sprintf("stopped after %d plies (%s), extrapolated to the rules' bound of %d plies (%s): an upper bound", g.plies, g.wall.Round(100*time.Millisecond), most, full.Round(time.Second))
}

func pairName(types []*classType, k int) string {
	m := len(types)
	for a := range m {
		for b := a; b < m; b++ {
			if pairIndex(m, a, b) == k {
				return types[a].entry.Name + " × " + types[b].entry.Name
			}
		}
	}
	return "?"
}

// sampleClass plays every pairing of types that side can run, ClassGames
// games each with seats alternated, as a tournament plays games: Workers
// at once. It returns each pairing's games and the sample's parallelism:
// the sum of its games' times over its wall time.
func (b *bencher) sampleClass(ctx context.Context, side int, rules games.Rules, types []*classType) ([][]sampleGame, float64, error) {
	m := len(types)
	type job struct{ k, a, b, g int }
	var jobs []job
	for a := range m {
		for bb := a; bb < m; bb++ {
			if types[a].seats[side] == nil || types[bb].seats[side] == nil {
				continue
			}
			for g := range max(1, b.sz.ClassGames) {
				jobs = append(jobs, job{pairIndex(m, a, bb), a, bb, g})
			}
		}
	}
	out := make([][]sampleGame, m*(m+1)/2)
	workers := b.sz.Workers
	if workers <= 0 {
		workers = contest.DefaultWorkers(2, sandbox.DefaultLimits().Memory)
	}
	queue := make(chan job)
	var mu sync.Mutex
	var firstErr error
	var sum time.Duration
	began := time.Now()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				// Seats alternate over a pairing's games and, with one game
				// a pairing, over pairings: no type always moves first.
				g, err := b.sampleGame(ctx, side, rules, types, j.a, j.b, j.g, (j.k+j.g)%2 == 1)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("class of %s, %s: %w", rules.Name(), sideNames[side], err)
				}
				out[j.k] = append(out[j.k], g)
				sum += g.wall
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	wall := time.Since(began)
	// The containers a reusing runner keeps for these bots' next games
	// are of no more use: the next game's sample has its own bots.
	if err := b.sides[side].Runner.Drain(context.WithoutCancel(ctx)); err != nil && firstErr == nil {
		firstErr = err
	}
	if firstErr != nil {
		return nil, 0, firstErr
	}
	if len(jobs) == 0 || wall <= 0 {
		return out, 0, nil
	}
	return out, sum.Seconds() / wall.Seconds(), nil
}

// sampleGame plays the g-th game of types a and b, a first unless swap.
func (b *bencher) sampleGame(ctx context.Context, side int, rules games.Rules, types []*classType, a, bb, g int, swap bool) (sampleGame, error) {
	seats := []contest.Seat{*types[a].seats[side], *types[bb].seats[side]}
	first := 0 // the seat of type a
	if swap {
		seats[0], seats[1] = seats[1], seats[0]
		first = 1
	}
	// Two copies of one example are two bots, as in a class.
	seats[0].Name += ".1"
	seats[1].Name += ".2"
	m := contest.Match{Rules: rules, Seed: contest.GameSeed(1, fmt.Sprintf("class/%s/%s/%d", seats[0].Name, seats[1].Name, g)),
		Seats: seats, Policy: contest.Policy{GiveUp: 3}, MaxSteps: b.sz.ClassSteps}
	began := time.Now()
	p, err := contest.Play(ctx, b.sides[side].Runner, m, sandbox.DefaultLimits(), nil, nil)
	wall := time.Since(began)
	if err != nil {
		return sampleGame{}, err
	}
	s := sampleGame{wall: wall, play: p.Finished.Sub(p.Started), steps: len(p.Steps), capped: p.Stopped}
	for _, st := range p.Steps {
		s.plies = max(s.plies, st.Ply+1)
		ofA := 0
		if st.Seat != first {
			ofA = 1
		}
		s.answer[ofA] += st.Elapsed
		if st.Verdict != fault.None {
			s.faults++
		}
	}
	return s, nil
}
