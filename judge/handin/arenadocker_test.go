package handin

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"botjudge/games"
	"botjudge/judge/arena"
	"botjudge/judge/bench"
	"botjudge/judge/contest"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

var (
	arenaDocker = flag.Bool("arena.docker", false, "measure issue 35's arena target on real Docker: 12 students hand in tic-tac-toe bots within a minute while judge run plays virus beside (about 35 minutes)")
	arenaChecks = flag.Int("arena.checks", 0, "with -arena.docker: hand-ins checked at once (0: judge serve's default, --checks)")
)

const (
	// classSize students hand in, one every handInGap: all within a minute.
	classSize = 12
	handInGap = 5 * time.Second
	// placement is the games a new version plays first (arena.Matchmaker's
	// default): a version that played them is on the ladder for real.
	placement = 6
	// placedTarget is issue 35's: the last student placed within it.
	placedTarget = 10 * time.Minute
	// watchLimit ends the watch of a class that is never all placed, so
	// that the figures of one that missed the target still come.
	watchLimit = 40 * time.Minute
	arenaGame  = "tictactoe"
	runGame    = "virus"
	// runRounds makes the run beside last about as long as the placements
	// (minutes): the virus examples' one round takes seconds. Battleships'
	// examples, a judge run of 280 games, played 23 of them in the first
	// 20 minutes beside the arena on a loaded 2-core machine.
	runRounds = 30
)

// studentBots are the examples the students' versions are made from, in
// turn: the shipped mix of languages (the served bot aside, a folder).
var studentBots = []string{"blocker.js", "lines.php", "minimax.py", "random_cell.py"}

// TestArenaBesideRunDocker measures issue 35's second target on real
// Docker: 12 students hand in their tic-tac-toe bots through the hand-in
// pages within a minute, with the arena on as `judge serve --hand-in
// --arena` wires it, while a `judge run --rounds 30` of the virus examples
// plays beside on its own database and runner; every student's version must be
// placed within 10 minutes of the first hand-in, and the run must play the
// same games as the same run alone, played afterwards.
func TestArenaBesideRunDocker(t *testing.T) {
	if !*arenaDocker {
		t.Skip("a measurement of about 35 minutes on real Docker: run with -arena.docker")
	}
	t.Logf("load average at start: %s", loadAverage())
	ctx := context.Background()
	runDocker := sandboxtest.Docker(t)
	image, err := runDocker.EnsureImage(ctx, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	c, timed, stopServe := servedClass(t, image)
	besideDir, aloneDir := t.TempDir(), t.TempDir()
	var beside bench.Played
	var besideErr error
	ran := make(chan struct{})
	go func() { beside, besideErr = judgeRun(ctx, runDocker, image, besideDir); close(ran) }()
	w := &watch{c: c, t0: time.Now(), ran: ran}
	w.follow()
	<-ran
	stopServe()
	if besideErr != nil {
		t.Fatalf("judge run beside the arena: %v", besideErr)
	}
	alone, err := judgeRun(ctx, runDocker, image, aloneDir)
	if err != nil {
		t.Fatalf("judge run alone: %v", err)
	}
	differ := alone.Differ(beside)
	for _, k := range differ[:min(len(differ), 3)] {
		t.Errorf("%s: alone\n%s\nbeside the arena\n%s", k, alone.Games[k], beside.Games[k])
	}
	w.report(t, timed, beside, alone, len(differ))
	t.Logf("load average at end: %s", loadAverage())
}

// servedClass is a class of classSize students with hand-in and the arena
// on for tic-tac-toe as cmd_serve wires them: the checks, sparring and
// arena games on one pool of a Docker of their own, at the background
// weight, with the default limits and policy, --checks' default (or
// -arena.checks) and --arena-parallel's, the arena holding its games while
// a version waits for its check and keeping its containers between them, and the
// shipped examples in the game's folder. The arena's games are timed. stop
// ends the arena and the checks.
func servedClass(t *testing.T, image string) (c *class, timed *timedPlayer, stop func()) {
	pool := sandbox.NewPool(sandboxtest.Docker(t), 0)
	t.Cleanup(func() { pool.Drain(context.Background()) })
	def := contest.DefaultConfig()
	background := def.Limits
	background.Background = true
	sc := &SandboxChecker{Run: pool, Limits: background, Policy: def.Policy, Image: image, KeepIdle: true}
	names := make([]string, classSize)
	for k := range names {
		names[k] = fmt.Sprintf("student%02d", k+1)
	}
	checks := DefaultWorkers()
	if *arenaChecks > 0 {
		checks = *arenaChecks
	}
	c = newClass(t, Options{Checker: sc, Games: []string{arenaGame}, Workers: checks}, names...)
	t.Logf("%d hand-ins checked at once, 1 arena game at once", checks)
	sc.StageRoot = contest.StageRootOf(filepath.Join(filepath.Dir(c.subs), "judge.db"))
	dir := filepath.Join(c.subs, arenaGame)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "submissions", arenaGame))); err != nil {
		t.Fatal(err)
	}
	p := &ArenaPlayer{Checker: sc}
	timed = &timedPlayer{Player: p}
	loop := &arena.Loop{Source: p, Player: timed, Games: []string{arenaGame}, Parallel: 1, Log: log.New(testLog{t}, "", 0), Hold: c.srv.ChecksWait}
	ctx, cancel := context.WithCancel(context.Background())
	played := make(chan struct{})
	go func() { loop.Run(ctx); close(played) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-played
			c.stop()
			pool.Drain(context.Background())
		})
	}
	t.Cleanup(stop)
	return c, timed, stop
}

// judgeRun is `judge run --rounds 30 virus` as cmd_run wires it, on a
// copy of the shipped examples in work: a database of its own, a pool of
// its own on d, the default configuration. It records every game it plays.
func judgeRun(ctx context.Context, d *sandbox.Docker, image, work string) (bench.Played, error) {
	p := bench.Played{Games: map[string]string{}}
	subs := filepath.Join(work, "submissions", runGame)
	if err := os.CopyFS(subs, os.DirFS(filepath.Join("..", "..", "submissions", runGame))); err != nil {
		return p, err
	}
	path := filepath.Join(work, "results", "judge.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return p, err
	}
	db, err := results.Open(path)
	if err != nil {
		return p, err
	}
	defer db.Close()
	pool := sandbox.NewPool(d, 0)
	defer pool.Drain(context.WithoutCancel(ctx))
	rules, _ := games.Lookup(runGame)
	cfg := contest.DefaultConfig().ForGame(rules, subs)
	cfg.StageRoot, cfg.Image, cfg.Rounds = contest.StageRootOf(path), image, runRounds
	began := time.Now()
	err = bench.Record(ctx, pool, db, cfg, &p)
	p.Wall = time.Since(began)
	return p, err
}

// timedPlayer notes when each arena game began and ended: where the
// arena's time went.
type timedPlayer struct {
	arena.Player
	mu    sync.Mutex
	spans [][2]time.Time
}

func (p *timedPlayer) Play(ctx context.Context, game string, g arena.Game) error {
	began := time.Now()
	err := p.Player.Play(ctx, game, g)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spans = append(p.spans, [2]time.Time{began, time.Now()})
	return err
}

// testLog writes the arena loop's failures in the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

// student is one student's version as the watch saw it go: each time is
// when it was first seen, zero until then.
type student struct {
	name, bot                                          string
	handedIn, checking, sparring, done, joined, placed time.Time
	ready                                              bool
	why                                                string // not READY
}

// watch hands the class's versions in, one every handInGap from t0, and
// follows them through their checks onto the ladder until every one is
// settled and the run beside has ended (ran closed), or watchLimit.
type watch struct {
	c        *class
	t0       time.Time
	ran      chan struct{}
	students [classSize]student
	runEnd   time.Time
}

func (w *watch) follow() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for next := 0; ; {
		for ; next < classSize && time.Since(w.t0) >= time.Duration(next)*handInGap; next++ {
			w.handIn(next)
		}
		w.observe()
		select {
		case <-w.ran:
			if w.runEnd.IsZero() {
				w.runEnd = time.Now()
			}
		default:
		}
		if (w.settled() && !w.runEnd.IsZero()) || time.Since(w.t0) > watchLimit {
			return
		}
		<-tick.C
	}
}

// handIn logs student k in and hands in their version: an example of the
// game's folder, in turn, with a line of their own at its end.
func (w *watch) handIn(k int) {
	t := w.c.t
	t.Helper()
	example := studentBots[k%len(studentBots)]
	src, err := os.ReadFile(filepath.Join("..", "..", "submissions", arenaGame, example))
	if err != nil {
		t.Fatal(err)
	}
	mark := "//"
	if strings.HasSuffix(example, ".py") {
		mark = "#"
	}
	s := &w.students[k]
	s.name, s.bot = fmt.Sprintf("student%02d", k+1), example
	w.c.student(s.name).location(arenaGame, "my"+filepath.Ext(example), fmt.Appendf(src, "\n%s %s's version\n", mark, s.name))
	s.handedIn = time.Now()
}

// observe notes where each version stands: its check's steps, then its
// place on the ladder and its arena games.
func (w *watch) observe() {
	now := time.Now()
	seen := func(at *time.Time) {
		if at.IsZero() {
			*at = now
		}
	}
	for k := range w.students {
		s := &w.students[k]
		if s.handedIn.IsZero() {
			continue
		}
		vs := w.c.versions(s.name, arenaGame)
		switch vs[0].Status {
		case results.StatusDone, results.StatusFailed:
			seen(&s.done)
			rep, _ := ReadReport(vs[0])
			s.ready, s.why = rep.Ready && vs[0].Status == results.StatusDone, fmt.Sprintf("%s %s %s %s", vs[0].Status, rep.Verdict, rep.Detail, rep.Error)
			fallthrough
		case results.StatusPlaying:
			seen(&s.sparring)
			fallthrough
		case results.StatusChecking:
			seen(&s.checking)
		}
	}
	a, err := w.c.db.Arena(context.Background(), arenaGame)
	if err != nil {
		w.c.t.Fatal(err)
	}
	played := map[int64]int{}
	for _, g := range a.Games {
		for _, seat := range g.Seats {
			played[seat.BotID]++
		}
	}
	for _, b := range a.Bots {
		if k := slices.IndexFunc(w.students[:], func(s student) bool { return s.name == b.Name }); k >= 0 && !b.Example {
			seen(&w.students[k].joined)
			if played[b.BotID] >= placement {
				seen(&w.students[k].placed)
			}
		}
	}
}

// settled: every version is placed, or was checked not READY and never
// will be.
func (w *watch) settled() bool {
	return !slices.ContainsFunc(w.students[:], func(s student) bool { return s.placed.IsZero() && (s.done.IsZero() || s.ready) })
}

// report logs the figures: each student's way onto the ladder, the last
// placement against the target, where the arena's time went, and the run
// beside against the run alone.
func (w *watch) report(t *testing.T, timed *timedPlayer, beside, alone bench.Played, differ int) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "student\tbot\thanded in\tcheck began\tsparring began\tready\tjoined\tplaced\tplaced after own hand-in\t")
	last := time.Duration(0)
	for _, s := range w.students {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.name, s.bot, w.at(s.handedIn), w.at(s.checking), w.at(s.sparring),
			w.at(s.done), w.at(s.joined), w.at(s.placed), clock(s.placed, s.handedIn))
		if !s.ready && !s.done.IsZero() {
			t.Errorf("%s's version is not READY: %s", s.name, s.why)
		}
		last = max(last, s.placed.Sub(w.t0))
		if s.placed.IsZero() {
			last = watchLimit
		}
	}
	tw.Flush()
	t.Logf("times since the first hand-in (m:ss):\n%s", b.String())
	met := "met"
	if last > placedTarget {
		met = "MISSED"
		t.Errorf("the last student was placed %s after the first hand-in, want at most %s", last.Round(time.Second), placedTarget)
	}
	t.Logf("last placed: %s after the first hand-in (target %s: %s)", last.Round(time.Second), placedTarget, met)
	w.checkFigures(t)
	w.arenaFigures(t, timed, w.t0.Add(last))
	t.Logf("judge run %s: %d games beside the arena in %s (%d retried), alone in %s (%d retried): ×%.2f; the run beside ended %s after the first hand-in",
		runGame, len(beside.Games), beside.Wall.Round(time.Second), beside.Retried, alone.Wall.Round(time.Second), alone.Retried,
		beside.Wall.Seconds()/alone.Wall.Seconds(), w.at(w.runEnd))
	t.Logf("games compared by key (moves, answers, verdicts, outcome): %d alone, %d beside, %d differ", len(alone.Games), len(beside.Games), differ)
}

// checkFigures logs where the checks' time went, on average over the
// versions: waiting in the queue, the check itself (judge check's: the
// first answer and a game against itself), the sparring games; and from
// READY to placed.
func (w *watch) checkFigures(t *testing.T) {
	var wait, check, spar, place time.Duration
	n := 0
	for _, s := range w.students {
		if s.placed.IsZero() || s.joined.IsZero() {
			continue
		}
		n++
		wait += s.checking.Sub(s.handedIn)
		check += s.sparring.Sub(s.checking)
		spar += s.done.Sub(s.sparring)
		place += s.placed.Sub(s.joined)
	}
	if n == 0 {
		return
	}
	mean := func(d time.Duration) time.Duration { return (d / time.Duration(n)).Round(time.Second) }
	t.Logf("per version placed, on average: %s queued, %s in the check, %s sparring, %s from joining the ladder to placed",
		mean(wait), mean(check), mean(spar), mean(place))
}

// arenaFigures logs where the arena's time went up to the last placement
// (until): its games, how long they took, and how busy its one slot was
// from its first game.
func (w *watch) arenaFigures(t *testing.T, timed *timedPlayer, until time.Time) {
	timed.mu.Lock()
	defer timed.mu.Unlock()
	var n int
	var busy, longest time.Duration
	first := time.Time{}
	for _, sp := range timed.spans {
		if sp[1].After(until) {
			continue
		}
		if first.IsZero() || sp[0].Before(first) {
			first = sp[0]
		}
		n++
		busy += sp[1].Sub(sp[0])
		longest = max(longest, sp[1].Sub(sp[0]))
	}
	if n == 0 {
		t.Logf("arena: no game ended by the last placement (%d in all)", len(timed.spans))
		return
	}
	t.Logf("arena, up to the last placement: %d games (%d in all), %s each on average, the longest %s; the first began %s after the first hand-in; its slot busy %.0f %% from then",
		n, len(timed.spans), (busy / time.Duration(n)).Round(10*time.Millisecond), longest.Round(10*time.Millisecond),
		w.at(first), 100*busy.Seconds()/until.Sub(first).Seconds())
}

// at is a time since the first hand-in, m:ss; "-" when it never came.
func (w *watch) at(when time.Time) string { return clock(when, w.t0) }

func clock(when, from time.Time) string {
	if when.IsZero() {
		return "-"
	}
	d := when.Sub(from).Round(time.Second)
	return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

// loadAverage is the machine's load averages over 1, 5 and 15 minutes.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown: " + err.Error()
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
