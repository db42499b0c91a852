package contest

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/judge/eta"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestFakeShare: two tournaments on one share of two workers. While one of
// them waits on a game that goes on and on, the other plays all its games
// on the worker left, and no more than two bots are ever asked at once
// (a game asks one seat at a time, a check one bot). Neither drains the
// runner: the other may still use what it keeps.
func TestFakeShare(t *testing.T) {
	long, db := fakeTour(t, "slow", "x")
	short := long
	short.Dir = filepath.Join(t.TempDir(), "virus")
	short.Seed = 2 // another tournament of the same game in the same database
	for _, name := range []string{"a", "b", "c", "d"} {
		write(t, filepath.Join(short.Dir, name+".py"), "# "+name+"\n", 0o644)
	}
	share := NewShare(2)
	// Whatever else this machine runs: this test is of the share alone.
	share.busy = func() bool { return false }
	long.Share, short.Share = share, share

	release, waiting := make(chan struct{}), make(chan struct{})
	var blocked sync.Once
	var asked, most atomic.Int32
	run := &sandboxtest.Fake{Reply: func(bot sandbox.Bot, n int) sandbox.Reply {
		now := asked.Add(1)
		defer asked.Add(-1)
		for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
		}
		if bot.Name == "slow" {
			blocked.Do(func() {
				close(waiting)
				<-release
			})
		}
		time.Sleep(time.Millisecond) // so that requests of several games overlap
		return sandbox.Reply{Data: []byte("false")}
	}}

	ctx := context.Background()
	longDone := make(chan error, 1)
	go func() {
		_, err := Run(ctx, run, db, long, nil)
		longDone <- err
	}()
	<-waiting // the long tournament holds one worker from now on
	shortDone := make(chan Summary, 1)
	var err error
	go func() {
		var sum Summary
		sum, err = Run(ctx, run, db, short, nil)
		shortDone <- sum
	}()
	select {
	case sum := <-shortDone:
		close(release)
		if err != nil || sum.Played != 12 {
			t.Fatalf("short tournament beside a long game: played %d (%v), want 12", sum.Played, err)
		}
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("the short tournament did not end in a minute on the worker the long one left")
	}
	if err := <-longDone; err != nil {
		t.Fatal(err)
	}
	if most.Load() > 2 {
		t.Errorf("%d bots asked at once on a share of 2 workers", most.Load())
	}
	if run.Open() != 0 || run.Drains() != 0 {
		t.Errorf("%d sessions left open, drained %d times; want none and none", run.Open(), run.Drains())
	}
}

// A tournament's pace, on which it suggests swiss, is the wall clock's
// alone, but its games' own time beside others, whose games took the rest.
func TestSharedPace(t *testing.T) {
	g := &gamePlayer{workers: 2, began: time.Now().Add(-10 * time.Minute),
		finished: eta.Input{Finished: 6, FinishedTime: time.Minute}}
	if p := g.pace(6); p < 100*time.Second || p > 101*time.Second {
		t.Errorf("alone: %s a game, want 100s (10 min for 6 games)", p)
	}
	g.cfg.Share = NewShare(2)
	if p := g.pace(6); p != 5*time.Second {
		t.Errorf("beside others: %s a game, want 5s (1 min of games on 2 workers for 6 games)", p)
	}
}

// Each tournament on a share counts the others' games in its time left
// (eta.Shared has the arithmetic): battleships' 100 games of 10 s to come
// beside Tron's 4 of 100 s, on 2 workers, end in 700 s, Tron's in 220 s;
// once Tron's tournament has left the share, battleships has both workers.
// While a third is still checking its bots, nothing measures what its games
// will take.
func TestSharedEstimate(t *testing.T) {
	share := NewShare(2)
	player := func(total int, game time.Duration) (*gamePlayer, *part) {
		g := &gamePlayer{share: share, workers: 2, total: total, done: 1,
			finished: eta.Input{Finished: 1, FinishedTime: game}, running: map[string]*eta.Running{}}
		p := share.join()
		share.plays(p, g)
		return g, p
	}
	ships, _ := player(101, 10*time.Second)
	tron, tronPart := player(5, 100*time.Second)
	checking := share.join()
	if e := share.estimate(ships); e.Known {
		t.Errorf("beside a tournament checking its bots: %s, want unknown", e)
	}
	share.leave(checking)
	for _, c := range []struct {
		g    *gamePlayer
		want time.Duration
	}{{ships, 700 * time.Second}, {tron, 220 * time.Second}} {
		if e := share.estimate(c.g); e.Left.Round(time.Second) != c.want {
			t.Errorf("%s left, want %s", e.Left, c.want)
		}
	}
	share.leave(tronPart)
	if e := share.estimate(ships); e.Left.Round(time.Second) != 500*time.Second {
		t.Errorf("alone on the share: %s left, want 500s", e.Left)
	}
}

// While the machine is oversubscribed a game plays only when no other
// does; while it is not, a share plays as many as it has workers.
func TestBusyMachinePlaysOneGameAtATime(t *testing.T) {
	ctx := context.Background()
	for _, busy := range []bool{true, false} {
		share := NewShare(2)
		share.busy = func() bool { return busy }
		first, err := share.play(ctx)
		if err != nil {
			t.Fatal(err)
		}
		second := make(chan func())
		go func() {
			done, err := share.play(ctx)
			if err != nil {
				t.Error(err)
			}
			second <- done
		}()
		if busy {
			select {
			case done := <-second:
				done()
				t.Fatal("busy: a second game played beside the first")
			case <-time.After(3 * holdBack):
			}
		}
		first()
		(<-second)()
	}
}
