package eta

import (
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
		in:   Input{Running: []Running{{Elapsed: 10 * s, Moves: 100, MaxMoves: 300}}},
		want: Estimate{Known: true, AtLeast: true, Most: 20 * s},
		text: "up to 20s left",
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
