package contest

import (
	"context"
	"sync"
	"testing"

	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/sandbox"
)

// answering is a fake runner: each bot it starts answers its n-th request
// (from 0) with answer's reply. It keeps the labels and counts the requests.
type answering struct {
	sandbox.StartOnly
	answer func(req []byte, n int) sandbox.Reply
	mu     sync.Mutex
	labels []map[string]string
	asked  []*int
}

func (a *answering) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := &answerer{answer: a.answer}
	a.labels, a.asked = append(a.labels, labels), append(a.asked, &s.n)
	return s, nil
}

type answerer struct {
	answer func(req []byte, n int) sandbox.Reply
	n      int
}

func (s *answerer) Ask(ctx context.Context, req []byte) (sandbox.Reply, error) {
	r := s.answer(req, s.n)
	s.n++
	return r, nil
}
func (s *answerer) Ready() sandbox.Reply            { return sandbox.Reply{} }
func (s *answerer) Log() string                     { return "" }
func (s *answerer) Close(ctx context.Context) error { return nil }

func checkScripted(t *testing.T, answer func(req []byte, n int) sandbox.Reply) (Report, *answering) {
	t.Helper()
	run := &answering{answer: answer}
	p := Pipeline{Run: run, Rules: virus.Rules{}, Limits: sandbox.DefaultLimits()}
	rep, err := CheckBot(context.Background(), p, Seat{Name: "me", Bot: sandbox.Bot{Name: "me", Path: "me.py"}}, map[string]string{"botjudge.check": "1", "botjudge.handin": "7"})
	if err != nil {
		t.Fatal(err)
	}
	return rep, run
}

// A bot that plays legally is ready: it plays against itself, its
// containers labelled as its caller asked.
func TestCheckBotReady(t *testing.T) {
	rep, run := checkScripted(t, func([]byte, int) sandbox.Reply { return passes })
	if !rep.Ready() || rep.Game == nil || rep.Game.Stopped || len(rep.Faults) != 0 || rep.Slowest == nil {
		t.Fatalf("a bot that passes: %+v", rep)
	}
	// The first answer's bot, then one per seat of the game.
	if len(run.labels) != 3 {
		t.Fatalf("%d bots started, want 3", len(run.labels))
	}
	for _, l := range run.labels {
		if l["botjudge.check"] != "1" || l["botjudge.handin"] != "7" {
			t.Errorf("labels %v", l)
		}
	}
}

// A refused first answer ends the check: no game.
func TestCheckBotRefused(t *testing.T) {
	rep, run := checkScripted(t, func([]byte, int) sandbox.Reply { return sandbox.Reply{Data: []byte(`"3,4"`)} })
	if rep.Ready() || rep.First.OK || rep.First.Verdict != fault.Malformed || rep.Game != nil || rep.BuildFailed() {
		t.Errorf("a malformed first answer: %+v", rep)
	}
	if len(run.labels) != 1 {
		t.Errorf("%d bots started, want the first answer's only", len(run.labels))
	}
}

// The check's game gives up a bot at its first timeout (CheckGiveUp) and
// counts the faults up to it.
func TestCheckBotGivesUpAtFirstTimeout(t *testing.T) {
	rep, run := checkScripted(t, func(_ []byte, n int) sandbox.Reply {
		switch n {
		case 0, 1:
			return passes
		case 2:
			return sandbox.Reply{Data: []byte(`[0, 0, 0]`)}
		}
		return timedOut
	})
	// Both seats answer wrongly at their third request, then the first
	// seat times out at its fourth.
	if rep.Ready() || !rep.TimedOut || len(rep.Faults) != 3 || rep.Faults[0].Verdict != fault.Malformed || rep.Faults[2].Verdict != fault.Timeout {
		t.Fatalf("faults %+v, timed out %v", rep.Faults, rep.TimedOut)
	}
	for seat, asked := range run.asked[1:] {
		if *asked != 4 {
			t.Errorf("seat %d asked %d times, want 4: given up at its first timeout", seat, *asked)
		}
	}
}

// The check's game stops after CheckSteps steps, in a game that would go
// on: each side places a piece every fifth turn of its own.
func TestCheckBotStepBound(t *testing.T) {
	rep, _ := checkScripted(t, func(req []byte, n int) sandbox.Reply {
		if n%5 != 4 {
			return passes
		}
		r, err := (&picker{}).Ask(context.Background(), req) // the first legal cell
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
	if !rep.Ready() || !rep.Game.Stopped || len(rep.Game.Steps) != CheckSteps {
		t.Errorf("ready %v, stopped %v after %d steps, faults %+v", rep.Ready(), rep.Game.Stopped, len(rep.Game.Steps), rep.Faults)
	}
}

// The check's game is the bot against itself in every seat the game needs.
func TestCheckMatch(t *testing.T) {
	m := checkGame(virus.Rules{}, Seat{Name: "me"}, nil)
	if len(m.Seats) != 2 || m.Seats[0].Name != "me" || m.Seats[1].Name != "me (2)" || m.MaxSteps != CheckSteps {
		t.Errorf("%+v", m)
	}
}
