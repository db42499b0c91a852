package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"botjudge/games"
	"botjudge/judge/eta"
	"botjudge/results"
)

// Store is what a tournament needs of the results database.
type Store interface {
	AddBot(ctx context.Context, b results.Bot) (results.Bot, error)
	EnsureTournament(ctx context.Context, game string, seed int64, settings json.RawMessage) (results.Tournament, error)
	StartRun(ctx context.Context, tournamentID int64, run results.Run) error
	Entries(ctx context.Context, tournamentID int64) ([]results.Entry, error)
	SaveCheck(ctx context.Context, c results.Check) error
	PlayedKeys(ctx context.Context, tournamentID int64) (map[string]bool, error)
	GameTime(ctx context.Context, game string) (mean time.Duration, n int, err error)
	Games(ctx context.Context, tournamentID int64, f results.GameFilter) ([]results.Game, error)
	Byes(ctx context.Context, tournamentID int64) ([]results.Bye, error)
	SetBye(ctx context.Context, tournamentID int64, b results.Bye) error
	SaveGame(ctx context.Context, g results.Game) (int64, error)
	RecordFailure(ctx context.Context, tournamentID int64, key, message string) error
	PutLive(ctx context.Context, l results.Live) error
	ClearLive(ctx context.Context, tournamentID int64) error
	FinishRun(ctx context.Context, tournamentID int64) error
}

// Run discovers, checks and plays one game folder's tournament. Games already
// recorded for the same bot versions and settings are not played again. A
// cancelled ctx stops it between moves; nothing half-played is recorded.
//
// It runs in named stages, each a method of tour: discover the bots, open
// the tournament, stage and build the bots, plan the games, start the run,
// check the bots, prepare the player, then play the games stage by stage
// and finish.
func Run(ctx context.Context, run Runner, store Store, cfg Config, report func(Event)) (Summary, error) {
	if report == nil {
		report = func(Event) {}
	}
	t := &tour{run: run, store: store, cfg: cfg.withDefaults(), report: report}
	t.pipe = t.cfg.Pipeline(run)
	if t.cfg.Share != nil {
		t.part = t.cfg.Share.join()
		defer t.cfg.Share.leave(t.part)
	}
	for _, stage := range []func(context.Context) error{t.discover, t.open, t.build, t.plan, t.start, t.check, t.prepare} {
		if err := stage(ctx); err != nil {
			return t.sum, err
		}
	}
	stopWatch := t.g.watch(ctx, waitingEvery)
	defer stopWatch()
	todo, err := t.play(ctx)
	if err != nil {
		return t.sum, err
	}
	return t.sum, t.finish(ctx, todo)
}

// tour is one run of a tournament: what each of Run's stages finds, for the
// stages after it.
type tour struct {
	run    Runner
	store  Store
	cfg    Config
	report func(Event)
	sum    Summary

	entries []Entry
	seats   []Seat
	ids     []int64 // the bots' rows, by entry
	tid     int64

	pipe    Pipeline
	sched   scheduler
	rounds  int
	total   int // games planned
	workers int
	share   *Share
	part    *part // of the share
	labels  map[string]string

	g *gamePlayer
	// suggestNow, when set, suggests swiss from a pace measured before
	// the run, before its first game.
	suggestNow func()
	started    bool
}

// discover lists the game folder's bots.
func (t *tour) discover(ctx context.Context) error {
	entries, notices, err := Discover(t.cfg.Dir, t.cfg.Rules.Protocol(), t.cfg.URLBots)
	if err != nil {
		return err
	}
	t.entries, t.sum.Notices = entries, notices
	for _, n := range notices {
		t.report(Event{Kind: "notice", Text: n.String()})
	}
	return nil
}

// open finds or makes the tournament of these settings.
func (t *tour) open(ctx context.Context) error {
	cfg := t.cfg
	set, err := json.Marshal(settings{Limits: limitsOf(cfg.Limits), GiveUp: cfg.Policy.GiveUp, BudgetMS: cfg.Policy.Budget.Milliseconds(),
		Format: cfg.Format, Version: games.Version(cfg.Rules)})
	if err != nil {
		return err
	}
	tr, err := t.store.EnsureTournament(ctx, cfg.Rules.Name(), cfg.Seed, set)
	if err != nil {
		return err
	}
	t.sum.Tournament, t.tid = tr, tr.ID
	return nil
}

// build stages every bot, builds the compiled ones and records them all.
func (t *tour) build(ctx context.Context) error {
	t.seats = make([]Seat, len(t.entries))
	t.ids = make([]int64, len(t.entries))
	for i, e := range t.entries {
		seat, err := t.pipe.Seat(ctx, e)
		if err != nil {
			return err
		}
		if b := seat.Build; b != nil && !b.Reused {
			t.report(Event{Kind: "build", Name: e.Name, Elapsed: b.Elapsed, Text: b.Fault.Plain()})
		}
		b, err := t.store.AddBot(ctx, results.Bot{Game: t.cfg.Rules.Name(), Name: e.Name, SHA256: e.SHA256, Path: e.Source})
		if err != nil {
			return err
		}
		t.ids[i], t.seats[i] = b.ID, seat
	}
	return nil
}

// plan chooses the format's scheduler and counts the rounds and games.
func (t *tour) plan(ctx context.Context) error {
	f := field{rules: t.cfg.Rules, entries: t.entries, ids: t.ids, seed: t.cfg.Seed, store: t.store, tid: t.tid}
	var err error
	if t.sched, t.rounds, err = schedulerFor(t.cfg.Format, f, t.cfg.Rounds); err != nil {
		return err
	}
	t.total = t.sched.games()
	return nil
}

// start records the run, and sets the games at once and the containers'
// labels.
func (t *tour) start(ctx context.Context) error {
	cfg := t.cfg
	if err := t.store.StartRun(ctx, t.tid, results.Run{BotIDs: t.ids, Planned: t.total, Rounds: t.rounds, Scheme: cfg.Scheme, Format: string(cfg.Format)}); err != nil {
		return err
	}
	if err := t.store.ClearLive(ctx, t.tid); err != nil {
		return err
	}
	t.workers = WorkersFor(ctx, t.run, cfg, t.sched.seats())
	t.share = cfg.Share
	if t.share == nil {
		t.share = NewShare(t.workers)
	}
	t.workers = min(t.workers, t.share.Workers())
	t.labels = map[string]string{"botjudge.game": cfg.Rules.Name(), "botjudge.tournament": strconv.FormatInt(t.tid, 10)}
	for k, v := range cfg.Labels {
		t.labels[k] = v
	}
	return nil
}

// check checks, workers at once, the bots not checked before.
func (t *tour) check(ctx context.Context) error {
	entries, err := t.store.Entries(ctx, t.tid)
	if err != nil {
		return err
	}
	checked := map[int64]bool{}
	for _, e := range entries {
		checked[e.Bot.ID] = !e.Check.At.IsZero()
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i, seat := range t.seats {
		if checked[t.ids[i]] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := t.share.play(ctx)
			if err == nil {
				defer done()
				err = t.checkOne(ctx, seat, t.ids[i])
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = fmt.Errorf("checking %s: %w", seat.Name, err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return firstErr
}

func (t *tour) checkOne(ctx context.Context, seat Seat, id int64) error {
	res, err := Check(ctx, t.run, t.cfg.Rules, seat, t.cfg.Limits, t.labels)
	if err != nil {
		return err
	}
	c := results.Check{BotID: id, OK: res.OK, Verdict: string(res.Verdict), Detail: res.Detail, Log: res.Log, At: time.Now()}
	if err := t.store.SaveCheck(ctx, c); err != nil {
		return err
	}
	t.report(Event{Kind: "check", Name: seat.Name, Check: &c, Elapsed: res.Elapsed})
	return nil
}

// prepare makes the player of the games and, for a round robin too long
// for a lesson, its suggestion of swiss: on the pace of the games of this
// game stored before, or else of this run's first games.
func (t *tour) prepare(ctx context.Context) error {
	t.g = &gamePlayer{pipe: t.pipe, store: t.store, cfg: t.cfg, tid: t.tid, seats: t.seats, ids: t.ids, labels: t.labels, report: t.report,
		total: t.total, workers: t.workers, share: t.share, running: map[string]*eta.Running{}, starts: map[string]time.Time{}}
	if t.part == nil { // its own share
		t.part = t.share.join()
	}
	t.share.plays(t.part, t.g)
	if !t.sched.suggests() {
		return nil
	}
	n, legs := len(t.entries), games.DefaultRounds(t.cfg.Rules)
	suggest := func(left int, pace time.Duration, how string) {
		if line := suggestSwiss(n, left, legs, pace, how); line != "" {
			t.report(Event{Kind: "suggest", Text: line})
		}
	}
	mean, measured, err := t.store.GameTime(ctx, t.cfg.Rules.Name())
	if err != nil {
		return err
	}
	if measured >= minMeasured {
		t.suggestNow = func() {
			suggest(t.total-t.g.done, mean/time.Duration(t.workers), fmt.Sprintf("%d at once, measured on %d games before", t.workers, measured))
		}
	} else {
		t.g.suggest = func(left int, pace time.Duration) { suggest(left, pace, "at the pace of this run's first games") }
	}
	return nil
}

// play plays the games stage by stage, the ones recorded before left out,
// and returns those the judge failed to play. A game the judge failed to
// play goes back in the queue for another pass, up to cfg.Retries times;
// bots are never scored for the judge's failures.
func (t *tour) play(ctx context.Context) ([]Planned, error) {
	var todo []Planned
	for k := 1; k <= t.sched.stages() && ctx.Err() == nil; k++ {
		planned, err := t.sched.next(ctx, k)
		if err != nil {
			return nil, err
		}
		if todo, err = t.unplayed(ctx, planned); err != nil {
			return nil, err
		}
		if len(todo) == 0 {
			continue
		}
		if !t.started {
			t.begin(todo)
		}
		todo = spread(todo)
		for attempt := 0; attempt <= t.cfg.Retries && len(todo) > 0 && ctx.Err() == nil; attempt++ {
			todo = t.g.playAll(ctx, todo, t.workers)
		}
		if len(todo) > 0 {
			break // the next swiss round needs this one's results
		}
	}
	return todo, nil
}

// unplayed is planned without the games recorded before, which count as
// done.
func (t *tour) unplayed(ctx context.Context, planned []Planned) ([]Planned, error) {
	played, err := t.store.PlayedKeys(ctx, t.tid)
	if err != nil {
		return nil, err
	}
	var todo []Planned
	for _, p := range planned {
		if !played[p.Key] {
			todo = append(todo, p)
		}
	}
	t.g.mu.Lock()
	t.g.done += len(planned) - len(todo)
	t.g.skipped += len(planned) - len(todo)
	t.g.mu.Unlock()
	t.sum.Skipped = t.g.skipped
	return todo, nil
}

// begin tells what is left to play, once: before the first game, or at the
// end when there was none.
func (t *tour) begin(todo []Planned) {
	t.started = true
	t.g.began = time.Now()
	if t.suggestNow != nil && len(todo) > 0 {
		t.suggestNow()
	}
	left := t.total - t.g.done
	e := Event{Kind: "start", Done: t.g.done, Total: t.total, Text: fmt.Sprintf("%d games to play, %d already recorded", left, t.g.done)}
	if t.cfg.Share == nil { // shared, its games may wait for others': no bound of its own
		e.Worst = worstCase(t.cfg, t.sched.worst(todo, left), t.workers)
	}
	t.report(e)
}

// finish sums the run up, with todo the games the judge failed to play,
// and leaves nothing behind: the runner's kept containers, the live games.
func (t *tour) finish(ctx context.Context, todo []Planned) error {
	if !t.started {
		t.begin(nil)
	}
	t.sum.Played = t.g.done - t.sum.Skipped
	t.sum.Failed = len(todo)
	// The containers kept for these bots' next games are of no more use.
	var drainErr error
	if t.cfg.Share == nil {
		drainErr = t.run.Drain(context.WithoutCancel(ctx))
	}
	// Nothing plays any more: a game stopped by Ctrl-C or by the judge's
	// failure must not stay on the screen as live until the next run.
	clearErr := t.store.ClearLive(context.WithoutCancel(ctx), t.tid)
	if err := ctx.Err(); err != nil {
		return err
	}
	if t.sum.Failed > 0 {
		return fmt.Errorf("%d games could not be played because the judge failed (%s); fix it and run again: recorded games are kept", t.sum.Failed, t.g.lastFailure)
	}
	if err := errors.Join(clearErr, drainErr); err != nil {
		return err
	}
	t.report(Event{Kind: "done", Done: t.g.done, Total: t.total})
	return t.store.FinishRun(context.WithoutCancel(ctx), t.tid)
}
