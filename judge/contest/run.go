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
	"botjudge/games/fault"
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
	Format    Format // "" is Duels
	Seed      int64
	Scheme    results.Scheme
	Limits    sandbox.Limits
	// Build bounds each compiled bot's build; zero means
	// sandbox.DefaultBuildLimits.
	Build   sandbox.BuildLimits
	Policy  Policy // the time a broken bot may cost
	Workers int    // games at once; 0 means DefaultWorkers
	Image   string // runtime image digest, recorded with every game
	Labels  map[string]string
	Retries int // attempts of a game that failed for the judge's own reasons
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
func Run(ctx context.Context, run Runner, store Store, cfg Config, report func(Event)) (Summary, error) {
	if report == nil {
		report = func(Event) {}
	}
	var sum Summary
	protocol := cfg.Rules.Protocol()
	entries, notices, err := Discover(cfg.Dir, protocol, cfg.URLBots)
	if err != nil {
		return sum, err
	}
	sum.Notices = notices
	for _, n := range notices {
		report(Event{Kind: "notice", Text: n.String()})
	}
	if cfg.Format == "" {
		cfg.Format = Duels
	}
	set, err := json.Marshal(settings{Limits: limitsOf(cfg.Limits), GiveUp: cfg.Policy.GiveUp, BudgetMS: cfg.Policy.Budget.Milliseconds(),
		Format: cfg.Format, Version: games.Version(cfg.Rules)})
	if err != nil {
		return sum, err
	}
	t, err := store.EnsureTournament(ctx, cfg.Rules.Name(), cfg.Seed, set)
	if err != nil {
		return sum, err
	}
	sum.Tournament = t
	seats := make([]Seat, len(entries))
	ids := make([]int64, len(entries))
	if cfg.Build == (sandbox.BuildLimits{}) {
		cfg.Build = sandbox.DefaultBuildLimits()
	}
	for i, e := range entries {
		path, err := Stage(cfg.StageRoot, e)
		if err != nil {
			return sum, err
		}
		seat, err := BuildSeat(ctx, run, Seat{Name: e.Name, Bot: sandbox.Bot{Name: e.Name, Path: path, Protocol: protocol}}, cfg.Build)
		if err != nil {
			return sum, err
		}
		if b := seat.Build; b != nil && !b.Reused {
			report(Event{Kind: "build", Name: e.Name, Elapsed: b.Elapsed, Text: b.Fault.Plain()})
		}
		b, err := store.AddBot(ctx, results.Bot{Game: cfg.Rules.Name(), Name: e.Name, SHA256: e.SHA256, Path: e.Source})
		if err != nil {
			return sum, err
		}
		ids[i] = b.ID
		seats[i] = seat
	}
	minSeats, maxSeats := cfg.Rules.Seats()
	var plan []Planned // every game, unless swiss: round by round below
	var total, legs int
	rounds := cfg.Rounds
	if cfg.Format == Swiss {
		if minSeats > 2 || maxSeats < 2 {
			return sum, fmt.Errorf("this game seats %d to %d bots: it cannot be played in swiss rounds of duels", minSeats, maxSeats)
		}
		if rounds <= 0 {
			rounds = SwissRounds(len(entries))
		}
		legs = games.DefaultRounds(cfg.Rules)
		total = swissGames(len(entries), rounds, legs)
	} else {
		if rounds <= 0 {
			rounds = games.DefaultRounds(cfg.Rules)
		}
		if plan, err = Schedule(entries, rounds, cfg.Seed, cfg.Format, minSeats, maxSeats); err != nil {
			return sum, err
		}
		total = len(plan)
	}
	if err := store.StartRun(ctx, t.ID, results.Run{BotIDs: ids, Planned: total, Rounds: rounds, Scheme: cfg.Scheme, Format: string(cfg.Format)}); err != nil {
		return sum, err
	}
	if err := store.ClearLive(ctx, t.ID); err != nil {
		return sum, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		seats := 2
		if len(plan) > 0 {
			seats = len(plan[0].Seats)
		}
		workers = defaultWorkers(ctx, run, seats, cfg.Limits.Memory)
	}
	labels := map[string]string{"botjudge.game": cfg.Rules.Name(), "botjudge.tournament": strconv.FormatInt(t.ID, 10)}
	for k, v := range cfg.Labels {
		labels[k] = v
	}
	if err := checkAll(ctx, run, store, cfg, t.ID, seats, ids, workers, labels, report); err != nil {
		return sum, err
	}
	// stage plans the games of one stage of the tournament: the whole
	// schedule at once, or one swiss round from the results stored so far,
	// so that a stopped swiss tournament goes on where it was.
	stages := 1
	stage := func(k int) ([]Planned, error) { return plan, nil }
	if cfg.Format == Swiss {
		stages = rounds
		if len(entries) < 2 {
			stages = 0
		}
		stage = func(r int) ([]Planned, error) {
			stored, err := store.Games(ctx, t.ID, results.GameFilter{})
			if err != nil {
				return nil, err
			}
			byes, err := store.Byes(ctx, t.ID)
			if err != nil {
				return nil, err
			}
			round, bye := swissRound(entries, ids, r, legs, cfg.Seed, stored, byes)
			if bye >= 0 {
				err = store.SetBye(ctx, t.ID, results.Bye{Round: r, BotID: ids[bye], Games: 2 * legs})
			}
			return round, err
		}
	}
	g := gamePlayer{run: run, store: store, cfg: cfg, tid: t.ID, seats: seats, ids: ids, labels: labels, report: report, total: total,
		workers: workers, running: map[string]*eta.Running{}, starts: map[string]time.Time{}}
	retries := cfg.Retries
	if retries <= 0 {
		retries = 2
	}
	// A round robin too long for a lesson gets a suggestion of swiss, on
	// the pace of the games of this game stored before, or else of this
	// run's first games.
	var suggestNow func()
	if cfg.Format == Duels && minSeats <= 2 && maxSeats >= 2 {
		n, legs := len(entries), games.DefaultRounds(cfg.Rules)
		suggest := func(left int, pace time.Duration, how string) {
			if line := suggestSwiss(n, left, legs, pace, how); line != "" {
				report(Event{Kind: "suggest", Text: line})
			}
		}
		mean, measured, err := store.GameTime(ctx, cfg.Rules.Name())
		if err != nil {
			return sum, err
		}
		if measured >= minMeasured {
			suggestNow = func() {
				suggest(total-g.done, mean/time.Duration(workers), fmt.Sprintf("%d at once, measured on %d games before", workers, measured))
			}
		} else {
			g.suggest = func(left int, pace time.Duration) { suggest(left, pace, "at the pace of this run's first games") }
		}
	}
	started := false
	// begin tells what is left to play, once: before the first game, or at
	// the end when there was none.
	begin := func(todo []Planned) {
		started = true
		g.began = time.Now()
		if suggestNow != nil && len(todo) > 0 {
			suggestNow()
		}
		left := total - g.done
		worst := todo
		if cfg.Format == Swiss { // the rounds to come are duels too
			worst = make([]Planned, left)
			for i := range worst {
				worst[i].Seats = []int{0, 1}
			}
		}
		report(Event{Kind: "start", Done: g.done, Total: total, Text: fmt.Sprintf("%d games to play, %d already recorded", left, g.done),
			Worst: worstCase(cfg, worst, workers)})
	}
	stopWatch := g.watch(ctx, waitingEvery)
	defer stopWatch()
	var todo []Planned
	for k := 1; k <= stages && ctx.Err() == nil; k++ {
		planned, err := stage(k)
		if err != nil {
			return sum, err
		}
		played, err := store.PlayedKeys(ctx, t.ID)
		if err != nil {
			return sum, err
		}
		todo = todo[:0]
		for _, p := range planned {
			if !played[p.Key] {
				todo = append(todo, p)
			}
		}
		g.mu.Lock()
		g.done += len(planned) - len(todo)
		g.skipped += len(planned) - len(todo)
		g.mu.Unlock()
		sum.Skipped = g.skipped
		if len(todo) == 0 {
			continue
		}
		if !started {
			begin(todo)
		}
		todo = spread(todo)
		// A game the judge failed to play goes back in the queue for
		// another pass; bots are never scored for the judge's failures.
		for attempt := 0; attempt <= retries && len(todo) > 0 && ctx.Err() == nil; attempt++ {
			todo = g.playAll(ctx, todo, workers)
		}
		if len(todo) > 0 {
			break // the next swiss round needs this one's results
		}
	}
	if !started {
		begin(nil)
	}
	sum.Played = g.done - sum.Skipped
	sum.Failed = len(todo)
	// The containers kept for these bots' next games are of no more use.
	drainErr := run.Drain(context.WithoutCancel(ctx))
	// Nothing plays any more: a game stopped by Ctrl-C or by the judge's
	// failure must not stay on the screen as live until the next run.
	clearErr := store.ClearLive(context.WithoutCancel(ctx), t.ID)
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	if sum.Failed > 0 {
		return sum, fmt.Errorf("%d games could not be played because the judge failed (%s); fix it and run again: recorded games are kept", sum.Failed, g.lastFailure)
	}
	if err := errors.Join(clearErr, drainErr); err != nil {
		return sum, err
	}
	report(Event{Kind: "done", Done: g.done, Total: total})
	return sum, store.FinishRun(context.WithoutCancel(ctx), t.ID)
}

func checkAll(ctx context.Context, run Runner, store Store, cfg Config, tid int64, seats []Seat, ids []int64, workers int, labels map[string]string, report func(Event)) error {
	entries, err := store.Entries(ctx, tid)
	if err != nil {
		return err
	}
	checked := map[int64]bool{}
	for _, e := range entries {
		checked[e.Bot.ID] = !e.Check.At.IsZero()
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i, seat := range seats {
		if checked[ids[i]] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := Check(ctx, run, cfg.Rules, seat, cfg.Limits, labels)
			if err == nil {
				c := results.Check{BotID: ids[i], OK: res.OK, Verdict: string(res.Verdict), Detail: res.Detail, Log: res.Log, At: time.Now()}
				if err = store.SaveCheck(ctx, c); err == nil {
					report(Event{Kind: "check", Name: seat.Name, Check: &c, Elapsed: res.Elapsed})
				}
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
}

// playAll plays todo and returns the games that failed for the judge's own
// reasons. The next games' containers start while the current games play, and
// finished games' containers are removed in the background, so a game's fixed
// cost is hidden behind the others' moves. At most `workers` games wait
// ready, which bounds the containers alive at once.
func (g *gamePlayer) playAll(ctx context.Context, todo []Planned, workers int) []Planned {
	jobs := make(chan Planned)
	ready := make(chan prepared, workers)
	var starters sync.WaitGroup
	for range workers {
		starters.Add(1)
		go func() {
			defer starters.Done()
			for p := range jobs {
				seats := g.seatsOf(p)
				sessions, err := StartSeats(ctx, g.run, seats, g.cfg.Limits, g.labelsOf(p))
				ready <- prepared{plan: p, seats: seats, sessions: sessions, err: err}
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
	var failed []Planned
	var players, closing sync.WaitGroup
	for range workers {
		players.Add(1)
		go func() {
			defer players.Done()
			for pr := range ready {
				err := pr.err
				if err == nil && ctx.Err() == nil {
					err = g.playOne(ctx, pr)
				}
				closing.Add(1)
				go func() {
					defer closing.Done()
					closeAll(ctx, pr.sessions)
				}()
				if err != nil && ctx.Err() == nil {
					g.mu.Lock()
					failed = append(failed, pr.plan)
					g.lastFailure = err.Error()
					g.mu.Unlock()
					g.store.RecordFailure(context.WithoutCancel(ctx), g.tid, pr.plan.Key, err.Error())
					g.report(Event{Kind: "failure", Text: fmt.Sprintf("%s: not played, will retry: %v", describe(pr.seats), err)})
				}
			}
		}()
	}
	players.Wait()
	closing.Wait()
	return failed
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
	played, err := PlaySessions(ctx, pr.sessions, Match{Rules: g.cfg.Rules, Seed: p.Seed, Seats: pr.seats, Policy: g.cfg.Policy}, func(s games.State, steps []Step) {
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
	left := g.estimate()
	g.mu.Unlock()
	if ran == minMeasured && g.suggest != nil {
		g.suggest(g.total-done, time.Since(g.began)/time.Duration(ran))
	}
	g.report(Event{Kind: "game", Game: &rec, Done: done, Total: g.total, Elapsed: played.Finished.Sub(played.Started), Left: left})
	return nil
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
			var left eta.Estimate
			if quiet && running > 0 {
				left = g.estimate()
				last = time.Now()
			}
			g.mu.Unlock()
			if quiet && running > 0 {
				g.report(Event{Kind: "waiting", Done: seen, Total: g.total, Left: left,
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

// estimate is the time left now; g.mu is held.
func (g *gamePlayer) estimate() eta.Estimate {
	in := g.finished
	in.Workers = g.workers
	in.Running = in.Running[:0]
	for key, r := range g.running {
		run := *r
		run.Elapsed = time.Since(g.starts[key])
		in.Running = append(in.Running, run)
	}
	in.Queued = max(g.total-g.done-len(in.Running), 0)
	return eta.Of(in)
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
	for _, st := range played.Steps {
		// SaveGame counts faults itself; this copy is for the progress line.
		if st.Verdict.Class() != fault.NoClass {
			g.Players[st.Seat].Faults++
		}
		g.Moves = append(g.Moves, moveRecord(st))
	}
	return g
}

func moveRecord(st Step) results.Move {
	return results.Move{Ply: st.Ply, Seat: st.Seat, Answer: st.Answer, Verdict: st.Verdict, Reason: st.Reason, Detail: st.Detail, Event: st.Event, Elapsed: st.Elapsed, CPU: st.CPU}
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
	return func(s games.State, steps []Step) {
		l.base.Moves += len(steps)
		if time.Since(l.last) < 250*time.Millisecond {
			return
		}
		l.last = time.Now()
		l.base.Last = l.base.Last[:0]
		for _, st := range steps {
			l.base.Last = append(l.base.Last, moveRecord(st))
		}
		l.base.View = s.View()
		l.base.Scores = s.Scores()
		l.base.Updated = l.last
		if err := l.store.PutLive(ctx, l.base); err != nil && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "judge: live view not updated: %v\n", err)
		}
	}
}
