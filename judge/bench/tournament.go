package bench

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"botjudge/judge/contest"
	"botjudge/results"
	"botjudge/sandbox"
)

// tourney is a tournament among copies of one bot, played by contest.Run as
// `judge run` plays it, with its own submissions and database.
type tourney struct {
	name string
	bots int
	bot  benchBot
	// format is Duels unless set.
	format contest.Format
	// stopAfter stops the tournament once this many games are recorded; 0
	// plays the whole round robin.
	stopAfter int
	// workers plays this many games at once; 0 is Sizes.Workers.
	workers int
}

func (t tourney) games() int {
	if t.format == contest.FreeForAll {
		return 1
	}
	return t.bots * (t.bots - 1)
}

// played is what a tournament did, measured from the first game (after the
// bots' checks) to the end of the last one.
type played struct {
	games int
	turns int // of the longest game
	spent spent
}

func (p played) perMinute() float64 { return float64(p.games) / p.spent.wall.Minutes() }

// play plays t on one runner; rep numbers the repetitions, each with its
// own folder and database.
func (b *bencher) play(ctx context.Context, side int, t tourney, rep int) (played, error) {
	rel := filepath.Join(sideNames[side], fmt.Sprintf("%s-%d", t.name, rep))
	dir := filepath.Join(b.work, rel)
	for k := range t.bots {
		name := fmt.Sprintf("bot%02d", k)
		// Each copy differs, as real bots do: its own version, its own stage.
		if _, err := b.file(filepath.Join(rel, t.bot.rules.Name(), name+".py"), t.bot.source+"\n# "+name+"\n", 0o644); err != nil {
			return played{}, err
		}
	}
	db, err := results.Open(filepath.Join(dir, "judge.db"))
	if err != nil {
		return played{}, err
	}
	defer db.Close()
	cfg := contest.Config{
		Rules: t.bot.rules, Dir: filepath.Join(dir, t.bot.rules.Name()), StageRoot: filepath.Join(dir, "_bots"),
		Rounds: 1, Format: t.format, Seed: 1, Scheme: results.SchemeDefault, Limits: sandbox.DefaultLimits(),
		Workers: cmp.Or(t.workers, b.sz.Workers), Image: "bench",
	}
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	var mu sync.Mutex
	var start usage
	turns := 0
	counter := b.sides[side].Bots
	report := func(e contest.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case e.Kind == "start":
			start = snapshot(counter)
		case e.Kind == "game" && len(e.Game.Moves) > 0:
			turns = max(turns, e.Game.Moves[len(e.Game.Moves)-1].Ply+1)
		case e.Kind == "game" && t.stopAfter > 0 && e.Done >= t.stopAfter:
			stop()
		}
	}
	sum, err := contest.Run(rctx, b.sides[side].Runner, db, cfg, report)
	end := snapshot(counter)
	if err != nil && (t.stopAfter == 0 || ctx.Err() != nil || rctx.Err() == nil) {
		return played{}, fmt.Errorf("%s tournament, %s: %w", t.name, sideNames[side], err)
	}
	if err := noFaults(ctx, db, sum.Tournament.ID); err != nil {
		return played{}, fmt.Errorf("%s tournament, %s: %w", t.name, sideNames[side], err)
	}
	mu.Lock()
	defer mu.Unlock()
	s, err := start.until(end)
	return played{games: sum.Played, turns: turns, spent: s}, err
}

// noFaults makes sure the benchmark measured games, not faults: its bots
// never time out or crash unless the machine is far too loaded.
func noFaults(ctx context.Context, db *results.DB, tid int64) error {
	st, err := db.Standings(ctx, tid, results.SchemeDefault)
	if err != nil {
		return err
	}
	for _, s := range st {
		if !s.Check.OK || s.Timeouts+s.Crashes+s.Illegal > 0 {
			return fmt.Errorf("%w: %s: check %+v, %d timeouts, %d crashes, %d illegal moves", errBot, s.Bot.Name, s.Check, s.Timeouts, s.Crashes, s.Illegal)
		}
	}
	return nil
}

// best plays a tournament Repeats times on each runner, alternating, and
// keeps each runner's fastest: other load on a shared machine only ever
// slows a run down. play plays it once on one side.
func (b *bencher) best(what string, play func(side, rep int) (played, error)) ([2]played, error) {
	var best [2]played
	for rep := range max(1, b.sz.Repeats) {
		for i := range b.sides {
			b.progress("%s, %s (%d of %d)", what, sideNames[i], rep+1, max(1, b.sz.Repeats))
			p, err := play(i, rep)
			if err != nil {
				return best, err
			}
			if rep == 0 || p.spent.wall < best[i].spent.wall {
				best[i] = p
			}
		}
	}
	return best, nil
}

// tournaments plays, on both runners, a tournament of trivial bots, where
// the judge's fixed costs show; one of thinking bots, where the bots should
// take all the time; and one of sleeping bots, with and without the pool's
// overlap of starts and removals with other games.
func (b *bencher) tournaments(ctx context.Context) error {
	trivial := tourney{name: "trivial", bots: b.sz.TrivialBots, bot: b.firstCell}
	think := tourney{name: "thinking", bots: b.sz.ThinkingBots, bot: thinkingBot(b.firstCell, b.thinking, b.sz.Think, false)}
	sleeping := tourney{name: "sleeping", bots: b.sz.SleepingBots, bot: thinkingBot(b.firstCell, b.thinking, b.sz.Sleep, true)}
	var tr, th, sl, naive [2]played
	for _, t := range []struct {
		p    *[2]played
		what string
		play func(side, rep int) (played, error)
	}{
		{&tr, fmt.Sprintf("trivial tournament, %d games", trivial.games()), func(side, rep int) (played, error) { return b.play(ctx, side, trivial, rep) }},
		{&th, fmt.Sprintf("thinking tournament, %d games", think.games()), func(side, rep int) (played, error) { return b.play(ctx, side, think, rep) }},
		{&sl, fmt.Sprintf("sleeping tournament, %d games", sleeping.games()), func(side, rep int) (played, error) { return b.play(ctx, side, sleeping, rep) }},
		{&naive, "sleeping tournament, each game in turn", func(side, _ int) (played, error) { return b.naive(ctx, side, sleeping) }},
	} {
		var err error
		if *t.p, err = b.best(t.what, t.play); err != nil {
			return err
		}
	}
	gpm := [2]float64{tr[0].perMinute(), tr[1].perMinute()}
	b.add(Row{Measure: fmt.Sprintf("trivial tournament (%d games), games/min", tr[1].games), Unit: "/min",
		Sandboxed: gpm[0], Plain: gpm[1], Compare: "ratio", Target: "≥ ×0.6", Met: atLeast(gpm[0]/gpm[1], 0.6)})
	b.cpuRows("trivial tournament, CPU per game", tr, func(p played, d time.Duration) float64 { return ms(d) / float64(p.games) }, "ms")
	wall := [2]float64{th[0].spent.wall.Seconds(), th[1].spent.wall.Seconds()}
	b.add(Row{Measure: fmt.Sprintf("thinking tournament (%d games, %v/move), wall", th[1].games, b.sz.Think), Unit: "s",
		Sandboxed: wall[0], Plain: wall[1], Compare: "ratio", Target: "≤ ×1.05", Met: atMost(wall[0]/wall[1], 1.05)})
	share := [2]float64{100 * th[0].spent.judgeShare(), 100 * th[1].spent.judgeShare()}
	b.add(Row{Measure: "thinking tournament, judge CPU / (judge + bots)", Unit: "%",
		Sandboxed: share[0], Plain: share[1], Compare: "diff", Target: "< 5 %", Met: both(atMost(share[0], 5), atMost(share[1], 5))})
	b.cpuRows("thinking tournament, CPU", th, func(_ played, d time.Duration) float64 { return d.Seconds() }, "s")
	b.add(Row{Measure: fmt.Sprintf("sleeping tournament (%d games, %v sleep/move), games/min", sl[1].games, b.sz.Sleep), Unit: "/min",
		Sandboxed: sl[0].perMinute(), Plain: sl[1].perMinute(), Compare: "ratio"})
	b.add(Row{Measure: "same, each game started, played, removed in turn", Unit: "/min",
		Sandboxed: naive[0].perMinute(), Plain: naive[1].perMinute(), Compare: "ratio"})
	b.add(Row{Measure: "gain of starting and removing behind other games", Unit: "×",
		Sandboxed: sl[0].perMinute() / naive[0].perMinute(), Plain: sl[1].perMinute() / naive[1].perMinute()})
	b.note("bots' CPU, sandboxed: %s", b.sides[0].Bots.Source)
	b.note("bots' CPU, plain: %s", b.sides[1].Bots.Source)
	b.note("judge CPU: getrusage(RUSAGE_SELF) of this process, which is the judge; the rest of the machine's CPU (/proc/stat) is the Docker engine (dockerd, containerd, shims, fuse-overlayfs...) and anything else running meanwhile")
	b.note("tournaments: %s, one round (each pair plays twice), played by contest.Run with a fresh database, %d times on each runner alternately, the fastest kept; timed from the first game to the last container removed (the bots' checks excluded); workers: %s", b.firstCell.rules.Name(), max(1, b.sz.Repeats), b.workers())
	b.note("\"in turn\": the same games through contest.Pipeline on as many workers, each starting a game's bots, playing it and removing them before the next, nothing stored: what the pool's overlap gains")
	return nil
}

// naive plays the games of a tournament already played by play, the simple
// way: each worker starts a game's bots, plays it, removes them and
// only then takes the next game, without storing anything. Compared with
// the tournament's rate, it shows what starting the next games during the
// current ones and removing finished ones in the background gain.
func (b *bencher) naive(ctx context.Context, side int, t tourney) (played, error) {
	dir := filepath.Join(b.work, sideNames[side], t.name+"-0")
	rules := t.bot.rules
	entries, _, err := contest.Discover(filepath.Join(dir, rules.Name()), rules.Protocol(), false)
	if err != nil {
		return played{}, err
	}
	pipe := contest.Pipeline{Run: b.sides[side].Runner, Rules: rules, StageRoot: filepath.Join(dir, "_bots"), Limits: sandbox.DefaultLimits()}
	seats := make([]contest.Seat, len(entries))
	for i, e := range entries {
		if seats[i], err = pipe.Staged(e); err != nil {
			return played{}, err
		}
	}
	plan, err := contest.Schedule(entries, 1, 1, contest.Duels, 2, 2)
	if err != nil {
		return played{}, err
	}
	errs := make(chan error, 1)
	start := snapshot(b.sides[side].Bots)
	onWorkers(b.gameWorkers(), plan, func(p contest.Planned) {
		game := make([]contest.Seat, len(p.Seats))
		for i, s := range p.Seats {
			game[i] = seats[s]
		}
		_, _, err := pipe.Play(ctx, contest.Fixture{Seed: p.Seed, Seats: game}, nil)
		if err != nil {
			select {
			case errs <- err:
			default:
			}
		}
	})
	close(errs)
	if err := <-errs; err != nil {
		return played{}, err
	}
	s, err := start.until(snapshot(b.sides[side].Bots))
	return played{games: len(plan), spent: s}, err
}

// cpuRows splits the CPU a tournament used between the judge, the bots and
// the rest of the machine, each figure as per says.
func (b *bencher) cpuRows(name string, p [2]played, per func(played, time.Duration) float64, unit string) {
	for _, part := range []struct {
		name string
		of   func(spent) time.Duration
	}{
		{"judge", func(s spent) time.Duration { return s.judge }},
		{"bots", func(s spent) time.Duration { return s.bots }},
		{"rest of the machine", func(s spent) time.Duration { return s.machine - s.judge - s.bots }},
	} {
		b.add(Row{Measure: name + ": " + part.name, Unit: unit, Compare: "diff",
			Sandboxed: per(p[0], part.of(p[0].spent)), Plain: per(p[1], part.of(p[1].spent))})
	}
}

func (b *bencher) workers() string {
	if b.sz.Workers > 0 {
		return fmt.Sprint(b.sz.Workers)
	}
	return fmt.Sprintf("the judge's default, %d here", b.gameWorkers())
}

// gameWorkers is how many games the bench plays at once where it plays
// them itself: Workers, or the judge's default for duels.
func (b *bencher) gameWorkers() int {
	if b.sz.Workers > 0 {
		return b.sz.Workers
	}
	return contest.DefaultWorkers(2, sandbox.DefaultLimits().Memory)
}

// onWorkers calls do for every job, workers at once, as a tournament plays
// its games; it returns when all are done.
func onWorkers[J any](workers int, jobs []J, do func(J)) {
	queue := make(chan J)
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				do(j)
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
}

// memory measures the judge's peak resident memory over a large tournament
// of trivial bots, stopped after a number of games: what grows with the
// number of bots (their checks, the schedule, the standings) is all there
// from the start, and each game's memory is given back after it.
func (b *bencher) memory(ctx context.Context) error {
	t := tourney{name: "memory", bots: b.sz.MemoryBots, bot: b.firstCell, stopAfter: b.sz.MemoryGames}
	var peak [2]float64
	reset := true
	for i := range b.sides {
		b.progress("memory: %d-bot tournament, %s, stopped after %d games", t.bots, sideNames[i], t.stopAfter)
		reset = resetPeak() && reset
		if _, err := b.play(ctx, i, t, 0); err != nil {
			return err
		}
		hwm, err := peakMemory()
		if err != nil {
			return err
		}
		peak[i] = float64(hwm) / 1e6
	}
	b.add(Row{Measure: fmt.Sprintf("judge peak memory, %d-bot tournament", t.bots), Unit: "MB",
		Sandboxed: peak[0], Plain: peak[1], Compare: "diff", Target: "< 100 MB", Met: both(atMost(peak[0], 100), atMost(peak[1], 100))})
	how := "reset before each tournament through /proc/self/clear_refs"
	if !reset {
		how = "not reset between measures (the kernel refused): the peak of the whole run so far, an upper bound"
	}
	b.note("peak memory: VmHWM of this process (%s), over the checks of %d bots and the first %d of their %d games", how, t.bots, t.stopAfter, t.games())
	return nil
}
