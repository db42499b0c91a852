// Package eta estimates how long a tournament's run has left, for the
// terminal and the screen alike. It counts each game in progress from what
// it has played so far (its moves and its own pace) rather than as an
// average game, and it says when it cannot know: a game already longer than
// the games before it may end at its next move or run to the rules' bound
// (a Tron duel to the grid's size), so the time left is then only "at
// least", with "at most" when the rules bound the game. Tournaments played
// side by side share the workers, and each one's time left counts the
// others' games (Shared).
package eta

import (
	"fmt"
	"math"
	"time"
)

// Running is a game in progress.
type Running struct {
	Elapsed time.Duration // since it started
	Moves   int           // applied so far
	// MaxMoves bounds its moves (the rules' bound), 0 when nothing does.
	MaxMoves int
}

// Input is what a run has done so far.
type Input struct {
	// Finished games of this run, their total duration and total moves.
	Finished      int
	FinishedTime  time.Duration
	FinishedMoves int
	Queued        int // games not started yet
	Running       []Running
	// Workers is how many games it plays at once (0 counts those running);
	// beside others (Shared), how many it may hold at most (0: no bound).
	Workers int
}

// Estimate is the time left. Known is false when nothing measures it yet
// (no game finished). AtLeast means some game in progress is already longer
// than the games before it: Left counts what is known, the rest may be
// nothing or, when Most is not 0, up to Most.
type Estimate struct {
	Known   bool
	AtLeast bool
	Left    time.Duration
	Most    time.Duration
}

// Of estimates the time left: each game in progress has the typical
// number of moves left at its own pace per move, the games to come take the
// typical duration, and the whole is spread over the workers, but never
// ends before the longest game in progress can.
func Of(in Input) Estimate {
	return Shared([]Input{in}, 0, in.Workers)
}

// Shared estimates the time left of ins[i], one of several tournaments
// whose games share workers (0 counts the games in progress of them all):
// while they all have games, a free worker goes to whichever game waited
// longest, so each tournament is dealt games at the same rate and holds
// workers in proportion to the length of its games; as each ends, the
// others take its workers. A tournament's Workers, when set, bounds its
// own part. A game longer than its tournament's others holds its worker in
// the others' time left for as long again as it has run, or to its rules'
// bound when that comes sooner: with nothing else known, a game that has
// lasted t is as likely to end before 2t as after (a tournament alone counts
// its own long games as "at least"). While another tournament
// with games to play has finished none, nothing measures what its games
// will take from the others: the time left is unknown.
func Shared(ins []Input, i, workers int) Estimate {
	parts := make([]part, len(ins))
	running := 0
	for j, in := range ins {
		parts[j] = measure(in)
		running += len(in.Running)
	}
	if !parts[i].known {
		return parts[i].bound
	}
	for j, p := range parts {
		if j != i && !p.known && (ins[j].Queued > 0 || len(ins[j].Running) > 0) {
			// Its games will take workers, for as long as nobody knows.
			return Estimate{}
		}
	}
	if workers <= 0 {
		workers = max(running, 1)
	}
	left := make([]float64, len(parts)) // work left, in seconds
	var holds []float64                 // when the others' long games free their workers
	for j, p := range parts {
		if j != i {
			for _, h := range p.holds {
				holds = append(holds, h.Seconds())
			}
		}
		left[j] = p.work.Seconds()
	}
	var at float64 // seconds from now to when ins[i]'s work is done
	for left[i] > 0 {
		held, step := 0, math.Inf(1)
		for _, h := range holds {
			if h > at+1e-9 {
				held++
				step = min(step, h-at)
			}
		}
		rate := rates(ins, parts, left, max(float64(workers-held), 1))
		for j := range parts {
			if rate[j] > 0 {
				step = min(step, left[j]/rate[j])
			}
		}
		at += step
		for j := range parts {
			if left[j] -= rate[j] * step; left[j] < 1e-9 {
				left[j] = 0
			}
		}
	}
	return parts[i].after(time.Duration(at * float64(time.Second)))
}

// rates are the workers each tournament with work left holds: free
// shared in proportion to their typical games, none above its own
// Workers, whose rest goes to the others.
func rates(ins []Input, parts []part, left []float64, free float64) []float64 {
	rate := make([]float64, len(parts))
	var open []int
	for j, p := range parts {
		if p.known && left[j] > 0 {
			open = append(open, j)
		}
	}
	for len(open) > 0 {
		var games float64
		for _, j := range open {
			games += parts[j].typical()
		}
		var rest []int
		var held float64
		for _, j := range open {
			if w := float64(ins[j].Workers); w > 0 && free*parts[j].typical()/games > w {
				rate[j] = w
				held += w
			} else {
				rest = append(rest, j)
			}
		}
		if len(rest) == len(open) {
			for _, j := range open {
				rate[j] = free * parts[j].typical() / games
			}
			break
		}
		free -= held
		open = rest
	}
	return rate
}

// part is what a run's estimate is made of.
type part struct {
	known bool
	// bound is the estimate when nothing is measured: only the bounds of
	// the games in progress.
	bound Estimate
	game  time.Duration // the typical game's
	// work is the worker time left: the games to come, and the rest of
	// the games in progress at their own pace.
	work    time.Duration
	longest time.Duration // of the rests of the games in progress
	// holds are how long each game in progress that is longer than those
	// that ended is expected to keep its worker: with any, the time left
	// is only "at least". most is how much longer they may last when every
	// one is bounded, unbounded when one is not.
	holds     []time.Duration
	most      time.Duration
	unbounded bool
}

// typical is the typical game's length in seconds, as the share deals
// games: instant ones (a fake's) still take a worker for a while.
func (p part) typical() float64 {
	return max(p.game, time.Millisecond).Seconds()
}

func measure(in Input) part {
	if in.Finished == 0 {
		var most time.Duration
		bounded := len(in.Running) > 0 && in.Queued == 0
		for _, r := range in.Running {
			if !near(r) {
				bounded = false
				break
			}
			most = max(most, time.Duration(r.MaxMoves-r.Moves)*(r.Elapsed/time.Duration(r.Moves)))
		}
		if bounded {
			return part{bound: Estimate{Known: true, AtLeast: true, Most: most}}
		}
		return part{}
	}
	p := part{known: true, game: in.FinishedTime / time.Duration(in.Finished)}
	moves := float64(in.FinishedMoves) / float64(in.Finished)
	for _, r := range in.Running {
		var left time.Duration
		switch {
		case r.Moves == 0:
			left = max(p.game-r.Elapsed, 0)
		case float64(r.Moves) < moves:
			left = time.Duration((moves - float64(r.Moves)) * float64(r.Elapsed) / float64(r.Moves))
		default:
			// Longer than the games before it: it may end now, or go on.
			hold := r.Elapsed
			if near(r) {
				most := time.Duration(r.MaxMoves-r.Moves) * (r.Elapsed / time.Duration(r.Moves))
				p.most = max(p.most, most)
				hold = min(hold, most)
			} else {
				p.unbounded = true
			}
			p.holds = append(p.holds, hold)
		}
		p.work += left
		p.longest = max(p.longest, left)
	}
	p.work += time.Duration(in.Queued) * p.game
	return p
}

// near says whether r's rules' bound says something of when it ends: r has
// played at least half of it. A bound further off than r has run says
// nothing a reader can use (a Tron free-for-all of twelve, bounded by the
// grid, "up to 7 h" for a game of 20 min): until r nears it, the time r
// has left is not known.
func near(r Running) bool {
	return r.MaxMoves > r.Moves && r.Moves > 0 && r.MaxMoves-r.Moves <= r.Moves
}

// after is the estimate of a run whose work is done in d, which never ends
// before its longest game in progress can.
func (p part) after(d time.Duration) Estimate {
	e := Estimate{Known: true, AtLeast: len(p.holds) > 0, Left: max(p.longest, d)}
	if e.AtLeast && !p.unbounded {
		e.Most = max(e.Left, d+p.most)
	}
	return e
}

// String says the estimate in English for the terminal: "about 3 min
// left", "at least 40s left, at most 12 min (a game runs longer than the
// others)", "time left unknown"; "" when nothing is left.
func (e Estimate) String() string {
	const longer = " (a game runs longer than the others)"
	switch {
	case !e.Known:
		return "time left unknown"
	case e.AtLeast && e.Most <= 0 && e.Left < time.Second:
		// Only a game past the others' length is left, with no bound:
		// "at least 0s" would say nothing.
		return "time left unknown" + longer
	case e.AtLeast && e.Most > 0 && e.Left < time.Second:
		return fmt.Sprintf("up to %s left%s", Roughly(e.Most), longer)
	case e.AtLeast && e.Most > 0 && Roughly(e.Left) == Roughly(e.Most):
		// A game of many queued ones runs a little long: the bounds
		// round alike.
		return fmt.Sprintf("about %s left%s", Roughly(e.Left), longer)
	case e.AtLeast && e.Most > 0:
		return fmt.Sprintf("at least %s left, at most %s%s", Roughly(e.Left), Roughly(e.Most), longer)
	case e.AtLeast:
		return fmt.Sprintf("at least %s left, maybe much more%s", Roughly(e.Left), longer)
	case e.Left >= time.Second:
		return fmt.Sprintf("about %s left", Roughly(e.Left))
	}
	return ""
}

// Roughly says a duration the way a person would: 40s, 12 min, 3 h 05.
func Roughly(d time.Duration) string {
	switch {
	case d < 90*time.Second:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < 90*time.Minute:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
	}
	m := int(d.Round(time.Minute).Minutes())
	return fmt.Sprintf("%d h %02d", m/60, m%60)
}
