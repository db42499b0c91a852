// Package eta estimates how long a tournament's run has left, for the
// terminal and the screen alike. It counts each game in progress from what
// it has played so far (its moves and its own pace) rather than as an
// average game, and it says when it cannot know: a game already longer than
// the games before it may end at its next move or run to the rules' bound
// (a Tron duel to the grid's size), so the time left is then only "at
// least", with "at most" when the rules bound the game.
package eta

import (
	"fmt"
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
	Workers       int // games played at once; 0 counts the running games
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
	workers := in.Workers
	if workers <= 0 {
		workers = max(len(in.Running), 1)
	}
	if in.Finished == 0 {
		// Nothing measured: only the bounds of the games in progress.
		var most time.Duration
		bounded := len(in.Running) > 0 && in.Queued == 0
		for _, r := range in.Running {
			if r.MaxMoves == 0 || r.Moves == 0 {
				bounded = false
				break
			}
			most = max(most, time.Duration(r.MaxMoves-r.Moves)*(r.Elapsed/time.Duration(r.Moves)))
		}
		if bounded {
			return Estimate{Known: true, AtLeast: true, Most: most}
		}
		return Estimate{}
	}
	game := in.FinishedTime / time.Duration(in.Finished)
	moves := float64(in.FinishedMoves) / float64(in.Finished)
	e := Estimate{Known: true}
	var sum, longest, most time.Duration
	unbounded := false
	for _, r := range in.Running {
		var left time.Duration
		switch {
		case r.Moves == 0:
			left = max(game-r.Elapsed, 0)
		case float64(r.Moves) < moves:
			left = time.Duration((moves - float64(r.Moves)) * float64(r.Elapsed) / float64(r.Moves))
		default:
			// Longer than the games before it: it may end now, or go on.
			e.AtLeast = true
			if r.MaxMoves > r.Moves {
				most = max(most, time.Duration(r.MaxMoves-r.Moves)*(r.Elapsed/time.Duration(r.Moves)))
			} else if r.MaxMoves == 0 {
				unbounded = true
			}
		}
		sum += left
		longest = max(longest, left)
	}
	queued := time.Duration(in.Queued) * game
	e.Left = max(longest, (sum+queued)/time.Duration(workers))
	if e.AtLeast && !unbounded {
		e.Most = max(e.Left, (sum+queued)/time.Duration(workers)+most)
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
