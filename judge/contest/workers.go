package contest

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"botjudge/judge/eta"
)

// gamesPerWorker is how many games the pool of playAll keeps alive per
// worker at most: one playing, one ready in the queue, one being started.
const gamesPerWorker = 3

// DefaultWorkers is how many games a tournament plays at once unless told:
// one per core the judge may use, because a move's limit is wall-clock time
// and two thinking bots sharing a core would each lose time through no fault
// of their own. Bots that mostly wait could share cores, but the judge
// cannot know that in advance: --workers says it. Fewer when the machine's
// available memory could not hold every bot the pool keeps alive, each at its
// memory limit (memory is per bot, in bytes).
func DefaultWorkers(seats int, memory int64) int {
	return workersFor(runtime.GOMAXPROCS(0), availableMemory(), seats, memory)
}

// workersFor is DefaultWorkers for a machine of cores and avail bytes of
// memory (0: unknown).
func workersFor(cores int, avail int64, seats int, memory int64) int {
	n := cores
	if avail > 0 && memory > 0 && seats > 0 {
		n = min(n, int(avail/(int64(gamesPerWorker*seats)*memory)))
	}
	return max(n, 1)
}

// availableMemory is the kernel's estimate of the memory that can be used
// without swapping, in bytes; 0 when unknown.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Share is the workers of several tournaments run side by side, as `judge
// run` runs its game folders: the games they play at once, and the games
// whose bots are started (playing, ready or starting), are bounded over all
// of them as one tournament bounds its own. So a tournament whose last game
// runs for minutes (a Tron duel of thousands of turns) leaves no core idle
// while another game's tournament has games to play. Each tournament's
// time left counts the others' games too (eta.Shared).
type Share struct {
	playing chan struct{}
	alive   chan struct{}

	mu    sync.Mutex
	parts []*part // the tournaments on it
}

// NewShare shares workers games at once (at least one).
func NewShare(workers int) *Share {
	workers = max(workers, 1)
	return &Share{playing: make(chan struct{}, workers), alive: make(chan struct{}, gamesPerWorker*workers)}
}

// Workers is how many games the share plays at once.
func (s *Share) Workers() int { return cap(s.playing) }

// play takes a worker for a game or a check, until done is called.
func (s *Share) play(ctx context.Context) (done func(), err error) {
	return take(ctx, s.playing)
}

// start takes room for a game's bots, started until they are closed.
func (s *Share) start(ctx context.Context) (closed func(), err error) {
	return take(ctx, s.alive)
}

// part is one tournament on a share: its player once its games are about
// to play, nil while it discovers, builds and checks its bots.
type part struct{ g *gamePlayer }

// join counts a tournament in the estimates of the time left, from now
// until leave: its player from plays on.
func (s *Share) join() *part {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &part{}
	s.parts = append(s.parts, p)
	return p
}

// plays says p's games are played by g.
func (s *Share) plays(p *part, g *gamePlayer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p.g = g
}

func (s *Share) leave(p *part) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parts = slices.DeleteFunc(s.parts, func(q *part) bool { return q == p })
}

// estimate is the time left of g, whose part of the share it plays, beside
// the others' games; no player's lock is held. A tournament still
// preparing has games to come that nothing measures.
func (s *Share) estimate(g *gamePlayer) eta.Estimate {
	s.mu.Lock()
	players := make([]*gamePlayer, len(s.parts))
	for i, p := range s.parts {
		players[i] = p.g
	}
	s.mu.Unlock()
	self := slices.Index(players, g)
	ins := make([]eta.Input, len(players))
	for i, p := range players {
		ins[i] = eta.Input{Queued: 1}
		if p != nil {
			ins[i] = p.input()
		}
	}
	return eta.Shared(ins, self, s.Workers())
}

func take(ctx context.Context, sem chan struct{}) (func(), error) {
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
