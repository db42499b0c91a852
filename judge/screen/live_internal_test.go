package screen

import (
	"context"
	"io"
	"log"
	"path/filepath"
	"testing"
	"time"

	"botjudge/judge/eta"
	"botjudge/results"
)

// The database is polled only while some page follows the tournament, by
// one poller however many pages do.
func TestHubPollsOnlyWhileWatched(t *testing.T) {
	db, err := results.Open(filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tour, err := db.EnsureTournament(context.Background(), "virus", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(db, Options{Poll: 10 * time.Millisecond, Log: log.New(io.Discard, "", 0)})
	watching := func() int {
		s.hub.mu.Lock()
		defer s.hub.mu.Unlock()
		return len(s.hub.watches)
	}
	a, leaveA := s.hub.subscribe(tour.ID)
	b, leaveB := s.hub.subscribe(tour.ID)
	for _, ch := range []<-chan []byte{a, b} {
		select {
		case msg := <-ch:
			if len(msg) == 0 {
				t.Error("empty snapshot")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no snapshot")
		}
	}
	if n := watching(); n != 1 {
		t.Errorf("two pages on one tournament: %d pollers", n)
	}
	// Nothing changed: nothing more is sent.
	select {
	case msg := <-a:
		t.Errorf("an unchanged tournament sent %s", msg)
	case <-time.After(100 * time.Millisecond):
	}
	leaveA()
	if n := watching(); n != 1 {
		t.Errorf("one page left: %d pollers", n)
	}
	leaveB()
	if n := watching(); n != 0 {
		t.Errorf("nobody watches: %d pollers", n)
	}
}

func TestProgress(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	started := now.Add(-100 * time.Second)
	// games counts games finished at these times, those of a run since
	// run, as CountGames does; each of the run's took 40 s and 100 moves.
	games := func(run time.Time, finished ...time.Time) results.GameCount {
		c := results.GameCount{Games: len(finished), LastID: int64(len(finished))}
		for _, f := range finished {
			if !run.IsZero() && !f.Before(run) {
				c.Since++
				c.SinceTime += 40 * time.Second
				c.SinceMoves += 100
			}
			if f.After(c.LastFinished) {
				c.LastFinished = f
			}
		}
		return c
	}
	before := started.Add(-time.Hour) // stored by an earlier run
	for _, c := range []struct {
		name string
		t    results.Tournament
		gs   results.GameCount
		live []results.Live
		want Progress
	}{
		{"running", results.Tournament{Planned: 30, Started: started},
			games(started, before, before, started.Add(50*time.Second), now.Add(-time.Second)),
			[]results.Live{{Updated: now, Started: now.Add(-20 * time.Second), Moves: 50}},
			// The run's games took 40 s: 25 to come, and the one in
			// progress is halfway (20 s more at its pace), one at a time.
			Progress{Done: 4, Planned: 30, Playing: 1, Running: true, Left: 1020, LeftKind: "about", LastGame: 4}},
		{"a game longer than the others", results.Tournament{Planned: 5, Started: started},
			games(started, before, before, started.Add(50*time.Second), now.Add(-time.Second)),
			[]results.Live{{Updated: now, Started: now.Add(-90 * time.Second), Moves: 300}},
			// It played three times the moves of the others: it may end
			// at once or play on, with no bound (Game is no game's name).
			Progress{Done: 4, Planned: 5, Playing: 1, Running: true, LeftKind: "least", LastGame: 4}},
		{"just started", results.Tournament{Planned: 30, Started: started}, games(started, before), nil,
			Progress{Done: 1, Planned: 30, Running: true, LeftKind: "unknown", LastGame: 1}},
		{"died", results.Tournament{Planned: 30, Started: now.Add(-time.Hour)}, games(now.Add(-time.Hour), now.Add(-50*time.Minute)),
			[]results.Live{{Updated: now.Add(-40 * time.Minute)}},
			Progress{Done: 1, Planned: 30, Playing: 1, LastGame: 1}},
		{"finished", results.Tournament{Planned: 2, Started: started, Finished: now}, games(started, now, now), nil,
			Progress{Done: 2, Planned: 2, Finished: true, LastGame: 2}},
		{"never run", results.Tournament{}, games(time.Time{}), nil, Progress{}},
	} {
		if got := progressOf(c.t, c.gs, c.live, now, nil); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}

	// The same run beside another tournament's (a side-by-side `judge
	// run`), whose 100 games to come take 2 s each: two games play at once,
	// and the workers go to the two in proportion to their games' length.
	// Its 1,020 s of games get 40/42 of two workers: 535.5 s.
	beside := []eta.Input{{Finished: 5, FinishedTime: 10 * time.Second, Queued: 100, Running: []eta.Running{{}}}}
	running := results.Tournament{Planned: 30, Started: started}
	got := progressOf(running, games(started, before, before, started.Add(50*time.Second), now.Add(-time.Second)),
		[]results.Live{{Updated: now, Started: now.Add(-20 * time.Second), Moves: 50}}, now, beside)
	if got.Left < 535 || got.Left > 536 || got.LeftKind != "about" {
		t.Errorf("beside another tournament: %+v, want about 535.5 s left", got)
	}
}
