package contest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
)

// Engine is one Docker engine a tournament may play on: *sandbox.Docker or
// *sandbox.Pool. Its Capacity is the engine's machine.
type Engine interface {
	Runner
	// Ping tells whether the engine still answers.
	Ping(ctx context.Context) error
	Host() string
}

// WorkersFor is the games cfg plays at once, with games of seats seats:
// its Workers, or when that is 0 as many as the machines run plays on hold
// (WorkersOn). A run of one tournament and a run of several side by side
// both read it here.
func WorkersFor(ctx context.Context, run Runner, cfg Config, seats int) int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return WorkersOn(ctx, run, seats, cfg.Limits.Memory)
}

// WorkersOn is DefaultWorkers for the machines run plays on: its
// engines' when it knows them (they may be other machines than the
// judge's), the judge's own otherwise.
func WorkersOn(ctx context.Context, run Runner, seats int, memory int64) int {
	if cores, total, err := run.Capacity(ctx); err == nil && cores > 0 {
		return workersFor(cores, total, seats, memory)
	}
	return DefaultWorkers(seats, memory)
}

var _ Runner = (*Engines)(nil)

// ErrNoEngine means every engine of an Engines went away.
var ErrNoEngine = errors.New("contest: no Docker engine left")

// Engines spreads games over several engines by their cores. The seats of
// one game (the same botjudge.key label) play on the same engine, so that
// an engine that goes away fails whole games only. An engine that stops
// answering is left out for the rest of the run; its games fail with a Go
// error, never a bot's fault, and the tournament plays them again on the
// others.
type Engines struct {
	mu    sync.Mutex
	slots []*slot
	games map[string]*placed // by game key
}

type slot struct {
	e      Engine
	cores  int
	memory int64
	busy   int   // sessions running on it
	down   error // why it was left out
}

type placed struct {
	on       *slot
	sessions int
}

// Drain drains the engines that still answer: what a finished tournament
// leaves (sandbox.Pool's waiting containers).
func (m *Engines) Drain(ctx context.Context) error {
	m.mu.Lock()
	var live []Engine
	for _, s := range m.slots {
		if s.down == nil {
			live = append(live, s.e)
		}
	}
	m.mu.Unlock()
	var errs []error
	for _, d := range live {
		errs = append(errs, d.Drain(ctx))
	}
	return errors.Join(errs...)
}

// NewEngines asks each engine its capacity. An engine that does not answer
// now is an error: the organiser named it.
func NewEngines(ctx context.Context, engines []Engine) (*Engines, error) {
	if len(engines) == 0 {
		return nil, ErrNoEngine
	}
	m := &Engines{games: map[string]*placed{}}
	for _, e := range engines {
		cores, memory, err := e.Capacity(ctx)
		if err != nil {
			return nil, err
		}
		m.slots = append(m.slots, &slot{e: e, cores: max(cores, 1), memory: memory})
	}
	return m, nil
}

// Capacity is the sum of the engines still up.
func (m *Engines) Capacity(ctx context.Context) (cores int, memory int64, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.slots {
		if s.down == nil {
			cores += s.cores
			memory += s.memory
		}
	}
	if cores == 0 {
		return 0, 0, ErrNoEngine
	}
	return cores, memory, nil
}

// Down lists the engines left out because they stopped answering.
func (m *Engines) Down() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var down []string
	for _, s := range m.slots {
		if s.down != nil {
			down = append(down, s.e.Host())
		}
	}
	return down
}

// pick is the engine for one more session of game key: the game's own if it
// has one, else the live engine with the fewest sessions per core.
func (m *Engines) pick(key string) (*slot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var best *slot
	if p := m.games[key]; key != "" && p != nil && p.on.down == nil {
		best = p.on
	} else {
		for _, s := range m.slots {
			if s.down != nil {
				continue
			}
			// busy/cores < best.busy/best.cores, without division.
			if best == nil || s.busy*best.cores < best.busy*s.cores {
				best = s
			}
		}
	}
	if best == nil {
		return nil, m.noEngine()
	}
	best.busy++
	if key != "" {
		p := m.games[key]
		if p == nil {
			p = &placed{}
			m.games[key] = p
		}
		p.on = best
		p.sessions++
	}
	return best, nil
}

func (m *Engines) noEngine() error {
	errs := []error{ErrNoEngine}
	for _, s := range m.slots {
		errs = append(errs, s.down)
	}
	return errors.Join(errs...)
}

func (m *Engines) release(s *slot, key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.busy--
	if p := m.games[key]; key != "" && p != nil {
		if p.sessions--; p.sessions <= 0 {
			delete(m.games, key)
		}
	}
}

// gone tells whether s's engine went away, and if so leaves it out.
func (m *Engines) gone(ctx context.Context, s *slot) error {
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := s.e.Ping(pctx)
	if err == nil {
		return nil
	}
	m.mu.Lock()
	if s.down == nil {
		s.down = err
	}
	m.mu.Unlock()
	return fmt.Errorf("engine %s went away: %w", s.e.Host(), err)
}

// Start starts bot on an engine; an engine that fails to start it because it
// went away is left out and the next one tries.
func (m *Engines) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	key := labels[sandbox.LabelGameKey]
	for {
		s, err := m.pick(key)
		if err != nil {
			return nil, err
		}
		sess, err := s.e.Start(ctx, bot, lim, labels)
		if err == nil && sess.Ready().Fault != fault.None && ctx.Err() == nil {
			// A bot that "crashed" at start on an engine that died is
			// the engine's failure.
			if gerr := m.gone(ctx, s); gerr != nil {
				sess.Close(ctx)
				m.release(s, key)
				continue
			}
		}
		if err == nil {
			return &onEngine{Session: sess, m: m, slot: s, key: key}, nil
		}
		m.release(s, key)
		if ctx.Err() != nil {
			return nil, err
		}
		if m.gone(ctx, s) != nil {
			continue
		}
		return nil, err
	}
}

// Builds is true when an engine builds: each is Docker, which does.
func (m *Engines) Builds() bool {
	for _, s := range m.slots {
		if s.e.Builds() {
			return true
		}
	}
	return false
}

// Build builds a compiled bot on the first engine up: the program comes back
// to the judge's disk, whichever engine built it.
func (m *Engines) Build(ctx context.Context, src, dst string, lim sandbox.BuildLimits) (sandbox.Built, error) {
	for {
		s, err := m.pick("")
		if err != nil {
			return sandbox.Built{}, err
		}
		b, err := s.e.Build(ctx, src, dst, lim)
		m.release(s, "")
		if err == nil || ctx.Err() != nil || m.gone(ctx, s) == nil {
			return b, err
		}
	}
}

// onEngine is a session on one of the engines. A fault seen while its engine
// stops answering is the engine's failure, not the bot's: it becomes an
// error, and the game is played again elsewhere.
type onEngine struct {
	sandbox.Session
	m    *Engines
	slot *slot
	key  string
	once sync.Once
}

func (s *onEngine) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	r, err := s.Session.Ask(ctx, request)
	if ctx.Err() != nil {
		return r, err
	}
	if err != nil || r.Fault != fault.None || r.Restarted {
		if gerr := s.m.gone(ctx, s.slot); gerr != nil {
			return sandbox.Reply{}, errors.Join(gerr, err)
		}
	}
	return r, err
}

func (s *onEngine) Close(ctx context.Context) error {
	err := s.Session.Close(ctx)
	s.once.Do(func() { s.m.release(s.slot, s.key) })
	s.m.mu.Lock()
	down := s.slot.down
	s.m.mu.Unlock()
	if down != nil {
		// What stays on an engine that went away is for the reaper of the
		// next run on it: the tournament goes on.
		return nil
	}
	return err
}
