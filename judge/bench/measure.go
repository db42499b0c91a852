package bench

import (
	"context"
	"errors"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// moves times the round trip of one request to an ia bot (a module whose
// function the harness calls) that answers at once, as the judge sees it:
// what the sandbox adds to every move.
func (b *bencher) moves(ctx context.Context) error {
	b.progress("ia bot move round trip, %d requests per runner", b.sz.Asks)
	took, err := b.firstRequests(ctx, "moves", "first_cell", b.firstCell, b.sz.Asks)
	if err != nil {
		return err
	}
	med := [2]float64{quantile(took[0], 0.5), quantile(took[1], 0.5)}
	b.add(Row{Measure: "ia bot move round trip, median", Unit: "ms", Sandboxed: med[0], Plain: med[1], Compare: "diff",
		Target: "≤ +1 ms", Met: atMost(med[0]-med[1], 1)})
	b.add(Row{Measure: "ia bot move round trip, p99", Unit: "ms", Sandboxed: quantile(took[0], 0.99), Plain: quantile(took[1], 0.99), Compare: "diff"})
	return nil
}

// programs times one request to a program bot, which starts a process per
// request inside the sandbox.
func (b *bencher) programs(ctx context.Context) error {
	b.progress("program bot request, %d per runner", b.sz.Requests)
	took, err := b.firstRequests(ctx, "programs", "shot", b.shot, b.sz.Requests)
	if err != nil {
		return err
	}
	b.add(Row{Measure: "program request (python3 process), median", Unit: "ms", Sandboxed: quantile(took[0], 0.5), Plain: quantile(took[1], 0.5), Compare: "diff"})
	b.add(Row{Measure: "program request (python3 process), p99", Unit: "ms", Sandboxed: quantile(took[0], 0.99), Plain: quantile(took[1], 0.99), Compare: "diff"})
	return nil
}

// firstRequests writes bot in dir under name and times n of its first
// request of a game on each runner (see asks).
func (b *bencher) firstRequests(ctx context.Context, dir, name string, bot benchBot, n int) ([2][]time.Duration, error) {
	path, err := b.file(dir+"/"+bot.file, bot.source, 0o644)
	if err != nil {
		return [2][]time.Duration{}, err
	}
	req := bot.rules.New(1, []string{"a", "b"}).Request(0)
	return b.asks(ctx, bot.bot(name, path), req, n)
}

// asks sends n requests to one session per runner, alternating between
// them so that the machine's other load weighs on both alike, after a few
// unmeasured ones (the first requests warm caches up).
func (b *bencher) asks(ctx context.Context, bot sandbox.Bot, req []byte, n int) ([2][]time.Duration, error) {
	var took [2][]time.Duration
	var sessions [2]sandbox.Session
	defer func() {
		for _, s := range sessions {
			if s != nil {
				s.Close(ctx)
			}
		}
	}()
	for i, side := range b.sides {
		s, err := side.Runner.Start(ctx, bot, sandbox.DefaultLimits(), nil)
		if err != nil {
			return took, err
		}
		sessions[i] = s
		if err := checkReply(s.Ready(), nil); err != nil {
			return took, err
		}
	}
	const warmUp = 3
	for k := range n + warmUp {
		for i, s := range sessions {
			began := time.Now()
			err := checkReply(s.Ask(ctx, req))
			elapsed := time.Since(began)
			if err != nil {
				return took, err
			}
			if k >= warmUp {
				took[i] = append(took[i], elapsed)
			}
		}
	}
	return took, nil
}

// fixedCost times what every game pays besides its moves: both bots started
// until ready, then both stopped and removed, as the tournament does it.
func (b *bencher) fixedCost(ctx context.Context) error {
	b.progress("game fixed cost, %d games per runner", b.sz.Games)
	path, err := b.file("fixed/"+b.firstCell.file, b.firstCell.source, 0o644)
	if err != nil {
		return err
	}
	seats := []contest.Seat{{Name: "a", Bot: b.firstCell.bot("a", path)}, {Name: "b", Bot: b.firstCell.bot("b", path)}}
	var ready, removed [2][]time.Duration
	for range b.sz.Games {
		for i, side := range b.sides {
			began := time.Now()
			sessions, err := contest.StartSeats(ctx, side.Runner, seats, sandbox.DefaultLimits(), nil)
			if err != nil {
				return err
			}
			ready[i] = append(ready[i], time.Since(began))
			began = time.Now()
			var errs []error
			for _, s := range sessions {
				errs = append(errs, checkReply(s.Ready(), nil), s.Close(ctx))
			}
			removed[i] = append(removed[i], time.Since(began))
			if err := errors.Join(errs...); err != nil {
				return err
			}
		}
	}
	r := [2]float64{quantile(ready[0], 0.5), quantile(ready[1], 0.5)}
	x := [2]float64{quantile(removed[0], 0.5), quantile(removed[1], 0.5)}
	b.add(Row{Measure: "game fixed cost: both bots ready, median", Unit: "ms", Sandboxed: r[0], Plain: r[1], Compare: "diff"})
	b.add(Row{Measure: "game fixed cost: both bots removed, median", Unit: "ms", Sandboxed: x[0], Plain: x[1], Compare: "diff"})
	return nil
}
