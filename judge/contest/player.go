package contest

import (
	"botjudge/games"
	"botjudge/judge/eta"
	"botjudge/results"
	"botjudge/sandbox"
	"context"
	"fmt"
	"sync"
	"time"
)

// gamePlayer plays the scheduled games of one tournament on a pool of workers.
type gamePlayer struct {
	pipe   Pipeline
	store  Store
	cfg    Config
	tid    int64
	seats  []Seat
	ids    []int64
	labels map[string]string
	report func(Event)
	total  int
	// skipped games were recorded before this run.
	skipped int

	began time.Time // of the games, after the checks
	// suggest, when set, is called once with the games left and the pace
	// of this run's games after its first minMeasured, when nothing
	// measured it before the run.
	suggest func(left int, pace time.Duration)

	mu          sync.Mutex
	done        int
	lastFailure string
	workers     int
	share       *Share
	// finished sums up the games this run finished, running its games in
	// progress by key: what the estimate of the time left counts.
	finished eta.Input
	running  map[string]*eta.Running
	starts   map[string]time.Time
}

// prepared is a scheduled game whose bots are started, or failed to start.
type prepared struct {
	plan     Planned
	fixture  Fixture
	sessions []sandbox.Session
	err      error
	closed   func() // gives back the room its bots took in the share
}

// playAll plays todo and returns the games that failed for the judge's own
// reasons. The next games' containers start while the current games play, and
// finished games' containers are removed in the background, so a game's fixed
// cost is hidden behind the others' moves. At most `workers` games wait
// ready, which bounds the containers alive at once.
func (g *gamePlayer) playAll(ctx context.Context, todo []Planned, workers int) []Planned {
	ready := g.startAll(ctx, todo, workers)
	var failed []Planned
	var players, closing sync.WaitGroup
	for range workers {
		players.Add(1)
		go func() {
			defer players.Done()
			for pr := range ready {
				err := pr.err
				if err == nil && ctx.Err() == nil {
					var done func()
					if done, err = g.share.play(ctx); err == nil {
						err = g.playOne(ctx, pr)
						done()
					}
				}
				closing.Add(1)
				go func() {
					defer closing.Done()
					closeAll(ctx, pr.sessions)
					if pr.closed != nil {
						pr.closed()
					}
				}()
				if err != nil && ctx.Err() == nil {
					g.mu.Lock()
					failed = append(failed, pr.plan)
					g.mu.Unlock()
					g.failure(ctx, pr, err)
				}
			}
		}()
	}
	players.Wait()
	closing.Wait()
	return failed
}

// startAll starts the games' seats ahead of their turn, `workers` games at
// a time, and hands each on as its seats are up; the channel closes after
// the last, or once ctx ends.
func (g *gamePlayer) startAll(ctx context.Context, todo []Planned, workers int) <-chan prepared {
	jobs := make(chan Planned)
	ready := make(chan prepared, workers)
	var starters sync.WaitGroup
	for range workers {
		starters.Add(1)
		go func() {
			defer starters.Done()
			for p := range jobs {
				ready <- g.startGame(ctx, p)
			}
		}()
	}
	go func() {
		for _, p := range todo {
			if ctx.Err() != nil {
				break
			}
			jobs <- p
		}
		close(jobs)
		starters.Wait()
		close(ready)
	}()
	return ready
}

// startGame starts a game's seats once the share lets it.
func (g *gamePlayer) startGame(ctx context.Context, p Planned) prepared {
	f := g.fixture(p)
	closed, err := g.share.start(ctx)
	if err != nil {
		return prepared{plan: p, fixture: f, err: err}
	}
	sessions, err := g.pipe.Start(ctx, f)
	return prepared{plan: p, fixture: f, sessions: sessions, err: err, closed: closed}
}

// failure records a game the judge failed to play: never scored, played
// again.
func (g *gamePlayer) failure(ctx context.Context, pr prepared, err error) {
	g.mu.Lock()
	g.lastFailure = err.Error()
	g.mu.Unlock()
	g.store.RecordFailure(context.WithoutCancel(ctx), g.tid, pr.plan.Key, err.Error())
	g.report(Event{Kind: "failure", Text: fmt.Sprintf("%s: not played, will retry: %v", describe(pr.fixture.Seats), err)})
}

// fixture is the planned game p as the pipeline plays it.
func (g *gamePlayer) fixture(p Planned) Fixture {
	f := Fixture{Tournament: g.tid, Key: p.Key, Round: p.Round, Seed: p.Seed, Labels: g.labels}
	for _, idx := range p.Seats {
		f.Seats = append(f.Seats, g.seats[idx])
		f.BotIDs = append(f.BotIDs, g.ids[idx])
	}
	return f
}

func (g *gamePlayer) playOne(ctx context.Context, pr prepared) error {
	p, f := pr.plan, pr.fixture
	live := liveWriter{store: g.store, base: results.Live{TournamentID: g.tid, Key: p.Key, Players: f.players(), Started: time.Now()}}
	observe := live.observe(ctx)
	running := g.begin(p)
	defer g.end(p)
	rec, played, err := g.pipe.PlayStarted(ctx, f, pr.sessions, func(s games.State, steps []results.Move) {
		g.mu.Lock()
		running.Moves += len(steps)
		g.mu.Unlock()
		observe(s, steps)
	})
	if err == nil {
		err = Save(ctx, g.store, rec)
	}
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.done++
	done, ran := g.done, g.done-g.skipped
	g.finished.Finished++
	g.finished.FinishedTime += played.Finished.Sub(played.Started)
	g.finished.FinishedMoves += len(played.Steps)
	delete(g.running, p.Key)
	pace := g.pace(ran)
	g.mu.Unlock()
	left := g.share.estimate(g)
	if ran == minMeasured && g.suggest != nil {
		g.suggest(g.total-done, pace)
	}
	g.report(Event{Kind: "game", Game: &rec, Done: done, Total: g.total, Elapsed: played.Finished.Sub(played.Started), Left: left})
	return nil
}

func describe(seats []Seat) string {
	s := ""
	for i, st := range seats {
		if i > 0 {
			s += " vs "
		}
		s += st.Name
	}
	return s
}
