package handin

import (
	"context"
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// TestSparringGivesUpAsTheTournament: the sparring games give up on a bot
// that keeps timing out after --give-up timeouts, as the tournament will,
// not after a number of their own. Plain processes stand in for the
// sandbox: the rule is the judge's, not Docker's.
func TestSparringGivesUpAsTheTournament(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.Move = 100 * time.Millisecond
	sc := &SandboxChecker{Run: sandbox.NewLocal(), StageRoot: t.TempDir(), Limits: lim, Opponents: 1, Policy: contest.Policy{GiveUp: 1}}
	c := newClass(t, Options{Checker: sc, Games: []string{"virus"}}, "alice")
	// Quick against itself (the check), asleep against the example.
	slow := "import time\ndef ia(game, side):\n    other = 'player_2' if side == 'player_1' else 'player_1'\n" +
		"    if game[other]['name'] == 'example':\n        time.sleep(2)\n    return False\n"
	c.student("alice").location("virus", "a.py", []byte(slow))
	rep, err := ReadReport(waitDoneWithin(t, c, "alice", 1, time.Minute)[0])
	if err != nil || len(rep.Sparring) != 1 {
		t.Fatalf("alice's report: %+v (%v), want one sparring game", rep, err)
	}
	g, err := c.db.Game(context.Background(), rep.Sparring[0].GameID)
	if err != nil {
		t.Fatal(err)
	}
	asked, givenUp := 0, ""
	for _, m := range g.Moves {
		switch {
		case m.Seat != 0 || m.Verdict != fault.Timeout:
		case strings.HasPrefix(m.Detail, "not asked"):
			givenUp = m.Detail
		default:
			asked++
		}
	}
	if asked != 1 || !strings.Contains(givenUp, "after 1 timeout in a row") {
		t.Errorf("alice's bot timed out %d times before it was given up on (%q), want once (--give-up 1)", asked, givenUp)
	}
}
