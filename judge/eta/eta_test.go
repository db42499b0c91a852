package eta

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestEstimate(t *testing.T) {
	s := time.Second
	cases := []struct {
		name string
		in   Input
		want Estimate
		text string
	}{{
		name: "nothing measured",
		in:   Input{Queued: 10, Running: []Running{{Elapsed: 5 * s, Moves: 10}}, Workers: 2},
		want: Estimate{},
		text: "time left unknown",
	}, {
		// 10 games of 30 s and 100 moves: 4 queued on 2 workers and a game
		// halfway (50 moves in 20 s: 20 s more at its own pace).
		name: "typical",
		in:   Input{Finished: 10, FinishedTime: 300 * s, FinishedMoves: 1000, Queued: 4, Workers: 2, Running: []Running{{Elapsed: 20 * s, Moves: 50}}},
		want: Estimate{Known: true, Left: 70 * s},
		text: "about 70s left",
	}, {
		// A slow game counts at its own pace: 10 moves in 60 s, 90 to go.
		name: "slow game in progress",
		in:   Input{Finished: 10, FinishedTime: 300 * s, FinishedMoves: 1000, Workers: 2, Running: []Running{{Elapsed: 60 * s, Moves: 10}}},
		want: Estimate{Known: true, Left: 540 * s},
		text: "about 9 min",
	}, {
		// The Tron duel: the last game has played 2,199 turns in
		// 4 min where the others took 60: it may end now or run to the
		// bound of the grid (3,000 moves here).
		name: "longer than the others, bounded",
		in:   Input{Finished: 11, FinishedTime: 11 * 30 * s, FinishedMoves: 11 * 60, Workers: 2, Running: []Running{{Elapsed: 240 * s, Moves: 2199, MaxMoves: 3000}}},
		want: Estimate{Known: true, AtLeast: true, Left: 0, Most: time.Duration(801) * (240 * s / 2199)},
		text: "up to 87s left (a game runs longer than the others)",
	}, {
		name: "longer than the others, unbounded",
		in:   Input{Finished: 3, FinishedTime: 90 * s, FinishedMoves: 300, Queued: 2, Workers: 1, Running: []Running{{Elapsed: 40 * s, Moves: 400}}},
		want: Estimate{Known: true, AtLeast: true, Left: 60 * s},
		text: "at least 60s left, maybe much more (a game runs longer",
	}, {
		// 110 games queued behind a game a little longer than the others,
		// bounded: both ends of the range are 56 min.
		name: "longer than the others, bounds alike",
		in:   Input{Finished: 50, FinishedTime: 50 * 60 * s, FinishedMoves: 50 * 100, Queued: 110, Workers: 2, Running: []Running{{Elapsed: 90 * s, Moves: 100, MaxMoves: 110}}},
		want: Estimate{Known: true, AtLeast: true, Left: 3300 * s, Most: 3300*s + 9*s},
		text: "about 55 min left (a game runs longer",
	}, {
		name: "bound only",
		in:   Input{Running: []Running{{Elapsed: 10 * s, Moves: 200, MaxMoves: 300}}},
		want: Estimate{Known: true, AtLeast: true, Most: 5 * s},
		text: "up to 5s left",
	}, {
		// The free-for-all of twelve Tron bots, its one game in
		// progress: 1,400 turns of the grid's 64,000 played in 5 min. Its
		// bound, "up to 3 h 43", says nothing: not known yet.
		name: "bound far off",
		in:   Input{Running: []Running{{Elapsed: 300 * s, Moves: 1400, MaxMoves: 64000}}},
		want: Estimate{},
		text: "time left unknown",
	}, {
		// Past the others, far from its bound: at least, maybe much more.
		name: "longer than the others, bound far off",
		in:   Input{Finished: 1, FinishedTime: 60 * s, FinishedMoves: 500, Queued: 1, Workers: 1, Running: []Running{{Elapsed: 300 * s, Moves: 1400, MaxMoves: 64000}}},
		want: Estimate{Known: true, AtLeast: true, Left: 60 * s},
		text: "at least 60s left, maybe much more",
	}}
	for _, c := range cases {
		got := Of(c.in)
		if got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
		if s := got.String(); !strings.Contains(s, c.text) {
			t.Errorf("%s: says %q, want %q", c.name, s, c.text)
		}
	}
}

func TestShared(t *testing.T) {
	s := time.Second
	// Alone on its workers, a tournament's estimate is the one of Of.
	for _, in := range []Input{
		{Finished: 10, FinishedTime: 300 * s, FinishedMoves: 1000, Queued: 4, Workers: 2, Running: []Running{{Elapsed: 20 * s, Moves: 50}}},
		{Finished: 11, FinishedTime: 11 * 30 * s, FinishedMoves: 11 * 60, Workers: 2, Running: []Running{{Elapsed: 240 * s, Moves: 2199, MaxMoves: 3000}}},
		{Finished: 3, FinishedTime: 90 * s, FinishedMoves: 300, Queued: 2, Workers: 1, Running: []Running{{Elapsed: 40 * s, Moves: 400}}},
		{Running: []Running{{Elapsed: 10 * s, Moves: 200, MaxMoves: 300}}},
	} {
		if got, want := Shared([]Input{in}, 0, in.Workers), Of(in); got != want {
			t.Errorf("alone: %+v, want Of's %+v", got, want)
		}
	}

	// Battleships' 100 games of 10 s beside Tron's 4 of 100 s, on 2 workers.
	// Dealt games at the same rate, Tron holds 10/11 of the workers until its
	// 400 s of games are done, at 220 s; battleships has done 40 s of its
	// 1,000 by then and plays the rest on both workers: 480 s more.
	ships := Input{Finished: 1, FinishedTime: 10 * s, Queued: 100}
	tron := Input{Finished: 1, FinishedTime: 100 * s, Queued: 4}
	tronLong := Input{Finished: 3, FinishedTime: 300 * s, FinishedMoves: 300, Running: []Running{{Elapsed: 300 * s, Moves: 500}}}
	shortLong := Input{Finished: 1, FinishedTime: 10 * s, FinishedMoves: 10, Running: []Running{{Elapsed: 100 * s, Moves: 50}}}
	cases := []struct {
		name    string
		ins     []Input
		workers int
		want    []time.Duration
	}{
		{"short and long games", []Input{ships, tron}, 2, []time.Duration{700 * s, 220 * s}},
		// Its own workers bound a tournament's part: Tron on one worker at
		// most leaves the other to battleships.
		{"a part bounded", []Input{ships, withWorkers(tron, 1)}, 2, []time.Duration{700 * s, 400 * s}},
		// A game longer than the others of its tournament (Tron's last
		// duel, at 500 moves where the others ended at 100, after 300 s)
		// holds its worker in the others' time left for as long again:
		// battleships plays 300 s of its games on one worker, then the
		// other 700 s on two. Its own may end now: at least 0 s.
		{"a part's long game", []Input{ships, tronLong}, 2, []time.Duration{650 * s, 0}},
		// Unless its rules end it sooner: 100 moves more at 0.6 s a move.
		{"a part's long game, bounded", []Input{ships, withMax(tronLong, 600)}, 2, []time.Duration{530 * s, 0}},
		// Two long games free their workers one after the other: one
		// worker for 100 s, two until 300 s, then three.
		{"two parts' long games", []Input{ships, shortLong, tronLong}, 3, []time.Duration{1400 * s / 3, 0, 0}},
		// 0 workers: the games in progress of them all.
		{"workers counted", []Input{withRunning(ships, 1), withRunning(tron, 1)}, 0, []time.Duration{700 * s, 220 * s}},
	}
	for _, c := range cases {
		for i, want := range c.want {
			got := Shared(c.ins, i, c.workers)
			if want == 0 {
				continue
			}
			if d := got.Left - want; !got.Known || d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("%s: part %d: %+v, want %v left", c.name, i, got, want)
			}
		}
	}

	if e := Shared([]Input{ships, tronLong}, 1, 2); !e.AtLeast || e.Left != 0 || e.Most != 0 || e.String() != "time left unknown (a game runs longer than the others)" {
		t.Errorf("a game longer than the others: %+v (%q), want at least 0 s, said unknown", e, e.String())
	}
}

// Nothing measures what a tournament whose first game has not ended will
// take from the others, in progress or still checking its bots; one with
// nothing left to play takes nothing.
func TestSharedUnmeasured(t *testing.T) {
	measured := Input{Finished: 1, FinishedTime: time.Second, Queued: 4}
	for _, other := range []Input{{Queued: 9, Running: []Running{{Elapsed: time.Second}}}, {Queued: 1}} {
		if got := Shared([]Input{measured, other}, 0, 2); got.Known {
			t.Errorf("beside %+v: %+v, want unknown", other, got)
		}
		if got := Shared([]Input{measured, other}, 1, 2); got.Known {
			t.Errorf("%+v itself: %+v, want unknown", other, got)
		}
	}
	if got := Shared([]Input{measured, {}}, 0, 2); got.Left != 2*time.Second {
		t.Errorf("beside a tournament with nothing to play: %+v, want 2s left", got)
	}
}

func withWorkers(in Input, n int) Input {
	in.Workers = n
	return in
}

// withMax bounds in's games in progress to moves.
func withMax(in Input, moves int) Input {
	in.Running = slices.Clone(in.Running)
	for i := range in.Running {
		in.Running[i].MaxMoves = moves
	}
	return in
}

// withRunning has n of in's queued games in progress, just started.
func withRunning(in Input, n int) Input {
	in.Queued -= n
	in.Running = make([]Running, n)
	return in
}
