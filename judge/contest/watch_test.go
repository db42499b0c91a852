package contest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/judge/eta"
)

// While a game runs longer than the others and none ends, the run says so
// now and then, with an estimate that knows it cannot know: the terminal
// does not keep the last "about 30s left" for minutes.
func TestWatchReportsLongGames(t *testing.T) {
	var mu sync.Mutex
	var events []Event
	share := NewShare(1)
	g := &gamePlayer{total: 3, workers: 1, done: 2, share: share,
		finished: eta.Input{Finished: 2, FinishedTime: 2 * time.Second, FinishedMoves: 100},
		running:  map[string]*eta.Running{"long": {Moves: 500}},
		starts:   map[string]time.Time{"long": time.Now().Add(-10 * time.Second)},
		report: func(e Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		},
	}
	share.plays(share.join(), g)
	stop := g.watch(context.Background(), 40*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(events) == 0 {
		t.Fatal("no word while a long game plays")
	}
	e := events[0]
	if e.Kind != "waiting" || !e.Left.AtLeast || !strings.Contains(e.Text, "the longest at move 500") ||
		!strings.Contains(e.Left.String(), "a game runs longer than the others") {
		t.Errorf("event %+v (%s)", e, e.Left)
	}
}
