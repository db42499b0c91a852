package sandboxtest

import (
	"context"
	"sync"
	"time"

	"botjudge/sandbox"
)

// Fake is a runner of scripted bots in memory: the orchestration of games
// (scheduling, resuming, giving up, the judge's failures) tested in
// milliseconds, beside the same tests on real Docker. Its zero value runs
// bots that answer false (a pass, in most games) at once.
type Fake struct {
	// Reply is bot's answer to the n-th request (from 0) of one of its
	// sessions; nil answers false.
	Reply func(bot sandbox.Bot, n int) sandbox.Reply
	// Delay is how long each answer takes, unless the request's ctx ends
	// first: then the answer is ctx's error, as from a real session.
	Delay time.Duration
	// Fail, when it returns an error, is the judge's own failure (the
	// engine refused, the connection broke) at the start (n = -1) or the
	// n-th request of bot in the game of key (sandbox.LabelGameKey, "" for
	// a bot started outside a tournament's games), the attempt-th time
	// (from 0) the bot starts in that game.
	Fail func(bot, key string, attempt, n int) error
	// Cores and Memory are Capacity's answer; 0 cores is
	// sandbox.ErrNoCapacity.
	Cores  int
	Memory int64

	mu     sync.Mutex
	starts map[[2]string]int // by game key and bot
	asks   map[[2]string]int
	open   int
	drains int
}

var _ sandbox.Runner = (*Fake)(nil)

// Start starts a scripted bot, or fails as Fail says.
func (f *Fake) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	key := [2]string{labels[sandbox.LabelGameKey], bot.Name}
	f.mu.Lock()
	if f.starts == nil {
		f.starts, f.asks = map[[2]string]int{}, map[[2]string]int{}
	}
	attempt := f.starts[key]
	f.starts[key]++
	f.mu.Unlock()
	if err := f.fail(key, attempt, -1); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.open++
	f.mu.Unlock()
	return &fakeSession{f: f, bot: bot, key: key, attempt: attempt}, nil
}

func (f *Fake) fail(key [2]string, attempt, n int) error {
	if f.Fail == nil {
		return nil
	}
	return f.Fail(key[1], key[0], attempt, n)
}

// Builds is false: a fake builds nothing.
func (f *Fake) Builds() bool { return false }

// Build is sandbox.ErrNoBuild.
func (f *Fake) Build(context.Context, string, string, sandbox.BuildLimits) (sandbox.Built, error) {
	return sandbox.Built{}, sandbox.ErrNoBuild
}

// Capacity is Cores and Memory.
func (f *Fake) Capacity(context.Context) (int, int64, error) {
	if f.Cores == 0 {
		return 0, 0, sandbox.ErrNoCapacity
	}
	return f.Cores, f.Memory, nil
}

// Drain counts the drains.
func (f *Fake) Drain(context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.drains++
	return nil
}

// Games counts the sessions started for each game, by key, failed starts
// included; bots started outside a tournament's games are not counted.
func (f *Fake) Games() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	games := map[string]int{}
	for k, n := range f.starts {
		if k[0] != "" {
			games[k[0]] += n
		}
	}
	return games
}

// Asked is how many requests bot got in the game of key, over all its
// sessions there.
func (f *Fake) Asked(key, bot string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asks[[2]string{key, bot}]
}

// Open counts the sessions started and not closed.
func (f *Fake) Open() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open
}

// Drains counts the calls of Drain.
func (f *Fake) Drains() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.drains
}

type fakeSession struct {
	f       *Fake
	bot     sandbox.Bot
	key     [2]string
	attempt int

	mu     sync.Mutex
	n      int
	closed bool
}

func (s *fakeSession) Ask(ctx context.Context, request []byte) (sandbox.Reply, error) {
	s.mu.Lock()
	n := s.n
	s.n++
	s.mu.Unlock()
	s.f.mu.Lock()
	s.f.asks[s.key]++
	s.f.mu.Unlock()
	if err := s.f.fail(s.key, s.attempt, n); err != nil {
		return sandbox.Reply{}, err
	}
	if s.f.Delay > 0 {
		t := time.NewTimer(s.f.Delay)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return sandbox.Reply{}, ctx.Err()
		case <-t.C:
		}
	}
	r := sandbox.Reply{Data: []byte("false")}
	if s.f.Reply != nil {
		r = s.f.Reply(s.bot, n)
	}
	if r.Elapsed == 0 {
		r.Elapsed = s.f.Delay
	}
	return r, nil
}

func (s *fakeSession) Ready() sandbox.Reply { return sandbox.Reply{} }
func (s *fakeSession) Log() string          { return "" }

func (s *fakeSession) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.f.mu.Lock()
		s.f.open--
		s.f.mu.Unlock()
	}
	return nil
}
