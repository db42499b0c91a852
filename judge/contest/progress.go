package contest

import (
	"botjudge/games"
	"botjudge/judge/eta"
	"context"
	"fmt"
	"time"
)

// minMeasured is how many games measure a pace well enough to project a
// tournament's length from it.
const minMeasured = 6

// worstCase is how long the games of todo could last on workers at once if
// every bot waited as long as it may on every request: the bound the rules
// give on requests per seat times the move's wall-clock backstop, twice its
// limit (SPEC §5). A budget does not shorten it: it counts charged time,
// CPU, which a bot that waits does not use. 0 when the rules give no bound.
func worstCase(cfg Config, todo []Planned, workers int) time.Duration {
	b, ok := cfg.Rules.(games.Bounded)
	if !ok || workers <= 0 {
		return 0
	}
	var total time.Duration
	for _, p := range todo {
		seat := time.Duration(b.MaxRequests(len(p.Seats))) * 2 * cfg.Limits.Move
		total += seat * time.Duration(len(p.Seats))
	}
	return total / time.Duration(workers)
}

// pace is the time a game of this tournament takes on its workers, after
// ran games of this run; g.mu is held. Played beside other tournaments, it
// is its games' own time, not the wall clock's, which theirs took part of.
func (g *gamePlayer) pace(ran int) time.Duration {
	if g.cfg.Share != nil {
		return g.finished.FinishedTime / time.Duration(max(g.finished.Finished*g.workers, 1))
	}
	return time.Since(g.began) / time.Duration(max(ran, 1))
}

// waitingEvery is how long the terminal may stay silent while games play:
// a long game (a Tron duel of thousands of turns) must not leave the last
// estimate on screen for minutes.
const waitingEvery = time.Minute

// watch reports a "waiting" event whenever no game ended for every, until
// the returned function is called.
func (g *gamePlayer) watch(ctx context.Context, every time.Duration) func() {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(every / 4)
		defer tick.Stop()
		last := time.Now()
		seen := -1
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			g.mu.Lock()
			if g.done != seen {
				seen, last = g.done, time.Now()
			}
			quiet, running := time.Since(last) >= every, len(g.running)
			longest := 0
			for _, r := range g.running {
				longest = max(longest, r.Moves)
			}
			if quiet && running > 0 {
				last = time.Now()
			}
			g.mu.Unlock()
			if quiet && running > 0 {
				g.report(Event{Kind: "waiting", Done: seen, Total: g.total, Left: g.share.estimate(g),
					Text: fmt.Sprintf("games in progress: %d, the longest at move %d", running, longest)})
			}
		}
	}()
	return func() { close(done) }
}

// begin counts p as a game in progress, with the rules' bound on its moves.
func (g *gamePlayer) begin(p Planned) *eta.Running {
	r := &eta.Running{}
	if b, ok := g.cfg.Rules.(games.Bounded); ok {
		r.MaxMoves = b.MaxRequests(len(p.Seats)) * len(p.Seats)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running[p.Key] = r
	g.starts[p.Key] = time.Now()
	return r
}

// end forgets p as a game in progress, finished or not.
func (g *gamePlayer) end(p Planned) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, p.Key)
	delete(g.starts, p.Key)
}

// input is what the estimate of the time left counts now: the games this
// run finished, those in progress, and those to come.
func (g *gamePlayer) input() eta.Input {
	g.mu.Lock()
	defer g.mu.Unlock()
	in := g.finished
	in.Workers = g.workers
	in.Running = nil
	for key, r := range g.running {
		run := *r
		run.Elapsed = time.Since(g.starts[key])
		in.Running = append(in.Running, run)
	}
	in.Queued = max(g.total-g.done-len(in.Running), 0)
	return in
}
