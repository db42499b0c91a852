package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// fairness times the moves of a bot doing a fixed amount of work, alone and
// then while a tournament of trivial bots keeps the other workers busy
// starting, playing and stopping games: a move's limit is wall-clock time,
// so whatever the other games cost the machine must not come out of it.
func (b *bencher) fairness(ctx context.Context) error {
	bot := b.firstCell
	bot.source = b.fixedWork.source + "\n\n" + b.firstCell.source + "\n\nia = think(ia)\n"
	path, err := b.file("fairness/"+b.fixedWork.file, bot.source, 0o644)
	if err != nil {
		return err
	}
	req := bot.rules.New(1, []string{"a", "b"}).Request(0)
	busy := tourney{name: "busy", bots: b.sz.TrivialBots, bot: b.firstCell, workers: max(1, contest.DefaultWorkers(2, sandbox.DefaultLimits().Memory)-1)}
	var p99 [2][2]float64 // side, alone/busy
	for i, side := range b.sides {
		s, err := side.Runner.Start(ctx, bot.bot("fixed_work", path), sandbox.DefaultLimits(), nil)
		if err != nil {
			return err
		}
		took, err := b.fixedMoves(ctx, s, req, nil)
		if err == nil {
			p99[i][0] = quantile(took, 0.99)
			took, err = b.fixedMoves(ctx, s, req, func(ctx context.Context, rep int) error {
				_, err := b.play(ctx, i, busy, rep)
				return err
			})
			p99[i][1] = quantile(took, 0.99)
		}
		if err := errors.Join(err, s.Close(ctx)); err != nil {
			return err
		}
	}
	b.add(Row{Measure: fmt.Sprintf("fixed-work move (%d moves), p99 alone", b.sz.FairMoves), Unit: "ms", Sandboxed: p99[0][0], Plain: p99[1][0], Compare: "diff"})
	b.add(Row{Measure: fmt.Sprintf("same, p99 during a trivial tournament on %d worker(s)", busy.workers), Unit: "ms", Sandboxed: p99[0][1], Plain: p99[1][1], Compare: "diff"})
	b.add(Row{Measure: "same, p99 busy / p99 alone", Unit: "×", Sandboxed: p99[0][1] / p99[0][0], Plain: p99[1][1] / p99[1][0],
		Target: "≤ ×1.10", Met: atMost(p99[0][1]/p99[0][0], 1.10)})
	b.note("fixed-work bot: %s, the same instructions every move; it takes one worker's place while the tournament takes the others", b.fixedWork.file)
	return nil
}

// fixedMoves times FairMoves requests to s; with busy set, busy plays
// tournaments one after another in the background meanwhile (rep numbers
// them), from before the first request to after the last.
func (b *bencher) fixedMoves(ctx context.Context, s sandbox.Session, req []byte, busy func(ctx context.Context, rep int) error) ([]time.Duration, error) {
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
	var took []time.Duration
	var err error
	for range b.sz.FairMoves {
		var r sandbox.Reply
		if r, err = s.Ask(ctx, req); err == nil {
			err = checkReply(r, nil)
		}
		if err != nil {
			break
		}
		took = append(took, r.Elapsed)
	}
	stop()
	wg.Wait()
	return took, errors.Join(err, busyErr)
}
