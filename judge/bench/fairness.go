package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// fairness times the moves of a bot doing a fixed amount of work, alone and
// then while a tournament of trivial bots keeps the other workers busy
// starting, playing and stopping games. A move is charged its CPU time
// (SPEC §5), so whatever the other games cost the machine must not come
// out of it; its wall time, which they do stretch, is reported beside.
func (b *bencher) fairness(ctx context.Context) error {
	path, err := b.file("fairness/"+b.fixedWork.file, b.fixedSource(), 0o644)
	if err != nil {
		return err
	}
	bot := b.firstCell
	req := bot.rules.New(1, []string{"a", "b"}).Request(0)
	busy := tourney{name: "busy", bots: b.sz.TrivialBots, bot: b.firstCell, workers: max(1, contest.DefaultWorkers(2, sandbox.DefaultLimits().Memory)-1)}
	var charged, wall [2][2]float64 // side, alone/busy: p99 in ms
	for i, side := range b.sides {
		s, err := side.Runner.Start(ctx, bot.bot("fixed_work", path), sandbox.DefaultLimits(), nil)
		if err != nil {
			return err
		}
		alone, err := b.fixedMoves(ctx, s, req, nil)
		if err == nil {
			charged[i][0], wall[i][0] = quantile(alone.charged, 0.99), quantile(alone.wall, 0.99)
			var busied timings
			busied, err = b.fixedMoves(ctx, s, req, func(ctx context.Context, rep int) error {
				_, err := b.play(ctx, i, busy, rep)
				return err
			})
			charged[i][1], wall[i][1] = quantile(busied.charged, 0.99), quantile(busied.wall, 0.99)
		}
		if err := errors.Join(err, s.Close(ctx)); err != nil {
			return err
		}
	}
	b.add(Row{Measure: fmt.Sprintf("fixed-work move (%d moves), charged p99 alone", b.sz.FairMoves), Unit: "ms", Sandboxed: charged[0][0], Plain: charged[1][0], Compare: "diff"})
	b.add(Row{Measure: fmt.Sprintf("same, charged p99 during a trivial tournament on %d worker(s)", busy.workers), Unit: "ms", Sandboxed: charged[0][1], Plain: charged[1][1], Compare: "diff"})
	b.add(Row{Measure: "same, charged p99 busy / p99 alone", Unit: "×", Sandboxed: charged[0][1] / charged[0][0], Plain: charged[1][1] / charged[1][0],
		Target: "≤ ×1.10", Met: atMost(charged[0][1]/charged[0][0], 1.10)})
	b.add(Row{Measure: "same, wall p99 alone", Unit: "ms", Sandboxed: wall[0][0], Plain: wall[1][0], Compare: "diff"})
	b.add(Row{Measure: "same, wall p99 during the tournament", Unit: "ms", Sandboxed: wall[0][1], Plain: wall[1][1], Compare: "diff"})
	b.add(Row{Measure: "same, wall p99 busy / p99 alone", Unit: "×", Sandboxed: wall[0][1] / wall[0][0], Plain: wall[1][1] / wall[1][0]})
	b.note("fixed-work bot: %s, the same instructions every move; it takes one worker's place while the tournament takes the others. A move is charged its container's CPU (the plain runner: its process's), wall time is what the judge waited", b.fixedWork.file)
	return b.pondering(ctx, path, req)
}

// fixedSource is the fixed-work bot: fixed_work.py's work before every
// answer of first_cell.py.
func (b *bencher) fixedSource() string {
	return b.fixedWork.source + "\n\n" + b.firstCell.source + "\n\nia = think(ia)\n"
}

// timings are the charged and the wall times of a series of answers.
type timings struct{ charged, wall []time.Duration }

// fixedMoves times FairMoves requests to s; with busy set, busy plays
// tournaments one after another in the background meanwhile (rep numbers
// them), from before the first request to after the last.
func (b *bencher) fixedMoves(ctx context.Context, s sandbox.Session, req []byte, busy func(ctx context.Context, rep int) error) (timings, error) {
	bctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var busyErr error
	if busy != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := 0; bctx.Err() == nil; rep++ {
				if err := busy(bctx, rep); err != nil && bctx.Err() == nil {
					busyErr = err
					return
				}
			}
		}()
		// Let the tournament get past its checks into its games.
		time.Sleep(2 * time.Second)
	}
	var t timings
	var err error
	for range b.sz.FairMoves {
		var r sandbox.Reply
		if r, err = s.Ask(ctx, req); err == nil {
			err = checkReply(r, nil)
		}
		if err != nil {
			break
		}
		t.charged, t.wall = append(t.charged, r.Charged()), append(t.wall, r.Elapsed)
	}
	stop()
	wg.Wait()
	return t, errors.Join(err, busyErr)
}

// pondering plays the fixed-work bot against an opponent that answers at
// once, and against one whose thread computes without end, on its
// opponent's time too; in one game, then in two at once. The pondering
// bot's container is limited to its CPU, and what it uses is charged to
// itself: the fixed-work bot's charged times must not change.
func (b *bencher) pondering(ctx context.Context, fixed string, req []byte) error {
	ponder, err := loadBot("pondering.py")
	if err != nil {
		return err
	}
	opponents := [2]benchBot{b.firstCell, b.firstCell} // calm, pondering
	opponents[1].source = ponder.source + "\n\n" + b.firstCell.source + "\n\nia = think(ia)\n"
	var paths [2]string
	for i, name := range []string{"calm", "pondering"} {
		if paths[i], err = b.file(fmt.Sprintf("pondering/%s.py", name), opponents[i].source, 0o644); err != nil {
			return err
		}
	}
	var median [2][2][2]float64 // side, games at once - 1, calm/pondering: the fixed-work bot's charged median in ms
	var wallMedian [2][2][2]float64
	for i, side := range b.sides {
		for g := range 2 {
			for o := range 2 {
				b.progress("%s: fixed-work bot against a %s bot, %d game(s) at once", sideNames[i], []string{"calm", "pondering"}[o], g+1)
				t, err := b.duels(ctx, side.Runner, g+1, fixed, opponents[o].bot("opponent", paths[o]), req)
				if err != nil {
					return err
				}
				median[i][g][o], wallMedian[i][g][o] = quantile(t.charged, 0.5), quantile(t.wall, 0.5)
			}
		}
	}
	for g := range 2 {
		games := fmt.Sprintf("%d game", g+1)
		if g > 0 {
			games += "s at once"
		}
		r := func(m [2][2][2]float64, side int) float64 { return m[side][g][1] / m[side][g][0] }
		b.add(Row{Measure: fmt.Sprintf("fixed-work bot's charged median against a pondering bot / a calm one, %s", games), Unit: "×",
			Sandboxed: r(median, 0), Plain: r(median, 1), Target: "×0.90–×1.10", Met: within(r(median, 0), 0.10)})
		b.add(Row{Measure: fmt.Sprintf("same, wall median, %s", games), Unit: "×", Sandboxed: r(wallMedian, 0), Plain: r(wallMedian, 1)})
	}
	b.note("pondering bot: %s; each game asks the fixed-work bot and its opponent in turn, %d times", ponder.file, b.sz.FairMoves/2)
	return nil
}

// duels plays n games at once between the fixed-work bot and opponent, as
// a game does (each asked in turn), and returns the fixed-work bot's times.
func (b *bencher) duels(ctx context.Context, run contest.Runner, n int, fixed string, opponent sandbox.Bot, req []byte) (timings, error) {
	var mu sync.Mutex
	var all timings
	errs := make([]error, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seats := []sandbox.Bot{b.fixedWork.bot("fixed_work", fixed), opponent}
			sessions := make([]sandbox.Session, len(seats))
			for i, bot := range seats {
				s, err := run.Start(ctx, bot, sandbox.DefaultLimits(), nil)
				if err != nil {
					errs[g] = err
					return
				}
				sessions[i] = s
				defer func() { errs[g] = errors.Join(errs[g], s.Close(ctx)) }()
			}
			for range b.sz.FairMoves / 2 {
				r, err := sessions[0].Ask(ctx, req)
				if err = checkReply(r, err); err != nil {
					errs[g] = err
					return
				}
				mu.Lock()
				all.charged, all.wall = append(all.charged, r.Charged()), append(all.wall, r.Elapsed)
				mu.Unlock()
				if err := checkReply(sessions[1].Ask(ctx, req)); err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return all, errors.Join(errs...)
}

// within tells whether a ratio is within tolerance of 1.
func within(ratio, tolerance float64) *bool {
	ok := !math.IsNaN(ratio) && math.Abs(ratio-1) <= tolerance
	return &ok
}
