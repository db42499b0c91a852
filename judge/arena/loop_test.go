package arena_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"botjudge/judge/arena"
	"botjudge/judge/arena/arenatest"
	"botjudge/results"
)

// fakePlayer stores each game at once, won by the bot of higher ID, and
// ends the loop's context once the arena holds stop games.
type fakePlayer struct {
	db     *results.DB
	cancel context.CancelFunc
	stop   int

	mu            sync.Mutex
	running, most int
	stored        int
	errs          []error
}

func (p *fakePlayer) Play(ctx context.Context, game string, g arena.Game) error {
	p.mu.Lock()
	p.running++
	p.most = max(p.most, p.running)
	p.mu.Unlock()
	defer func() { p.mu.Lock(); p.running--; p.mu.Unlock() }()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	t, err := p.db.ArenaTournament(ctx, game)
	if err != nil {
		return err
	}
	ranks := [2]int{1, 2}
	if g.Seats[1] > g.Seats[0] {
		ranks = [2]int{2, 1}
	}
	_, err = p.db.SaveGame(context.WithoutCancel(ctx), results.Game{TournamentID: t.ID, Key: g.Key, Seed: g.Seed, Reason: "win", Image: "test",
		Players: []results.Player{{Seat: 0, BotID: g.Seats[0], Rank: ranks[0]}, {Seat: 1, BotID: g.Seats[1], Rank: ranks[1]}}})
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.errs = append(p.errs, fmt.Errorf("%s: %w", g.Key, err))
		return err
	}
	if p.stored++; p.stored == p.stop {
		p.cancel()
	}
	return nil
}

// run plays the arena of virus until stop more games are stored.
func run(t *testing.T, d *results.DB, stop, parallel int) *fakePlayer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &fakePlayer{db: d, cancel: cancel, stop: stop}
	l := &arena.Loop{Source: d, Player: p, Games: []string{"tron", "virus"}, Parallel: parallel, Log: log.New(io.Discard, "", 0)}
	l.Run(ctx)
	if p.running != 0 {
		t.Errorf("Run returned with %d games still playing", p.running)
	}
	if p.most > parallel {
		t.Errorf("%d games at once, over the cap of %d", p.most, parallel)
	}
	for _, err := range p.errs {
		t.Errorf("a game not stored: %v", err)
	}
	return p
}

// classDB is a database holding arenatest's class in virus, and the
// class's bot IDs.
func classDB(t *testing.T) (*results.DB, map[byte]int64) {
	t.Helper()
	d, err := results.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, arenatest.Class(t, d, "virus")
}

// The loop plays the ladder's games (a game without a ladder has none),
// within its cap, and a restarted loop goes on from the stored games
// without playing one again.
func TestLoopPlaysAndResumes(t *testing.T) {
	d, ids := classDB(t)
	run(t, d, 30, 3)
	run(t, d, 12, 2)
	a, err := d.Arena(context.Background(), "virus")
	if err != nil {
		t.Fatal(err)
	}
	// Games under way when a loop stopped may be stored too.
	if len(a.Games) < 9+30+12 {
		t.Errorf("%d arena games, want the 9 of the class and at least 42 played", len(a.Games))
	}
	games := map[int64]int{}
	for _, g := range a.Games[9:] {
		for _, s := range g.Seats {
			games[s.BotID]++
		}
		if g.Seats[0].BotID == ids['b'] || g.Seats[1].BotID == ids['b'] {
			t.Errorf("bob's first version, off the ladder, played game %d", g.ID)
		}
	}
	for _, k := range []byte("aBcr") {
		if games[ids[k]] < 6 {
			t.Errorf("bot %c played %d games, fewer than a placement", k, games[ids[k]])
		}
	}
}

// blockingPlayer holds every game until the loop's context ends.
type blockingPlayer struct {
	started chan struct{}
	mu      sync.Mutex
	ended   bool
}

func (p *blockingPlayer) Play(ctx context.Context, game string, g arena.Game) error {
	p.started <- struct{}{}
	<-ctx.Done()
	p.mu.Lock()
	p.ended = true
	p.mu.Unlock()
	return ctx.Err()
}

// At the deadline (the end of its context) the loop stops choosing games
// and returns once the games under way have ended.
func TestLoopStopsAtTheDeadline(t *testing.T) {
	d, _ := classDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := &blockingPlayer{started: make(chan struct{}, 8)}
	done := make(chan struct{})
	go func() {
		(&arena.Loop{Source: d, Player: p, Games: []string{"virus"}, Parallel: 2}).Run(ctx)
		close(done)
	}()
	<-p.started
	<-p.started
	cancel()
	<-done
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended {
		t.Error("Run returned before the games under way ended")
	}
	if n := len(p.started); n != 0 {
		t.Errorf("%d games started after the deadline", n)
	}
}

// holdingPlayer notes how many times the loop had asked Hold when each
// game began.
type holdingPlayer struct {
	fakePlayer
	asked *atomic.Int64
	at    []int64
}

func (p *holdingPlayer) Play(ctx context.Context, game string, g arena.Game) error {
	p.mu.Lock()
	p.at = append(p.at, p.asked.Load())
	p.mu.Unlock()
	return p.fakePlayer.Play(ctx, game, g)
}

// While Hold says so (checks wait), no arena game starts; the loop asks
// again and plays once it is let go.
func TestLoopHolds(t *testing.T) {
	d, _ := classDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var asked atomic.Int64
	p := &holdingPlayer{fakePlayer: fakePlayer{db: d, cancel: cancel, stop: 3}, asked: &asked}
	hold := func() bool { return asked.Add(1) <= 3 }
	(&arena.Loop{Source: d, Player: p, Games: []string{"virus"}, Idle: time.Millisecond, Hold: hold}).Run(ctx)
	if len(p.at) < 3 {
		t.Fatalf("%d games played, want 3", len(p.at))
	}
	if p.at[0] != 4 {
		t.Errorf("the first game began after %d questions to Hold, want 4: three held, the fourth let go", p.at[0])
	}
}
