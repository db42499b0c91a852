package handin

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/sandbox"
)

// TestQueueSleepsWhenIdle: once the checks are done, the workers sleep:
// the queue's loop turns once per worker and per wake-up, not forever.
func TestQueueSleepsWhenIdle(t *testing.T) {
	const workers = 4
	c := newClass(t, Options{Checker: &fakeChecker{seen: map[int64]int{}}, Workers: workers}, "alice")
	alice := c.student("alice")
	for i := range 3 {
		alice.location("virus", "a.py", []byte(fmt.Sprintf("# v%d\n%s", i, pyBot)))
	}
	waitDone(t, c, "alice", 3)
	// A spinning worker turns thousands of times in this pause; a
	// sleeping one not at all.
	before := c.srv.queue.idleTurns.Load()
	time.Sleep(300 * time.Millisecond)
	if after := c.srv.queue.idleTurns.Load(); after != before || after > workers+2*3 {
		t.Errorf("the idle queue looked for work %d times, then %d more with nothing queued: want at most %d in all, then none",
			before, after-before, workers+2*3)
	}
}

// drainCounter is a sandbox that starts nothing and counts its drains.
type drainCounter struct {
	sandbox.StartOnly
	drains atomic.Int32
}

func (d *drainCounter) Start(context.Context, sandbox.Bot, sandbox.Limits, map[string]string) (sandbox.Session, error) {
	return nil, errors.New("no engine in this test")
}

func (d *drainCounter) Drain(context.Context) error {
	d.drains.Add(1)
	return nil
}

// TestIdleContainersReleased: once the queue is empty, the sandbox's
// waiting containers are released (Drain), not kept for half an hour.
func TestIdleContainersReleased(t *testing.T) {
	run := &drainCounter{}
	c := newClass(t, Options{Checker: &SandboxChecker{Run: run, StageRoot: t.TempDir()}}, "alice")
	c.student("alice").location("virus", "a.py", []byte(pyBot))
	for end := time.Now().Add(10 * time.Second); run.drains.Load() == 0 && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := run.drains.Load(); n != 1 {
		t.Errorf("the sandbox was drained %d times after the only check, want once", n)
	}
}
