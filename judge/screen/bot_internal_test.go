package screen

import (
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/results"
)

// A bot that gives the same fault thousands of times has it on one line
// with its count, at its first move; a different fault keeps its own line,
// and the other seat's faults are not the bot's.
func TestRepeatedFaultsGrouped(t *testing.T) {
	g := results.Game{ID: 1, Players: []results.Player{{BotID: 10, Seat: 0, Rank: 2}, {BotID: 20, Seat: 1, Rank: 1}}}
	add := func(seat int, v fault.Kind, reason string) {
		g.Moves = append(g.Moves, results.Move{Ply: len(g.Moves), Move: games.Move{Seat: seat, Verdict: v, Reason: reason}})
	}
	add(0, "", "")
	for range 5370 {
		add(0, fault.Timeout, "no answer within 1s")
		add(1, fault.Illegal, "taken")
	}
	add(0, fault.Crash, "exit 1")
	bg := botGame(g, 10)
	if len(bg.Faults) != 2 {
		t.Fatalf("%d fault lines, want 2: %+v", len(bg.Faults), bg.Faults)
	}
	if f := bg.Faults[0]; f.Verdict != fault.Timeout || f.Count != 5370 || f.N != 1 || f.Own != 2 {
		t.Errorf("the timeouts are %+v, want 5370 of them from move 1, answer 2", f)
	}
	if f := bg.Faults[1]; f.Verdict != fault.Crash || f.Count != 1 || f.N != len(g.Moves)-1 {
		t.Errorf("the crash is %+v, want one at the last move", f)
	}
}

// A fault's step is the turn of the replay that holds it: in a game of
// simultaneous moves every seat answers each turn, so the bot's third
// answer is turn 3, move index 5 (the move list's row 3, ?move=3).
func TestFaultStepIsTheReplaysTurn(t *testing.T) {
	g := results.Game{ID: 1, Players: []results.Player{{BotID: 10, Seat: 0, Rank: 2}, {BotID: 20, Seat: 1, Rank: 1}}}
	for ply := range 3 {
		for seat := range 2 {
			m := results.Move{Ply: ply, Move: games.Move{Seat: seat}}
			if seat == 1 && ply == 2 {
				m.Verdict, m.Reason = fault.Timeout, "no answer within 1s"
			}
			g.Moves = append(g.Moves, m)
		}
	}
	bg := botGame(g, 20)
	if len(bg.Faults) != 1 {
		t.Fatalf("%d fault lines, want 1", len(bg.Faults))
	}
	if f := bg.Faults[0]; f.Step != 3 || f.N != 5 || f.Own != 3 {
		t.Errorf("the timeout is at step %d, move %d, answer %d; want turn 3, move 5, answer 3", f.Step, f.N, f.Own)
	}
}
