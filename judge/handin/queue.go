package handin

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"sync"

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
	wake   chan struct{}
}

func newQueue(db *results.DB, c Checker, lg *log.Logger) *queue {
	return &queue{db: db, checker: c, log: lg, queued: map[int64]bool{}, wake: make(chan struct{}, 1)}
}

// add queues a version's check, unless it is waiting or being checked
// already. The list of waiting versions grows as needed (the per-student
// rate bounds it); only the checks running at once are bounded.
func (q *queue) add(id int64) {
	q.mu.Lock()
	if q.queued[id] {
		q.mu.Unlock()
		return
	}
	q.queued[id] = true
	q.waiting = append(q.waiting, id)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) next() (int64, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		return 0, false
	}
	id := q.waiting[0]
	q.waiting = q.waiting[1:]
	return id, true
}

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
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				id, ok := q.next()
				if !ok {
					select {
					case <-ctx.Done():
						return
					case <-q.wake:
						// Another worker may be asleep too.
						select {
						case q.wake <- struct{}{}:
						default:
						}
						continue
					}
				}
				q.check(ctx, id)
				q.mu.Lock()
				delete(q.queued, id)
				q.mu.Unlock()
			}
		}()
	}
	wg.Wait()
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
