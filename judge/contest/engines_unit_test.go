package contest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"botjudge/games/fault"
	"botjudge/sandbox"
)

// fakeEngine is an engine of cores cores whose bots crash when it is dead.
type fakeEngine struct {
	host    string
	cores   int
	dead    atomic.Bool
	started atomic.Int64
}

func (f *fakeEngine) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	if f.dead.Load() {
		return nil, errors.New("cannot connect")
	}
	f.started.Add(1)
	return &fakeSession{e: f}, nil
}

func (f *fakeEngine) Builds() bool                { return true }
func (f *fakeEngine) Drain(context.Context) error { return nil }

func (f *fakeEngine) Build(ctx context.Context, src, dst string, lim sandbox.BuildLimits) (sandbox.Built, error) {
	return sandbox.Built{}, nil
}

func (f *fakeEngine) Ping(ctx context.Context) error {
	if f.dead.Load() {
		return errors.New("gone")
	}
	return nil
}

func (f *fakeEngine) Capacity(ctx context.Context) (int, int64, error) {
	return f.cores, int64(f.cores) << 30, nil
}

func (f *fakeEngine) Host() string { return f.host }

// fakeSession answers, or crashes once its engine is dead: what a bot
// looks like from the judge when its container was killed with its engine.
type fakeSession struct{ e *fakeEngine }

func (s *fakeSession) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	if s.e.dead.Load() {
		return sandbox.Reply{Fault: fault.Crash, Detail: "killed by signal 9"}, nil
	}
	return sandbox.Reply{Data: []byte("1")}, nil
}
func (s *fakeSession) Ready() sandbox.Reply            { return sandbox.Reply{} }
func (s *fakeSession) Log() string                     { return "" }
func (s *fakeSession) Close(ctx context.Context) error { return nil }

func TestEnginesSpreadByCores(t *testing.T) {
	ctx := context.Background()
	small, big := &fakeEngine{host: "small", cores: 1}, &fakeEngine{host: "big", cores: 3}
	m, err := NewEngines(ctx, []Engine{small, big})
	if err != nil {
		t.Fatal(err)
	}
	if cores, mem, err := m.Capacity(ctx); cores != 4 || mem != 4<<30 || err != nil {
		t.Errorf("capacity %d cores %d bytes %v, want the sum", cores, mem, err)
	}
	var sessions []sandbox.Session
	for game := range 4 {
		for range 2 {
			s, err := m.Start(ctx, sandbox.Bot{}, sandbox.Limits{}, map[string]string{sandbox.LabelGameKey: fmt.Sprint(game)})
			if err != nil {
				t.Fatal(err)
			}
			sessions = append(sessions, s)
		}
		// Both seats of a game on the same engine.
		if a, b := sessions[2*game].(*onEngine).slot, sessions[2*game+1].(*onEngine).slot; a != b {
			t.Errorf("game %d split over two engines", game)
		}
	}
	if small.started.Load() != 2 || big.started.Load() != 6 {
		t.Errorf("bots started: %d on 1 core, %d on 3; want 2 and 6", small.started.Load(), big.started.Load())
	}
	for _, s := range sessions {
		s.Close(ctx)
	}
	if len(m.games) != 0 {
		t.Errorf("games still placed after every session closed: %v", m.games)
	}
}

// A bot that "crashes" because its engine died is the judge's failure: the
// fault becomes an error, the engine is left out, the next game goes to the
// other one. A crash on an engine that still answers stays the bot's.
func TestEngineGoneIsNotABotFault(t *testing.T) {
	ctx := context.Background()
	a, b := &fakeEngine{host: "a", cores: 2}, &fakeEngine{host: "b", cores: 2}
	m, err := NewEngines(ctx, []Engine{a, b})
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Start(ctx, sandbox.Bot{}, sandbox.Limits{}, map[string]string{sandbox.LabelGameKey: "g1"})
	if err != nil {
		t.Fatal(err)
	}
	on := s.(*onEngine).slot.e.(*fakeEngine)
	on.dead.Store(true)
	r, err := s.Ask(ctx, []byte("{}"))
	if err == nil || r.Fault != fault.None {
		t.Fatalf("got %+v, %v; want an error and no fault", r, err)
	}
	if down := m.Down(); len(down) != 1 || down[0] != on.host {
		t.Errorf("down: %v, want [%s]", down, on.host)
	}
	if err := s.Close(ctx); err != nil {
		t.Error(err)
	}
	s2, err := m.Start(ctx, sandbox.Bot{}, sandbox.Limits{}, map[string]string{sandbox.LabelGameKey: "g2"})
	if err != nil || s2.(*onEngine).slot.e == Engine(on) {
		t.Fatalf("the next game: %v on the engine left out", err)
	}
	if cores, _, _ := m.Capacity(ctx); cores != 2 {
		t.Errorf("capacity %d cores after losing one engine, want 2", cores)
	}

	// A real crash, its engine alive, stays a fault.
	crashing := &fakeEngine{host: "c", cores: 1}
	m2, _ := NewEngines(ctx, []Engine{crashing})
	s3, _ := m2.Start(ctx, sandbox.Bot{}, sandbox.Limits{}, nil)
	s3.(*onEngine).Session = crashSession{&fakeSession{e: crashing}}
	if r, err := s3.Ask(ctx, []byte("{}")); err != nil || r.Fault != fault.Crash {
		t.Errorf("got %+v, %v; want the bot's crash", r, err)
	}

	// Every engine gone: an error, never a session.
	s2.(*onEngine).slot.e.(*fakeEngine).dead.Store(true)
	if _, err := m.Start(ctx, sandbox.Bot{}, sandbox.Limits{}, nil); !errors.Is(err, ErrNoEngine) {
		t.Errorf("no engine left: %v", err)
	}
}

type crashSession struct{ *fakeSession }

func (crashSession) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	return sandbox.Reply{Fault: fault.Crash}, nil
}
