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

// field is the class a format for large fields is projected for: n bots,
// the game's default rounds (perPair games a pair in duels) and seats.
type field struct {
	n, rounds, perPair int
	minSeats, maxSeats int
}

// largeField projects a format for large fields from the round robin's
// projection rr of the same class: its games and time, and how it was
// played, "" when the format cannot be projected. The pairings of a format
// by score are not those of the round robin; the projection takes the
// round robin's mean game, which is right on average over the class's mix.
// Heats (contest.FreeForAll with more bots than seats: the game's default
// rounds of free-for-alls of up to its seats) are planned by
// contest.Schedule itself; the sample has only duels, so a heat of s bots
// counts as s/2 of the round robin's mean games (every bot answering each
// turn, for as many turns as a duel): an estimate, a heat is not sampled.
func largeField(format contest.Format, f field, rr projection) (games int, wall time.Duration, how string) {
	switch format {
	case contest.Swiss:
		r := contest.SwissRounds(f.n)
		games = r * (f.n / 2) * f.perPair
		if rr.games == 0 {
			return games, 0, ""
		}
		return games, time.Duration(float64(rr.wall) * float64(games) / float64(rr.games)),
			fmt.Sprintf("%d swiss rounds of %d pairings × %d games", r, f.n/2, f.perPair)
	case contest.FreeForAll:
		if f.maxSeats <= 2 || f.n <= f.maxSeats {
			return 0, 0, ""
		}
		plan, err := contest.Schedule(classEntries(f.n), f.rounds, 1, contest.FreeForAll, f.minSeats, f.maxSeats)
		if err != nil || len(plan) == 0 {
			return 0, 0, ""
		}
		seats, most := 0, 0
		for _, g := range plan {
			seats += len(g.Seats)
			most = max(most, len(g.Seats))
		}
		games = len(plan)
		if rr.games == 0 {
			return games, 0, ""
		}
		return games, time.Duration(float64(rr.wall) * float64(seats) / 2 / float64(rr.games)),
			fmt.Sprintf("%d rounds of %d heats of up to %d bots (at most %d seats a game, seats rotated), each heat of s bots counted as s/2 of the round robin's mean games: heats are not sampled", f.rounds, games/f.rounds, most, f.maxSeats)
	}
	return 0, 0, ""
}

// classEntries are n bots of distinct names, enough for contest.Schedule
// to plan a class's games (it reads nothing else of them).
func classEntries(n int) []contest.Entry {
	out := make([]contest.Entry, n)
	for i := range out {
		out[i] = contest.Entry{Name: fmt.Sprintf("bot%d", i), SHA256: fmt.Sprintf("%064x", i)}
	}
	return out
}

// formatWords names a format for large fields in a row.
func formatWords(f contest.Format) string {
	if f == contest.FreeForAll {
		return "heats"
	}
	return string(f)
}

// chooseField is the index of the shortest projected time in minutes, -1
// when none was projected (all NaN).
func chooseField(walls []float64) int {
	best := -1
	for i, w := range walls {
		if !math.IsNaN(w) && (best < 0 || w < walls[best]) {
			best = i
		}
	}
	return best
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

// classGame is one game's class: its example types, what a tournament of
// its class plays, and the sample measured on both runners.
type classGame struct {
	rules   games.Rules
	types   []*classType
	n       int // bots in the class
	rounds  int // the game's default rounds
	perPair int // games a pair plays in the round robin
	// means count a game stopped at the cap at its extrapolation, an upper
	// bound; floor counts it as if it ended there, a lower one.
	means, floor [2][]pairMean
	parallel     [2]float64
	capped       [2][]string
	faults       [2]int
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
	types, err := b.classTypes(ctx, rules, entries)
	if err != nil {
		return err
	}
	rounds := games.DefaultRounds(rules)
	cg := &classGame{rules: rules, types: types, n: b.sz.ClassBots, rounds: rounds, perPair: 2 * rounds}
	for side := range b.sides {
		if err := b.measureClass(ctx, cg, side); err != nil {
			return err
		}
	}
	all := cg.indexes(func(*classType) bool { return true })
	python := cg.indexes(func(t *classType) bool { return t.lang == "Python" })
	b.classRows(cg, "shipped mix", all)
	if len(python) == 0 {
		b.note("%s: no Python example bot, no all-Python class", rules.Name())
	} else {
		b.classRows(cg, "all Python", python)
	}
	b.examplesRow(cg, all)
	for side := range b.sides {
		b.classNotes(cg, side)
	}
	return nil
}

// classTypes stages each example bot and builds it on both runners.
func (b *bencher) classTypes(ctx context.Context, rules games.Rules, entries []contest.Entry) ([]*classType, error) {
	types := make([]*classType, len(entries))
	stage := filepath.Join(b.work, "class", "_bots")
	for i, e := range entries {
		t := &classType{entry: e, lang: languageOf(e)}
		seat, err := contest.Pipeline{Rules: rules, StageRoot: stage}.Staged(e)
		if err != nil {
			return nil, err
		}
		for side := range b.sides {
			if err := b.buildType(ctx, t, side, seat); err != nil {
				return nil, err
			}
		}
		types[i] = t
	}
	return types, nil
}

// buildType builds seat on side's runner: t's seat there, or why not.
func (b *bencher) buildType(ctx context.Context, t *classType, side int, seat contest.Seat) error {
	seat, err := contest.Pipeline{Run: b.sides[side].Runner}.Built(ctx, seat)
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
	return nil
}

// measureClass plays the sample of cg's pairings on side and keeps its
// means, parallelism, stopped games and faults.
func (b *bencher) measureClass(ctx context.Context, cg *classGame, side int) error {
	m := len(cg.types)
	b.progress("class of %d, %s: sampling %d pairings of %d example bots, %s", cg.n, cg.rules.Name(), m*(m+1)/2, m, sideNames[side])
	sample, par, err := b.sampleClass(ctx, side, cg.rules, cg.types)
	if err != nil {
		return err
	}
	cg.parallel[side] = par
	cg.means[side], cg.floor[side] = make([]pairMean, len(sample)), make([]pairMean, len(sample))
	for k, gs := range sample {
		cg.means[side][k], cg.floor[side][k] = meanOf(cg.rules, gs, false), meanOf(cg.rules, gs, true)
		for _, g := range gs {
			cg.faults[side] += g.faults
			if _, how := extrapolate(cg.rules, g); g.capped {
				cg.capped[side] = append(cg.capped[side], pairName(cg.types, k)+": "+how)
			}
		}
	}
	return nil
}

// indexes are the types that keep says.
func (cg *classGame) indexes(keep func(*classType) bool) []int {
	var out []int
	for i, t := range cg.types {
		if keep(t) {
			out = append(out, i)
		}
	}
	return out
}

// subMeans are the means of the pairings among the types idx of m, numbered
// as pairings of len(idx) types.
func subMeans(means []pairMean, m int, idx []int) []pairMean {
	out := make([]pairMean, len(idx)*(len(idx)+1)/2)
	for i, a := range idx {
		for j := i; j < len(idx); j++ {
			out[pairIndex(len(idx), i, j)] = means[pairIndex(m, a, idx[j])]
		}
	}
	return out
}

// projectSides projects the round robin of counts[i] copies of each type
// idx[i] on both runners: p with the games stopped at the cap counted as
// if they ended there (a lower bound), high with them extrapolated, and
// stopped the words that mark a lower bound ("" when no game was stopped).
func (b *bencher) projectSides(cg *classGame, counts, idx []int) (p, high [2]projection, stopped string) {
	m := len(cg.types)
	for side := range b.sides {
		p[side] = project(counts, subMeans(cg.floor[side], m, idx), cg.perPair, cg.parallel[side])
		high[side] = project(counts, subMeans(cg.means[side], m, idx), cg.perPair, cg.parallel[side])
		if high[side].work > p[side].work {
			stopped = atLeastWords
		}
	}
	return p, high, stopped
}

// classRows adds the rows of a class of cg.n copies of the types idx: its
// round robin and, for a game of more than two seats, its formats for
// large fields. The rows show the lower bound, which is the projection
// itself when no game was stopped: a class that misses its target even so
// misses it for sure.
func (b *bencher) classRows(cg *classGame, what string, idx []int) {
	p, high, stopped := b.projectSides(cg, classCounts(cg.n, len(idx)), idx)
	_, most := cg.rules.Seats()
	row := Row{Measure: fmt.Sprintf("class of %d, %s, %s (%s): round robin, %d rounds, %d games, projected%s", cg.n, cg.rules.Name(), what, langs(cg.types, idx), cg.rounds, p[0].games, stopped),
		Unit: "min", Sandboxed: nanIf(p[0], p[0].wall), Plain: nanIf(p[1], p[1].wall), Compare: "ratio"}
	if what == "all Python" && most <= 2 {
		row.Target, row.Met = fmt.Sprintf("≤ %v min", lessonRoundRobin.Minutes()), atMost(row.Sandboxed, lessonRoundRobin.Minutes())
	}
	b.add(row)
	b.note("%s, %s: %s", cg.rules.Name(), what, dominant(cg.types, idx, p[0], high[0]))
	if most > 2 {
		b.largeFieldRows(cg, what, p, stopped)
	}
}

// largeFieldRows adds a class's rows for swiss and heats and says which of
// them the class would play: the shorter on the sandboxed runner, which
// bears the target of the all-Python class.
func (b *bencher) largeFieldRows(cg *classGame, what string, p [2]projection, stopped string) {
	lo, most := cg.rules.Seats()
	f := field{n: cg.n, rounds: cg.rounds, perPair: cg.perPair, minSeats: lo, maxSeats: most}
	var rows []Row
	var names, hows []string
	var walls []float64
	for _, format := range []contest.Format{contest.Swiss, contest.FreeForAll} {
		ng, wall, how := largeField(format, f, p[0])
		_, plain, _ := largeField(format, f, p[1])
		if how == "" {
			continue
		}
		rows = append(rows, Row{Measure: fmt.Sprintf("class of %d, %s, %s: %s, %d games, projected%s", cg.n, cg.rules.Name(), what, formatWords(format), ng, stopped),
			Unit: "min", Sandboxed: nanIf(p[0], wall), Plain: nanIf(p[1], plain), Compare: "ratio"})
		names, walls = append(names, formatWords(format)), append(walls, nanIf(p[0], wall))
		hows = append(hows, formatWords(format)+": "+how)
	}
	chosen := chooseField(walls)
	for i := range rows {
		if i == chosen && what == "all Python" {
			rows[i].Target, rows[i].Met = fmt.Sprintf("≤ %v min", lessonLargeField.Minutes()), atMost(rows[i].Sandboxed, lessonLargeField.Minutes())
		}
		b.add(rows[i])
	}
	if what == "all Python" && len(hows) > 0 {
		b.note("%s large fields, each at the round robin's mean game: %s", cg.rules.Name(), strings.Join(hows, "; "))
	}
	b.note("%s, %s, large field: %s", cg.rules.Name(), what, choiceWords(names, walls, chosen))
}

// choiceWords says which of the formats names a class chose and its
// projected time in minutes, beside the others'.
func choiceWords(names []string, walls []float64, chosen int) string {
	if chosen < 0 {
		return "not projected on the sandboxed runner"
	}
	var others []string
	for i, name := range names {
		if i != chosen {
			others = append(others, fmt.Sprintf("%s %.1f min", name, walls[i]))
		}
	}
	words := fmt.Sprintf("%s chosen, projected %.1f min sandboxed", names[chosen], walls[chosen])
	if len(others) > 0 {
		words += " (" + strings.Join(others, ", ") + ")"
	}
	return words
}

// examplesRow adds the examples' own round robin, one copy each, which is
// what `make run` plays: where the time of a first run goes, from the same
// sample.
func (b *bencher) examplesRow(cg *classGame, all []int) {
	m := len(cg.types)
	p, high, stopped := b.projectSides(cg, classCounts(m, m), all)
	b.add(Row{Measure: fmt.Sprintf("%s, its examples alone (as make run plays them): %d bots, %d games, projected%s", cg.rules.Name(), m, p[0].games, stopped),
		Unit: "min", Sandboxed: nanIf(p[0], p[0].wall), Plain: nanIf(p[1], p[1].wall), Compare: "ratio"})
	b.note("%s, its examples alone: %s", cg.rules.Name(), dominant(cg.types, all, p[0], high[0]))
}

// classNotes says what side's sample could not measure, extrapolated or
// saw fail, and its parallelism.
func (b *bencher) classNotes(cg *classGame, side int) {
	name := cg.rules.Name()
	var cannot []string
	for _, t := range cg.types {
		if t.why[side] != "" {
			cannot = append(cannot, fmt.Sprintf("%s (%s): %s", t.entry.Name, t.lang, t.why[side]))
		}
	}
	if len(cannot) > 0 {
		b.note("%s, %s: not measured, %s: its classes with them show —", name, sideNames[side], strings.Join(cannot, "; "))
	}
	if len(cg.capped[side]) > 0 {
		b.note("%s, %s: extrapolated: %s", name, sideNames[side], strings.Join(cg.capped[side], "; "))
	}
	if cg.faults[side] > 0 {
		b.note("%s, %s: %d faults (timeouts, crashes...) in the sample: its games are shorter than the bots' real ones", name, sideNames[side], cg.faults[side])
	}
	b.note("%s, %s: sample's parallelism ×%.2f", name, sideNames[side], cg.parallel[side])
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

// classJob is the g-th sample game of the pairing k of types a and b.
type classJob struct{ k, a, b, g int }

// classJobs are the sample's games on side: ClassGames a pairing of types
// that side can run.
func (b *bencher) classJobs(side int, types []*classType) []classJob {
	m := len(types)
	var jobs []classJob
	for a := range m {
		for bb := a; bb < m; bb++ {
			if types[a].seats[side] == nil || types[bb].seats[side] == nil {
				continue
			}
			for g := range max(1, b.sz.ClassGames) {
				jobs = append(jobs, classJob{pairIndex(m, a, bb), a, bb, g})
			}
		}
	}
	return jobs
}

// sampleClass plays every pairing of types that side can run, ClassGames
// games each with seats alternated, as a tournament plays games: Workers
// at once. It returns each pairing's games and the sample's parallelism:
// the sum of its games' times over its wall time.
func (b *bencher) sampleClass(ctx context.Context, side int, rules games.Rules, types []*classType) ([][]sampleGame, float64, error) {
	m := len(types)
	jobs := b.classJobs(side, types)
	out := make([][]sampleGame, m*(m+1)/2)
	var mu sync.Mutex
	var firstErr error
	var sum time.Duration
	began := time.Now()
	onWorkers(b.gameWorkers(), jobs, func(j classJob) {
		// Seats alternate over a pairing's games and, with one game
		// a pairing, over pairings: no type always moves first.
		g, err := b.sampleGame(ctx, side, rules, types, j.a, j.b, j.g, (j.k+j.g)%2 == 1)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("class of %s, %s: %w", rules.Name(), sideNames[side], err)
		}
		out[j.k] = append(out[j.k], g)
		sum += g.wall
	})
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

// classPipeline plays the class's sample games on side's runner as the
// class's tournament would play them: it gives up on a bot after the same
// timeouts.
func (b *bencher) classPipeline(side int, rules games.Rules) contest.Pipeline {
	return contest.Pipeline{Run: b.sides[side].Runner, Rules: rules, Limits: sandbox.DefaultLimits(), Policy: contest.Policy{GiveUp: b.cfg.GiveUp}}
}

// classGame is the g-th sample game of seats.
func (b *bencher) classGame(seats []contest.Seat, g int) contest.Fixture {
	return contest.Fixture{Seed: contest.GameSeed(1, fmt.Sprintf("class/%s/%s/%d", seats[0].Name, seats[1].Name, g)), Seats: seats, MaxSteps: b.sz.ClassSteps}
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
	began := time.Now()
	_, p, err := b.classPipeline(side, rules).Play(ctx, b.classGame(seats, g), nil)
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
