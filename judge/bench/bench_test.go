package bench

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/judge/contest"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// tiny keeps every measure but makes each one a few samples.
func tiny() Sizes {
	return Sizes{
		Asks: 20, Requests: 3, Games: 2,
		TrivialBots: 3, ThinkingBots: 2, Think: 5 * time.Millisecond, Repeats: 1,
		SleepingBots: 2, Sleep: time.Millisecond,
		MemoryBots: 4, MemoryGames: 3,
		FreeForAllBots: 3, FreeForAllLife: 6,
		FairMoves: 10, StandingsGames: 300, Workers: 2,
		ClassBots: 4, ClassGames: 1, ClassSteps: 6,
	}
}

// rows are the measures every run reports, by the beginning of their names.
var rows = []string{
	"ia bot move round trip, median", "ia bot move round trip, p99",
	"program request (python3 process), median", "program request (python3 process), p99",
	"game fixed cost: both bots ready", "game fixed cost: both bots removed",
	"trivial tournament (6 games), games/min",
	"trivial tournament, CPU per game: judge", "trivial tournament, CPU per game: bots", "trivial tournament, CPU per game: rest",
	"thinking tournament (2 games, 5ms/move), wall", "thinking tournament, judge CPU / (judge + bots)",
	"thinking tournament, CPU: judge", "thinking tournament, CPU: bots", "thinking tournament, CPU: rest",
	"sleeping tournament (2 games, 1ms sleep/move), games/min", "same, each game started, played, removed in turn",
	"gain of starting and removing behind other games",
	"fixed-work move (10 moves), charged p99 alone", "same, charged p99 during a trivial tournament", "same, charged p99 busy / p99 alone",
	"floor: the same work in a bare python3 on the host", "same, wall p99 alone", "same, wall p99 during the tournament", "same, wall p99 busy / p99 alone",
	"fixed-work bot's charged median against a pondering bot / a calm one, 1 game", "same, wall median, 1 game",
	"fixed-work bot's charged median against a pondering bot / a calm one, 2 games at once", "same, wall median, 2 games at once",
	// Its bots turn back into themselves once 6 cells long: the 6th turn
	// after the one of the init message.
	"free-for-all of 3 bots (7 turns), wall", "free-for-all, judge CPU per turn",
	"judge peak memory, 4-bot tournament", "standings of a 300-game database",
	// The class of the examples in classes: tic-tac-toe's two, in their
	// mix and in Python; Tron's, in round robin and swiss.
	"class of 4, tictactoe, shipped mix (2 examples: Node.js, Python): round robin, 1 rounds, 12 games",
	"class of 4, tictactoe, all Python (1 example: Python): round robin, 1 rounds, 12 games",
	"tictactoe, its examples alone (as make run plays them): 2 bots, 2 games",
	"class of 4, tron, shipped mix (2 examples: Node.js, Python): round robin, 2 rounds, 24 games",
	"class of 4, tron, shipped mix: swiss, 24 games",
	"class of 4, tron, all Python (1 example: Python): round robin, 2 rounds, 24 games",
	"class of 4, tron, all Python: swiss, 24 games",
	"tron, its examples alone (as make run plays them): 2 bots, 4 games",
}

// classes are a few of the example bots of two games, whose classes of
// tiny().ClassBots bots every run projects.
var classes = []string{"tictactoe/blocker.js", "tictactoe/random_cell.py", "tron/straight.js", "tron/wanderer.py"}

// examples is a submissions folder of the named example bots
// (<game>/<file>), copied from the project's own.
func examples(t *testing.T, bots ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, b := range bots {
		src, err := os.ReadFile(filepath.Join("..", "..", "submissions", filepath.FromSlash(b)))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(b))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkReport makes sure every measure is there with a plausible figure.
func checkReport(t *testing.T, rep Report) {
	t.Helper()
	for _, name := range rows {
		row, ok := rep.Row(name)
		if !ok {
			t.Errorf("no row %q", name)
			continue
		}
		for side, x := range []float64{row.Sandboxed, row.Plain} {
			if math.IsNaN(x) || math.IsInf(x, 0) || (x < 0 && !strings.Contains(name, "rest")) || (x == 0 && !strings.Contains(name, "rest")) {
				t.Errorf("%s, %s: %v", name, sideNames[side], x)
			}
		}
		if row.Target != "" && row.Met == nil {
			t.Errorf("%s has a target and no verdict", name)
		}
	}
	if len(rep.Rows) != len(rows) {
		t.Errorf("%d rows, want %d", len(rep.Rows), len(rows))
	}
	// The figures must measure what they say: a move of a bot that answers
	// at once is far below the thinking time, and the thinking bots spent
	// at least think per move, over more than 20 moves a game.
	if row, _ := rep.Row("ia bot move round trip, median"); row.Plain > 50 {
		t.Errorf("a trivial move took %v ms", row.Plain)
	}
	if row, _ := rep.Row("thinking tournament, CPU: bots"); row.Plain < 2*20*0.005 {
		t.Errorf("thinking bots used %v s of CPU in 2 games", row.Plain)
	}
	if row, _ := rep.Row("trivial tournament (6 games)"); row.Plain < 1 {
		t.Errorf("%v games a minute", row.Plain)
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	for _, name := range rows {
		if !strings.Contains(out.String(), name) {
			t.Errorf("the table lacks %q:\n%s", name, out.String())
		}
	}
	t.Logf("\n%s", out.String())
}

// TestRunLocal is the bench of a machine without Docker. Where there is an
// engine TestRunDocker runs the same measures, its plain side on this
// test's runner, and this one would only double the package's minutes.
func TestRunLocal(t *testing.T) {
	if d, err := sandbox.NewDocker(context.Background(), sandbox.Options{}); err == nil {
		d.Close()
		t.Skip("TestRunDocker measures the same rows, the plain side with this runner")
	}
	local := Side{Runner: sandbox.NewLocal(), Bots: ChildrenCPU()}
	rep, err := Run(context.Background(), Config{Sandboxed: local, Plain: local, Sizes: tiny(), Work: t.TempDir(), Submissions: examples(t, classes...)})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep)
}

// TestRunDocker measures the judge's own runner, the pool of reused
// containers, which leaves none once drained.
func TestRunDocker(t *testing.T) {
	p := sandboxtest.Pool(t).Pool
	containers, err := ContainersCPU()
	if err != nil {
		t.Logf("%v: estimating", err)
		containers = MachineMinusJudge()
	}
	rep, err := Run(context.Background(), Config{
		Sandboxed: Side{Runner: p, Bots: containers},
		Plain:     Side{Runner: sandbox.NewLocal(), Bots: ChildrenCPU()},
		Sizes:     tiny(), Work: t.TempDir(), Submissions: examples(t, classes...),
	})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep)
}

// TestBotFault makes a misbehaving benchmark bot an error rather than a
// figure measured on faults.
func TestBotFault(t *testing.T) {
	b := &bencher{sz: tiny(), work: t.TempDir(), log: os.Stderr}
	local := Side{Runner: sandbox.NewLocal(), Bots: ChildrenCPU()}
	b.sides = [2]Side{local, local}
	bot, err := loadBot("first_cell.py")
	if err != nil {
		t.Fatal(err)
	}
	bot.source = "def ia(game, side):\n    raise ValueError('no')\n"
	raiser := tourney{name: "raiser", bots: 2, bot: bot}
	if _, err := b.play(context.Background(), 1, raiser, 0); err == nil || !strings.Contains(err.Error(), "misbehaved") {
		t.Errorf("a raising bot gave %v", err)
	}
}

func TestPrint(t *testing.T) {
	yes, no := true, false
	rep := Report{
		Rows: []Row{
			{Measure: "round trip", Unit: "ms", Sandboxed: 0.21, Plain: 0.1, Compare: "diff", Target: "≤ +1 ms", Met: &yes},
			{Measure: "games", Unit: "/min", Sandboxed: 240, Plain: 930, Compare: "ratio", Target: "≥ ×0.5", Met: &no},
			{Measure: "removal", Unit: "ms", Sandboxed: 12.5, Plain: 30, Compare: "diff"},
			{Measure: "not measured", Unit: "s", Sandboxed: math.NaN(), Plain: 3.25},
		},
		Notes: []string{"a note"},
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "table.golden", out.Bytes())
}

// checkGolden compares got with testdata/name, which -update rewrites.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCounters(t *testing.T) {
	m0, err := machineCPU()
	if err != nil || m0 <= 0 {
		t.Fatalf("machine CPU %v, %v", m0, err)
	}
	j0, err := rusage(0)
	if err != nil {
		t.Fatal(err)
	}
	// Spin until the counter shows 30 ms: on a loaded machine the loop
	// gets only its share of a core, so the wall clock bounds it loosely.
	began := time.Now()
	var j1 time.Duration
	for j1 = j0; j1-j0 < 30*time.Millisecond && time.Since(began) < 5*time.Second; j1, _ = rusage(0) {
		for end := time.Now().Add(time.Millisecond); time.Now().Before(end); {
		}
	}
	if wall := time.Since(began); j1-j0 < 30*time.Millisecond || j1-j0 > wall*time.Duration(runtime.NumCPU())+10*time.Millisecond {
		t.Errorf("%v of spinning counted as %v of CPU", wall, j1-j0)
	}
	resetPeak()
	before, err := peakMemory()
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte{1}, 64<<20)
	after, _ := peakMemory()
	if after-before < 60<<20 {
		t.Errorf("peak went from %d to %d bytes after touching 64 MiB", before, after)
	}
	_ = big[len(big)-1]
}

// TestRequestTable runs the request table alone on the pool: one row per
// language, each beside a bare start of its interpreter (those the host
// lacks are said so in a note, and have no floor), and one more for each
// warm-started language, started with its request on a cold pool.
func TestRequestTable(t *testing.T) {
	p := sandboxtest.Pool(t).Pool
	d, err := sandbox.NewDocker(context.Background(), sandbox.Options{Cold: true})
	if err != nil {
		t.Fatal(err)
	}
	cold := sandbox.NewPool(d, 0)
	t.Cleanup(func() {
		if err := errors.Join(cold.Drain(context.Background()), d.RemoveVolumes(context.Background()), d.Close()); err != nil {
			t.Error(err)
		}
	})
	sz := tiny()
	sz.LangRequests = 2
	rep, err := Run(context.Background(), Config{
		Sandboxed: Side{Runner: p}, Plain: Side{Runner: sandbox.NewLocal()}, Cold: cold,
		Sizes: sz, Work: t.TempDir(), Only: []string{"requests"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := len(languages)
	for _, lang := range languages {
		if lang.warm {
			want++
		}
	}
	if len(rep.Rows) != want {
		t.Fatalf("%d rows, want %d", len(rep.Rows), want)
	}
	i := 0
	for _, lang := range languages {
		if lang.warm {
			if row := rep.Rows[i]; row.Measure != "request, "+lang.name+", started with it, median" || !(row.Sandboxed > 0) {
				t.Errorf("row %d: %+v", i, row)
			}
			i++
		}
		row := rep.Rows[i]
		i++
		if !strings.HasPrefix(row.Measure, "request, "+lang.name+", median") || math.IsNaN(row.Sandboxed) || row.Sandboxed <= 0 || row.Met == nil {
			t.Errorf("row %d: %+v", i, row)
		}
		missing := slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.HasPrefix(n, lang.name+": no bare start") })
		if math.IsNaN(row.Plain) != missing || (!missing && row.Plain <= 0) {
			t.Errorf("%s: bare start %v, notes %q", lang.name, row.Plain, rep.Notes)
		}
	}
	var out bytes.Buffer
	rep.Print(&out)
	t.Logf("\n%s", out.String())
}

// TestProject checks the class row's arithmetic on a case computed by hand:
// 5 bots of 2 types are 3 + 2 copies, so 3 pairs of the first type, 6
// mixed and 1 of the second; 2 games a pair; 2 games at once.
func TestProject(t *testing.T) {
	counts := classCounts(5, 2)
	if !slices.Equal(counts, []int{3, 2}) {
		t.Fatalf("counts %v", counts)
	}
	means := make([]pairMean, 3)
	means[pairIndex(2, 0, 0)] = pairMean{game: 10 * time.Second, ofA: 0.5, ok: true}
	means[pairIndex(2, 1, 0)] = pairMean{game: 20 * time.Second, ofA: 0.25, ok: true}
	means[pairIndex(2, 1, 1)] = pairMean{game: 40 * time.Second, ofA: 0.5, ok: true}
	p := project(counts, means, 2, 2)
	// 3×2×10 + 6×2×20 + 1×2×40 = 380 s of games, 190 s on 2 workers; the
	// first type owes 60 + 240×0.25 = 120 s of them.
	if p.games != 20 || p.work != 380*time.Second || p.wall != 190*time.Second || p.missing {
		t.Errorf("projected %+v, want 20 games, 380 s of work, 190 s", p)
	}
	if math.Abs(p.share[0]-120.0/380) > 1e-9 || math.Abs(p.share[1]-260.0/380) > 1e-9 {
		t.Errorf("shares %v, want %v and %v", p.share, 120.0/380, 260.0/380)
	}
	means[pairIndex(2, 0, 1)].ok = false
	if p := project(counts, means, 2, 2); !p.missing {
		t.Error("a pairing not measured still gave a projection")
	}
	// A class of 30 Tron bots plays 7 swiss rounds of 15 pairings, 4 games
	// each, instead of 1,740 games.
	rr := projection{games: 1740, wall: 1740 * time.Minute}
	tron := field{n: 30, rounds: 2, perPair: 4, minSeats: 2, maxSeats: 12}
	if n, wall, how := largeField(contest.Swiss, tron, rr); n != 420 || wall != 420*time.Minute || how == "" {
		t.Errorf("swiss of 30: %d games, %v (%q)", n, wall, how)
	}
	// Every pairing of 8 types has its own index, from 0 to 35.
	seen := map[int]bool{}
	for a := range 8 {
		for b := a; b < 8; b++ {
			seen[pairIndex(8, a, b)] = true
			if pairIndex(8, a, b) != pairIndex(8, b, a) || pairIndex(8, a, b) >= 36 {
				t.Errorf("pairIndex(8, %d, %d) = %d", a, b, pairIndex(8, a, b))
			}
		}
	}
	if len(seen) != 36 {
		t.Errorf("%d distinct pairings of 8 types, want 36", len(seen))
	}
}

// TestExtrapolate scales a game stopped at the cap up to the rules' bound,
// its fixed cost unscaled.
func TestExtrapolate(t *testing.T) {
	rules, _ := games.Lookup("tron") // any bounded game would do
	bound := rules.(games.Bounded).MaxRequests(2)
	g := sampleGame{wall: 3 * time.Second, play: 2 * time.Second, plies: 10, steps: 20, capped: true}
	full, how := extrapolate(rules, g)
	want := time.Second + time.Duration(float64(2*time.Second)*float64(bound)/10)
	if full != want || !strings.Contains(how, "upper bound") {
		t.Errorf("extrapolated to %v (%s), want %v", full, how, want)
	}
	g.capped = false
	if full, _ := extrapolate(rules, g); full != g.wall {
		t.Errorf("a finished game counted %v", full)
	}
}

// TestClassCannotRun: a runner that cannot run one of the examples (the
// plain one builds no compiled bot) shows — for the mix and says why, and
// still projects the all-Python class.
func TestClassCannotRun(t *testing.T) {
	local := Side{Runner: sandbox.NewLocal(), Bots: ChildrenCPU()}
	sz := Sizes{ClassBots: 4, ClassGames: 1, ClassSteps: 6, Workers: 2}
	b := &bencher{cfg: Config{Submissions: examples(t, "battleships/sweep.c", "battleships/random_shots.py")}, sz: sz, work: t.TempDir(), log: os.Stderr, sides: [2]Side{local, local}}
	if err := b.class(context.Background()); err != nil {
		t.Fatal(err)
	}
	mix, ok := b.report.Row("class of 4, battleships, shipped mix")
	if !ok || !math.IsNaN(mix.Sandboxed) || !math.IsNaN(mix.Plain) || !strings.Contains(mix.Measure, "60 games") {
		t.Errorf("mix row %+v", mix)
	}
	py, ok := b.report.Row("class of 4, battleships, all Python (1 example: Python)")
	if !ok || !(py.Sandboxed > 0) || !(py.Plain > 0) || py.Met == nil || !strings.Contains(py.Measure, "at least") {
		t.Errorf("python row %+v", py)
	}
	var out bytes.Buffer
	b.report.Print(&out)
	t.Logf("\n%s", out.String())
	if notes := strings.Join(b.report.Notes, "\n"); !strings.Contains(notes, "sweep (C): cannot build compiled bots") || !strings.Contains(notes, "extrapolated") {
		t.Errorf("notes:\n%s", notes)
	}
}

// TestHeats checks the projection of heats by hand: 30 Tron bots in
// games of at most 12 are 3 heats of 10 a round, 2 rounds, 6 games; each
// heat of 10 counts as 5 of the round robin's mean games, so 30 of them.
func TestHeats(t *testing.T) {
	rr := projection{games: 1740, wall: 1740 * time.Minute}
	tron := field{n: 30, rounds: 2, perPair: 4, minSeats: 2, maxSeats: 12}
	n, wall, how := largeField(contest.FreeForAll, tron, rr)
	if n != 6 || wall != 30*time.Minute || !strings.Contains(how, "2 rounds of 3 heats of up to 10 bots") {
		t.Errorf("heats of 30: %d games, %v (%q)", n, wall, how)
	}
	// 25 bots: 3 heats a round of 9, 8 and 8 (25 seats, 12.5 mean games).
	n, wall, how = largeField(contest.FreeForAll, field{n: 25, rounds: 1, perPair: 2, minSeats: 2, maxSeats: 12}, rr)
	if n != 3 || wall != 25*time.Minute/2 || !strings.Contains(how, "up to 9 bots") {
		t.Errorf("heats of 25: %d games, %v (%q)", n, wall, how)
	}
	// No heats for a duel-only game, nor for a field that fits one game.
	for _, f := range []field{{n: 30, rounds: 1, perPair: 2, minSeats: 2, maxSeats: 2}, {n: 12, rounds: 2, perPair: 4, minSeats: 2, maxSeats: 12}} {
		if _, _, how := largeField(contest.FreeForAll, f, rr); how != "" {
			t.Errorf("heats of %+v: %q", f, how)
		}
	}
	if got := chooseField([]float64{420, 30}); got != 1 {
		t.Errorf("chose %d of swiss 420 min and heats 30 min, want heats", got)
	}
	if got := chooseField([]float64{math.NaN(), 30, 20}); got != 2 {
		t.Errorf("chose %d, want the shortest projected", got)
	}
	if got := chooseField([]float64{math.NaN()}); got != -1 {
		t.Errorf("chose %d of nothing projected", got)
	}
	if got := choiceWords([]string{"swiss", "heats"}, []float64{420, 30}, 1); got != "heats chosen, projected 30.0 min sandboxed (swiss 420.0 min)" {
		t.Errorf("choice %q", got)
	}
}

// TestClassHeats plays a Tron class of 14 Python bots on plain processes,
// its games stopped after a few plies: beside its swiss row, the class has
// a heats row (two rounds of two heats of 7), and a note says which of the
// two it chose, with the target on the chosen one.
func TestClassHeats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays Tron games")
	}
	local := Side{Runner: sandbox.NewLocal(), Bots: ChildrenCPU()}
	sz := Sizes{ClassBots: 14, ClassGames: 1, ClassSteps: 4, Workers: 2}
	b := &bencher{cfg: Config{Submissions: examples(t, "tron/wanderer.py")}, sz: sz, work: t.TempDir(), log: os.Stderr, sides: [2]Side{local, local}}
	if err := b.class(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	b.report.Print(&out)
	t.Logf("\n%s", out.String())
	swiss, ok := b.report.Row("class of 14, tron, all Python: swiss")
	if !ok || !(swiss.Sandboxed > 0) {
		t.Errorf("swiss row %+v", swiss)
	}
	heats, ok := b.report.Row("class of 14, tron, all Python: heats, 4 games")
	if !ok || !(heats.Sandboxed > 0) || !(heats.Sandboxed < swiss.Sandboxed) || heats.Met == nil || swiss.Met != nil {
		t.Errorf("heats row %+v, swiss row %+v", heats, swiss)
	}
	if notes := strings.Join(b.report.Notes, "\n"); !strings.Contains(notes, "tron, all Python, large field: heats chosen, projected") {
		t.Errorf("notes:\n%s", notes)
	}
}

// TestClassGivesUpAsTheTournament: the class's sample games give up on a
// bot after the tournament's --give-up, not after a number of their own.
func TestClassGivesUpAsTheTournament(t *testing.T) {
	rules, _ := games.Lookup("virus")
	for _, giveUp := range []int{0, 1, 5} {
		b := &bencher{cfg: Config{GiveUp: giveUp}}
		if got := b.classPipeline(0, rules).Policy.GiveUp; got != giveUp {
			t.Errorf("with --give-up %d the class's games give up after %d timeouts", giveUp, got)
		}
	}
}

func TestMarkdown(t *testing.T) {
	yes, no := true, false
	rep := Report{
		Rows: []Row{
			{Measure: "round trip", Unit: "ms", Sandboxed: 0.21, Plain: 0.1, Compare: "diff", Target: "≤ +1 ms", Met: &yes},
			{Measure: "games | per minute", Unit: "/min", Sandboxed: 240, Plain: 930, Compare: "ratio", Target: "≥ ×0.5", Met: &no},
			{Measure: "not measured", Unit: "s", Sandboxed: math.NaN(), Plain: 3.25},
		},
		Notes: []string{"a note"},
	}
	m := Machine{When: time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC), Cores: 2, Memory: "24 GiB", Kernel: "6.1.0", StorageDriver: "overlay2", Floor: "python3 -c pass: 14 ms of CPU, 16 ms wall"}
	var out bytes.Buffer
	if err := rep.Markdown(&out, m, 90*time.Second); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "report.golden.md", out.Bytes())
}

// The request table's languages are the sandbox's: each floor names a
// language the sandbox runs, and each has its bench bot.
func TestLanguagesAreTheSandboxs(t *testing.T) {
	if len(languages) != len(floors) {
		t.Errorf("%d languages for %d floors: a floor names a language the sandbox does not run", len(languages), len(floors))
	}
	for _, l := range languages {
		if _, err := loadBot(l.file); err != nil {
			t.Errorf("%s: %v", l.name, err)
		}
	}
}
