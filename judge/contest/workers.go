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
	"time"

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
	// busy says whether the machine is oversubscribed: then a game waits
	// for the others to end before it plays (see play).
	busy func() bool

	mu    sync.Mutex
	parts []*part // the tournaments on it
}

// NewShare shares workers games at once (at least one).
func NewShare(workers int) *Share {
	workers = max(workers, 1)
	return &Share{playing: make(chan struct{}, workers), alive: make(chan struct{}, gamesPerWorker*workers), busy: oversubscribed}
}

// Workers is how many games the share plays at once.
func (s *Share) Workers() int { return cap(s.playing) }

// holdBack is how long a game that may not play yet, the machine being
// oversubscribed, waits before it looks again.
const holdBack = 500 * time.Millisecond

// play takes a worker for a game or a check, until done is called. While
// the machine is oversubscribed a new game plays only when no other does:
// each more would take CPU from the bots already playing, and from
// whatever else the machine runs (SPEC §5, load).
func (s *Share) play(ctx context.Context) (done func(), err error) {
	for {
		done, err := take(ctx, s.playing)
		if err != nil || len(s.playing) == 1 || !s.busy() {
			return done, err
		}
		done()
		select {
		case <-time.After(holdBack):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// The machine is oversubscribed when more than runnablePerCPU tasks per CPU
// want one, on average over samples looks runnableGap apart: each then gets
// less than half a CPU. The kernel's CPU pressure (/proc/pressure/cpu)
// cannot say it: its share of time with a task waiting is 99 % as soon as
// a 2-core machine runs a few more tasks than cores, and stays there
// however many more run.
const (
	runnablePerCPU = 2
	runnableLooks  = 5
	runnableGap    = 20 * time.Millisecond
)

// oversubscribed reads the runnable tasks from /proc/stat; false where it
// cannot.
func oversubscribed() bool {
	total := 0
	for i := range runnableLooks {
		if i > 0 {
			time.Sleep(runnableGap)
		}
		n, ok := procsRunning()
		if !ok {
			return false
		}
		// Less this goroutine's thread, which is running to read it.
		total += n - 1
	}
	return total > runnablePerCPU*runtime.NumCPU()*runnableLooks
}

// procsRunning is /proc/stat's count of the tasks running or runnable now.
func procsRunning() (int, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "procs_running "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil
		}
	}
	return 0, false
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
