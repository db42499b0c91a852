package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"botjudge/games"
	"botjudge/judge/eta"
	"botjudge/results"
	"botjudge/sandbox"
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

// Config is one tournament: a game folder and its settings.
type Config struct {
	Rules     games.Rules
	Dir       string // submissions/<game>
	StageRoot string // where bots are copied before they run
	Rounds    int
	Format    Format // "" is DefaultConfig's
	Seed      int64
	Scheme    results.Scheme
	Limits    sandbox.Limits
	// Build bounds each compiled bot's build; zero means DefaultConfig's.
	Build   sandbox.BuildLimits
	Policy  Policy // the time a broken bot may cost
	Workers int    // games at once; 0 means DefaultWorkers
	// Share, when set, is the workers this tournament shares with others
	// run at the same time; Workers then bounds its own part of them. Its
	// owner drains the runner at the end, as the other tournaments may
	// still use the containers kept waiting.
	Share   *Share
	Image   string // runtime image digest, recorded with every game
	Labels  map[string]string
	Retries int // attempts of a game that failed for the judge's own reasons; 0 means DefaultConfig's
	// URLBots lets bots reached by URL (name.url) play: they are not
	// sandboxed, so only the organiser can allow them.
	URLBots bool
}

// settings is what makes two runs the same tournament: change any of these
// and the games are played again. The rounds and the point scheme are not
// here: more rounds only add games, and another scheme only recomputes the
// standings.
type settings struct {
	Limits   limitsJSON `json:"limits"`
	GiveUp   int        `json:"give_up"`
	BudgetMS int64      `json:"budget_ms,omitempty"`
	Format   Format     `json:"format"`
	Version  string     `json:"version,omitempty"` // of the rules
}

type limitsJSON struct {
	MoveMS    int64   `json:"move_ms"`
	StartupMS int64   `json:"startup_ms"`
	Memory    int64   `json:"memory"`
	CPUs      float64 `json:"cpus"`
	Pids      int64   `json:"pids"`
	Answer    int     `json:"answer"`
	Log       int     `json:"log"`
	Tmp       int64   `json:"tmp"`
}

func limitsOf(l sandbox.Limits) limitsJSON {
	return limitsJSON{l.Move.Milliseconds(), l.Startup.Milliseconds(), l.Memory, l.CPUs, l.Pids, l.Answer, l.Log, l.Tmp}
}

// Event reports progress to whoever shows it (terminal, tests).
type Event struct {
	// "waiting" says, when no game ended for a while, how the games in
	// progress stand and the time left.
	Kind    string // "notice", "build", "check", "suggest", "game", "waiting", "failure", "start", "done"
	Text    string
	Done    int // games recorded so far in this tournament
	Total   int
	Game    *results.Game
	Check   *results.Check
	Name    string
	Elapsed time.Duration
	// Left estimates the time to the end of the run ("game"), from the
	// games this run finished and the moves of those in progress. Worst is
	// how long the games to play could last at most ("start"); 0 when the
	// rules do not bound them.
	Left  eta.Estimate
	Worst time.Duration
}

// Summary is what a run did.
type Summary struct {
	Tournament results.Tournament
	Played     int // games played by this run
	Skipped    int // already recorded
	Failed     int // not played because the judge failed; run again
	Notices    []Notice
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

	schedule []Planned // every game, unless swiss: round by round (stage)
	rounds   int
	legs     int // of each swiss pairing
	total    int // games planned
	workers  int
	share    *Share
	part     *part // of the share
	labels   map[string]string

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
		path, err := Stage(t.cfg.StageRoot, e)
		if err != nil {
			return err
		}
		seat, err := BuildSeat(ctx, t.run, Seat{Name: e.Name, Bot: sandbox.Bot{Name: e.Name, Path: path, Protocol: t.cfg.Rules.Protocol()}}, t.cfg.Build)
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

// plan counts the rounds and the games: the whole schedule, or for swiss
// only their number, each round being planned from the one before.
func (t *tour) plan(ctx context.Context) error {
	minSeats, maxSeats := t.cfg.Rules.Seats()
	t.rounds = t.cfg.Rounds
	if t.cfg.Format == Swiss {
		if minSeats > 2 || maxSeats < 2 {
			return fmt.Errorf("this game seats %d to %d bots: it cannot be played in swiss rounds of duels", minSeats, maxSeats)
		}
		if t.rounds <= 0 {
			t.rounds = DefaultRounds(t.cfg.Rules, t.cfg.Format, len(t.entries))
		}
		t.legs = games.DefaultRounds(t.cfg.Rules)
		t.total = swissGames(len(t.entries), t.rounds, t.legs)
		return nil
	}
	if t.rounds <= 0 {
		t.rounds = DefaultRounds(t.cfg.Rules, t.cfg.Format, len(t.entries))
	}
	var err error
	if t.schedule, err = Schedule(t.entries, t.rounds, t.cfg.Seed, t.cfg.Format, minSeats, maxSeats); err != nil {
		return err
	}
	t.total = len(t.schedule)
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
	seats := 2
	if len(t.schedule) > 0 {
		seats = len(t.schedule[0].Seats)
	}
	t.workers = WorkersFor(ctx, t.run, cfg, seats)
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
	t.g = &gamePlayer{run: t.run, store: t.store, cfg: t.cfg, tid: t.tid, seats: t.seats, ids: t.ids, labels: t.labels, report: t.report,
		total: t.total, workers: t.workers, share: t.share, running: map[string]*eta.Running{}, starts: map[string]time.Time{}}
	if t.part == nil { // its own share
		t.part = t.share.join()
	}
	t.share.plays(t.part, t.g)
	minSeats, maxSeats := t.cfg.Rules.Seats()
	if t.cfg.Format != Duels || minSeats > 2 || maxSeats < 2 {
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

// stages is how many stages the games are played in: one for a schedule
// known in advance, one a round for swiss.
func (t *tour) stages() int {
	switch {
	case t.cfg.Format != Swiss:
		return 1
	case len(t.entries) < 2:
		return 0
	}
	return t.rounds
}

// stage plans the games of stage k: the whole schedule at once, or swiss
// round k from the results stored so far, so that a stopped swiss
// tournament goes on where it was.
func (t *tour) stage(ctx context.Context, k int) ([]Planned, error) {
	if t.cfg.Format != Swiss {
		return t.schedule, nil
	}
	stored, err := t.store.Games(ctx, t.tid, results.GameFilter{})
	if err != nil {
		return nil, err
	}
	byes, err := t.store.Byes(ctx, t.tid)
	if err != nil {
		return nil, err
	}
	round, bye := swissRound(t.entries, t.ids, k, t.legs, t.cfg.Seed, stored, byes)
	if bye >= 0 {
		err = t.store.SetBye(ctx, t.tid, results.Bye{Round: k, BotID: t.ids[bye], Games: 2 * t.legs})
	}
	return round, err
}

// play plays the games stage by stage, the ones recorded before left out,
// and returns those the judge failed to play. A game the judge failed to
// play goes back in the queue for another pass, up to cfg.Retries times;
// bots are never scored for the judge's failures.
func (t *tour) play(ctx context.Context) ([]Planned, error) {
	var todo []Planned
	for k := 1; k <= t.stages() && ctx.Err() == nil; k++ {
		planned, err := t.stage(ctx, k)
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
	worst := todo
	if t.cfg.Format == Swiss { // the rounds to come are duels too
		worst = make([]Planned, left)
		for i := range worst {
			worst[i].Seats = []int{0, 1}
		}
	}
	e := Event{Kind: "start", Done: t.g.done, Total: t.total, Text: fmt.Sprintf("%d games to play, %d already recorded", left, t.g.done)}
	if t.cfg.Share == nil { // shared, its games may wait for others': no bound of its own
		e.Worst = worstCase(t.cfg, worst, t.workers)
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

// gamePlayer plays the scheduled games of one tournament on a pool of workers.
type gamePlayer struct {
	run    Runner
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

// minMeasured is how many games measure a pace well enough to project a
// tournament's length from it.
const minMeasured = 6

// worstCase is how long the games of todo could last on workers at once if
// every bot waited as long as it may on every request: the bound the rules
// give on requests per seat times the move's wall-clock backstop, twice its
// limit (SPEC §5). A budget does not shorten it: it counts charged time,
// CPU, which a bot that waits does not use. 0 when the rules give no bound.
func worstCase(cfg Config, todo []Planned, workers int) time.Duration {
	b, ok := cfg.Rules.(games.Bounded)
	if !ok || workers <= 0 {
		return 0
	}
	var total time.Duration
	for _, p := range todo {
		seat := time.Duration(b.MaxRequests(len(p.Seats))) * 2 * cfg.Limits.Move
		total += seat * time.Duration(len(p.Seats))
	}
	return total / time.Duration(workers)
}

// prepared is a scheduled game whose bots are started, or failed to start.
type prepared struct {
	plan     Planned
	seats    []Seat
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
	seats := g.seatsOf(p)
	closed, err := g.share.start(ctx)
	if err != nil {
		return prepared{plan: p, seats: seats, err: err}
	}
	sessions, err := StartSeats(ctx, g.run, seats, g.cfg.Limits, g.labelsOf(p))
	return prepared{plan: p, seats: seats, sessions: sessions, err: err, closed: closed}
}

// failure records a game the judge failed to play: never scored, played
// again.
func (g *gamePlayer) failure(ctx context.Context, pr prepared, err error) {
	g.mu.Lock()
	g.lastFailure = err.Error()
	g.mu.Unlock()
	g.store.RecordFailure(context.WithoutCancel(ctx), g.tid, pr.plan.Key, err.Error())
	g.report(Event{Kind: "failure", Text: fmt.Sprintf("%s: not played, will retry: %v", describe(pr.seats), err)})
}

func (g *gamePlayer) seatsOf(p Planned) []Seat {
	seats := make([]Seat, len(p.Seats))
	for i, idx := range p.Seats {
		seats[i] = g.seats[idx]
	}
	return seats
}

func (g *gamePlayer) labelsOf(p Planned) map[string]string {
	labels := map[string]string{sandbox.LabelGameKey: p.Key}
	for k, v := range g.labels {
		labels[k] = v
	}
	return labels
}

func (g *gamePlayer) playOne(ctx context.Context, pr prepared) error {
	p := pr.plan
	players := make([]results.Player, len(p.Seats))
	for i, idx := range p.Seats {
		players[i] = results.Player{Seat: i, BotID: g.ids[idx], Name: pr.seats[i].Name}
	}
	live := liveWriter{store: g.store, base: results.Live{TournamentID: g.tid, Key: p.Key, Players: players, Started: time.Now()}}
	observe := live.observe(ctx)
	running := g.begin(p)
	defer g.end(p)
	played, err := PlaySessions(ctx, pr.sessions, Match{Rules: g.cfg.Rules, Seed: p.Seed, Seats: pr.seats, Policy: g.cfg.Policy}, func(s games.State, steps []results.Move) {
		g.mu.Lock()
		running.Moves += len(steps)
		g.mu.Unlock()
		observe(s, steps)
	})
	if err != nil {
		return err
	}
	rec := record(g.tid, p, players, played, g.cfg)
	// The game is finished: record it even if the run is being stopped, so
	// the work is not lost.
	if _, err := g.store.SaveGame(context.WithoutCancel(ctx), rec); err != nil && !errors.Is(err, results.ErrDuplicate) {
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

// pace is the time a game of this tournament takes on its workers, after
// ran games of this run; g.mu is held. Played beside other tournaments, it
// is its games' own time, not the wall clock's, which theirs took part of.
func (g *gamePlayer) pace(ran int) time.Duration {
	if g.cfg.Share != nil {
		return g.finished.FinishedTime / time.Duration(max(g.finished.Finished*g.workers, 1))
	}
	return time.Since(g.began) / time.Duration(max(ran, 1))
}

// waitingEvery is how long the terminal may stay silent while games play:
// a long game (a Tron duel of thousands of turns) must not leave the last
// estimate on screen for minutes.
const waitingEvery = time.Minute

// watch reports a "waiting" event whenever no game ended for every, until
// the returned function is called.
func (g *gamePlayer) watch(ctx context.Context, every time.Duration) func() {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(every / 4)
		defer tick.Stop()
		last := time.Now()
		seen := -1
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			g.mu.Lock()
			if g.done != seen {
				seen, last = g.done, time.Now()
			}
			quiet, running := time.Since(last) >= every, len(g.running)
			longest := 0
			for _, r := range g.running {
				longest = max(longest, r.Moves)
			}
			if quiet && running > 0 {
				last = time.Now()
			}
			g.mu.Unlock()
			if quiet && running > 0 {
				g.report(Event{Kind: "waiting", Done: seen, Total: g.total, Left: g.share.estimate(g),
					Text: fmt.Sprintf("games in progress: %d, the longest at move %d", running, longest)})
			}
		}
	}()
	return func() { close(done) }
}

// begin counts p as a game in progress, with the rules' bound on its moves.
func (g *gamePlayer) begin(p Planned) *eta.Running {
	r := &eta.Running{}
	if b, ok := g.cfg.Rules.(games.Bounded); ok {
		r.MaxMoves = b.MaxRequests(len(p.Seats)) * len(p.Seats)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running[p.Key] = r
	g.starts[p.Key] = time.Now()
	return r
}

// end forgets p as a game in progress, finished or not.
func (g *gamePlayer) end(p Planned) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.running, p.Key)
	delete(g.starts, p.Key)
}

// input is what the estimate of the time left counts now: the games this
// run finished, those in progress, and those to come.
func (g *gamePlayer) input() eta.Input {
	g.mu.Lock()
	defer g.mu.Unlock()
	in := g.finished
	in.Workers = g.workers
	in.Running = nil
	for key, r := range g.running {
		run := *r
		run.Elapsed = time.Since(g.starts[key])
		in.Running = append(in.Running, run)
	}
	in.Queued = max(g.total-g.done-len(in.Running), 0)
	return in
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

// record turns a played game into its database row.
func record(tid int64, p Planned, players []results.Player, played Played, cfg Config) results.Game {
	return Record(tid, p.Key, p.Round, p.Seed, players, played, cfg.Limits, cfg.Image)
}

// Record turns a game played outside a tournament's schedule (a hand-in's
// sparring game) into its database row: players name the seats' bots.
func Record(tid int64, key string, round int, seed int64, players []results.Player, played Played, limits sandbox.Limits, image string) results.Game {
	out, _ := json.Marshal(played.Outcome)
	lim, _ := json.Marshal(limitsOf(limits))
	g := results.Game{
		TournamentID: tid, Key: key, Round: round, Seed: seed,
		Reason: played.Outcome.Reason, Outcome: out,
		Started: played.Started, Finished: played.Finished,
		Image: image, Limits: lim,
	}
	for i := range players {
		pl := players[i]
		pl.Rank = played.Outcome.Rank[i]
		if i < len(played.Outcome.Score) {
			pl.Score = played.Outcome.Score[i]
		}
		pl.Log = played.Logs[i]
		pl.Restarts = played.Restarts[i]
		g.Players = append(g.Players, pl)
	}
	g.Moves = played.Steps
	g.Tally() // for the progress line; SaveGame stores the same count
	return g
}

// liveWriter keeps a game-in-progress row up to date for a screen running in
// another process, at most a few times a second so that fast bots are not
// slowed by the database. Each write costs the same whatever the length of
// the game: the row holds the position and the last step only.
type liveWriter struct {
	store Store
	base  results.Live
	last  time.Time
}

func (l *liveWriter) observe(ctx context.Context) Observer {
	return func(s games.State, steps []results.Move) {
		l.base.Moves += len(steps)
		if time.Since(l.last) < 250*time.Millisecond {
			return
		}
		l.last = time.Now()
		l.base.Last = append(l.base.Last[:0], steps...)
		l.base.View = s.View()
		l.base.Scores = s.Scores()
		l.base.Updated = l.last
		if err := l.store.PutLive(ctx, l.base); err != nil && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "judge: live view not updated: %v\n", err)
		}
	}
}
