package handin

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"runtime"
	"sync"
	"sync/atomic"

	"botjudge/games/fault"
	"botjudge/results"
)

// Report is what a hand-in's check found, kept as JSON with its version
// and shown on its page in the student's language.
type Report struct {
	Ready bool `json:"ready"`
	// Compiled is true when a compiled bot built; BuildFailed when it did
	// not (Detail and Log then say why).
	Compiled    bool `json:"compiled,omitempty"`
	BuildFailed bool `json:"build_failed,omitempty"`
	// Verdict is the fault of the first answer, when it was refused.
	Verdict fault.Kind `json:"verdict,omitempty"`
	Detail  string     `json:"detail,omitempty"`
	FirstMS float64    `json:"first_ms,omitempty"`
	// The game against itself: its length, its end, its faults.
	Moves     int           `json:"moves,omitempty"`
	Stopped   bool          `json:"stopped,omitempty"`
	End       string        `json:"end,omitempty"`
	Faults    []ReportFault `json:"faults,omitempty"`
	TimedOut  bool          `json:"timed_out,omitempty"`
	SlowestMS float64       `json:"slowest_ms,omitempty"`
	// Log is what the bot printed (or the compiler said).
	Log      string `json:"log,omitempty"`
	Sparring []Spar `json:"sparring,omitempty"`
	Error    string `json:"error,omitempty"` // the judge's own failure
}

// ReportFault is one faulty answer of the game against itself.
type ReportFault struct {
	Move    int        `json:"move"`
	Verdict fault.Kind `json:"verdict"`
	Reason  string     `json:"reason"`
}

// Spar is one sparring game against the example bots, replayed on the
// screen's own page.
type Spar struct {
	GameID    int64    `json:"game_id"`
	Opponents []string `json:"opponents"`
	Result    string   `json:"result"` // win, draw, loss
	Reason    string   `json:"reason"`
	Faults    int      `json:"faults"`
}

// Checker checks one version handed in: as `judge check` does, then
// sparring games. It reports its progress through update; an error is the
// judge's own failure, never the bot's.
type Checker interface {
	Check(ctx context.Context, h results.HandIn, update func(status string, r Report)) (Report, error)
}

// idler is a Checker that keeps something between checks (the sandbox's
// waiting containers) and lets it go once no check waits or runs.
type idler interface {
	Idle(ctx context.Context) error
}

// queue runs the checks of versions handed in, a few at a time: thirty
// last-minute hand-ins wait their turn instead of starting thirty sandboxes
// at once, which would slow a tournament running beside them and time each
// other out.
type queue struct {
	db      *results.DB
	checker Checker
	log     *log.Logger
	mu      sync.Mutex
	waiting []int64
	// queued holds the versions waiting or being checked. A version handed
	// in while the queue starts is both added and found queued in the
	// database; checked twice, its second check found its sparring games
	// stored already and reported none.
	queued map[int64]bool
	// wake holds one token while a version waits that no worker may have
	// seen: a worker takes it to look, and passes it on only when it
	// leaves versions behind, so that idle workers sleep.
	wake chan struct{}
	// idleTurns counts the times a worker looked and found nothing to do.
	idleTurns atomic.Int64
}

func newQueue(db *results.DB, c Checker, lg *log.Logger) *queue {
	return &queue{db: db, checker: c, log: lg, queued: map[int64]bool{}, wake: make(chan struct{}, 1)}
}

// add queues a version's check, unless it is waiting or being checked
// already. The list of waiting versions grows as needed (the per-student
// rate bounds it); only the checks running at once are bounded.
func (q *queue) add(id int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.queued[id] {
		return
	}
	q.queued[id] = true
	q.waiting = append(q.waiting, id)
	q.signal()
}

// signal leaves the token for a sleeping worker, unless one is there.
func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// next takes the first version waiting; another worker is woken for the
// ones left.
func (q *queue) next() (int64, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		q.idleTurns.Add(1)
		return 0, false
	}
	id := q.waiting[0]
	q.waiting = q.waiting[1:]
	if len(q.waiting) > 0 {
		q.signal()
	}
	return id, true
}

// waits says whether a version waits for a worker.
func (q *queue) waits() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting) > 0
}

// done ends id's check; it says whether the queue is now empty: nothing
// waiting, nothing being checked.
func (q *queue) done(id int64) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.queued, id)
	return len(q.queued) == 0
}

// DefaultWorkers is how many hand-ins are checked at once by default: two
// at least, since a check waits on its containers' starts and its bots'
// interpreters as much as it computes, and it runs at the background CPU
// weight, so a second one fills the gaps without slowing a tournament (12
// hand-ins within a minute were READY after 8:45 instead of 23:26 beside a
// judge run on 2 cores: TestArenaBesideRunDocker); a quarter of the cores
// on larger machines.
func DefaultWorkers() int { return max(2, runtime.NumCPU()/4) }

// run checks queued versions with workers at once until ctx ends. The
// versions left queued or half-checked by a server that stopped are checked
// again first: none is lost.
func (q *queue) run(ctx context.Context, workers int) {
	list, err := q.db.HandIns(ctx, 0, "")
	if err != nil {
		q.log.Printf("hand-in: %v", err)
	}
	for i := len(list) - 1; i >= 0; i-- { // oldest first
		if s := list[i].Status; s == results.StatusQueued || s == results.StatusChecking || s == results.StatusPlaying {
			q.add(list[i].ID)
		}
	}
	var wg sync.WaitGroup
	if workers <= 0 {
		workers = DefaultWorkers()
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.work(ctx)
		}()
	}
	wg.Wait()
}

// work is one worker: it checks versions while some wait, and sleeps
// until the next is added.
func (q *queue) work(ctx context.Context) {
	for {
		id, ok := q.next()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-q.wake:
				continue
			}
		}
		q.check(ctx, id)
		if q.done(id) && ctx.Err() == nil {
			q.idle(ctx)
		}
	}
}

// idle lets the checker release what it keeps for the next check (the
// containers of the example bots, about 20 MB each), now that none waits.
func (q *queue) idle(ctx context.Context) {
	if i, ok := q.checker.(idler); ok {
		if err := i.Idle(context.WithoutCancel(ctx)); err != nil {
			q.log.Printf("hand-in: releasing the sandbox's idle containers: %v", err)
		}
	}
}

func (q *queue) check(ctx context.Context, id int64) {
	h, err := q.db.HandIn(ctx, id)
	if err != nil {
		q.log.Printf("hand-in: %v", err)
		return
	}
	update := func(status string, r Report) {
		if err := q.set(context.WithoutCancel(ctx), id, status, r); err != nil {
			q.log.Printf("hand-in: %v", err)
		}
	}
	update(results.StatusChecking, Report{})
	rep, err := q.checker.Check(ctx, h, update)
	if ctx.Err() != nil {
		return // stopped: checked again at the next start
	}
	status := results.StatusDone
	if err != nil {
		status = results.StatusFailed
		rep.Error = err.Error()
		q.log.Printf("hand-in %d of %s: %v", id, h.Student, err)
	}
	update(status, rep)
}

func (q *queue) set(ctx context.Context, id int64, status string, r Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("hand-in report: %w", err)
	}
	return q.db.SetStatus(ctx, id, status, b)
}
