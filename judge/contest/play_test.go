package contest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/sandbox"
)

// scripted is a fake session: it answers each request with the next reply
// of its script (the last one forever), and counts the requests it got.
type scripted struct {
	mu      sync.Mutex
	replies []sandbox.Reply
	asked   int
}

func (s *scripted) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.replies[min(s.asked, len(s.replies)-1)]
	s.asked++
	return r, nil
}
func (s *scripted) Ready() sandbox.Reply            { return sandbox.Reply{} }
func (s *scripted) Log() string                     { return "" }
func (s *scripted) Close(ctx context.Context) error { return nil }

var (
	timedOut = sandbox.Reply{Fault: fault.Timeout, Detail: "no answer within 1s", Elapsed: time.Second}
	passes   = sandbox.Reply{Data: []byte("false"), Elapsed: 100 * time.Millisecond}
)

func playScripted(t *testing.T, p Policy, scripts ...*scripted) Played {
	t.Helper()
	sessions := make([]sandbox.Session, len(scripts))
	seats := make([]Seat, len(scripts))
	for i, s := range scripts {
		sessions[i], seats[i] = s, Seat{Name: string(rune('a' + i))}
	}
	played, err := PlaySessions(context.Background(), sessions, Match{Rules: virus.Rules{}, Seed: 1, Seats: seats, Policy: p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return played
}

// A bot that always times out is asked GiveUp times in a game, whatever the
// game's length: its other turns are timeouts recorded at once.
func TestGiveUpAfterTimeoutsInARow(t *testing.T) {
	for _, giveUp := range []int{1, 3} {
		sleeper, passer := &scripted{replies: []sandbox.Reply{timedOut}}, &scripted{replies: []sandbox.Reply{passes}}
		played := playScripted(t, Policy{GiveUp: giveUp}, sleeper, passer)
		if sleeper.asked != giveUp {
			t.Errorf("give up after %d: the sleeper was asked %d times", giveUp, sleeper.asked)
		}
		turns, notAsked := 0, 0
		for _, st := range played.Steps {
			if st.Seat != 0 {
				continue
			}
			turns++
			if st.Verdict != fault.Timeout {
				t.Errorf("the sleeper's move %+v is not a timeout", st.Move)
			}
			if strings.HasPrefix(st.Detail, "not asked: given up") {
				notAsked++
				if st.Elapsed != 0 {
					t.Errorf("a move not asked took %v", st.Elapsed)
				}
			}
		}
		if turns != giveUp+notAsked || notAsked == 0 {
			t.Errorf("give up after %d: %d turns, %d not asked", giveUp, turns, notAsked)
		}
	}
	// Timeouts that are not in a row never give up.
	flaky := &scripted{replies: []sandbox.Reply{timedOut, timedOut, passes, timedOut, timedOut, passes, timedOut, timedOut, passes, passes}}
	playScripted(t, Policy{GiveUp: 3}, flaky, &scripted{replies: []sandbox.Reply{passes}})
	if flaky.asked < 10 {
		t.Errorf("a bot never 3 times in a row too slow was asked %d times only", flaky.asked)
	}
}

// A budget is a chess clock: the answer that ends past it is a timeout, and
// the seat is not asked again.
func TestBudget(t *testing.T) {
	slow := &scripted{replies: []sandbox.Reply{{Data: []byte("false"), Elapsed: 400 * time.Millisecond}}}
	played := playScripted(t, Policy{Budget: time.Second}, slow, &scripted{replies: []sandbox.Reply{passes}})
	if slow.asked != 3 {
		t.Errorf("a bot spending 0.4 s a move with a 1 s budget was asked %d times, want 3", slow.asked)
	}
	var verdicts []string
	for _, st := range played.Steps {
		if st.Seat == 0 {
			verdicts = append(verdicts, string(st.Verdict)+":"+st.Detail)
		}
	}
	if len(verdicts) < 4 || verdicts[0] != ":" || verdicts[1] != ":" ||
		!strings.Contains(verdicts[2], "ran out") || !strings.Contains(verdicts[3], "is used up") {
		t.Errorf("the slow bot's moves: %q", verdicts)
	}
}

// The budget counts what a move is charged (SPEC §5): the CPU of a
// sandboxed bot, not its wall time, which the machine's load stretches;
// and the steps keep both.
func TestBudgetCountsCharged(t *testing.T) {
	waits := &scripted{replies: []sandbox.Reply{{Data: []byte("false"), Elapsed: 400 * time.Millisecond, CPU: 10 * time.Millisecond, Metered: true}}}
	played := playScripted(t, Policy{Budget: 2 * time.Second}, waits, &scripted{replies: []sandbox.Reply{passes}})
	for _, st := range played.Steps {
		if st.Seat != 0 {
			continue
		}
		if st.Verdict != fault.None {
			t.Fatalf("a bot charged 10 ms a move (400 ms of wall time) with a 2 s budget got %s: %s", st.Verdict, st.Detail)
		}
		if st.CPU == nil || *st.CPU != 10*time.Millisecond || st.Elapsed != 400*time.Millisecond || st.Charged() != *st.CPU {
			t.Fatalf("step times: CPU %v, wall %v", st.CPU, st.Elapsed)
		}
	}
	// 2 s of wall time would have stopped it after 5 moves.
	if waits.asked < 6 {
		t.Errorf("asked %d times only", waits.asked)
	}
}

// A bot that waits instead of computing is charged little, but the game's
// wall-clock backstop stops it: twice the budget of wall time, as a move's
// backstop is twice its limit.
func TestBudgetWallBackstop(t *testing.T) {
	sleeps := &scripted{replies: []sandbox.Reply{{Data: []byte("false"), Elapsed: 900 * time.Millisecond, CPU: time.Millisecond, Metered: true}}}
	played := playScripted(t, Policy{Budget: time.Second}, sleeps, &scripted{replies: []sandbox.Reply{passes}})
	if sleeps.asked != 3 {
		t.Errorf("a bot waiting 0.9 s a move (1 ms of CPU) with a 1 s budget was asked %d times, want 3 (2.7 s of wall time)", sleeps.asked)
	}
	var verdicts []string
	for _, st := range played.Steps {
		if st.Seat == 0 {
			verdicts = append(verdicts, string(st.Verdict)+":"+st.Detail)
		}
	}
	if len(verdicts) < 4 || verdicts[1] != ":" || !strings.Contains(verdicts[2], "ran out") || !strings.Contains(verdicts[3], "is used up") {
		t.Errorf("the waiting bot's moves: %q", verdicts)
	}
}

// A nil request is not sent: the rules' own answer for a seat that cannot
// move costs the bot nothing.
func TestNilRequestNotAsked(t *testing.T) {
	s := &scripted{replies: []sandbox.Reply{passes}}
	state := nilFirst{virus.Rules{}.New(1, []string{"a", "b"})}
	replies, err := askAll(context.Background(), []sandbox.Session{s, s}, []int{0}, state, newClock(Policy{GiveUp: 1}, 2))
	if err != nil || s.asked != 0 || replies[0].Fault != fault.None || replies[0].Data != nil {
		t.Errorf("asked %d times, replies %+v, %v: want no request and an empty reply", s.asked, replies, err)
	}
}

// nilFirst is a game whose seat 0 has no legal move.
type nilFirst struct{ games.State }

func (nilFirst) Request(seat int) json.RawMessage { return nil }

// MaxSteps stops a game unfinished: a check of a bot whose games last
// thousands of turns.
func TestMaxSteps(t *testing.T) {
	a, b := &scripted{replies: []sandbox.Reply{passes}}, &scripted{replies: []sandbox.Reply{passes}}
	played, err := PlaySessions(context.Background(), []sandbox.Session{a, b},
		Match{Rules: virus.Rules{}, Seed: 1, Seats: []Seat{{Name: "a"}, {Name: "b"}}, MaxSteps: 5}, nil)
	if err != nil || !played.Stopped || len(played.Steps) != 5 || played.Outcome.Rank != nil {
		t.Errorf("stopped %v after %d steps, outcome %+v (%v): want 5 steps and no outcome", played.Stopped, len(played.Steps), played.Outcome, err)
	}
}
