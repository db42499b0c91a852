package screen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/games/phrase"
	"botjudge/judge/eta"
	"botjudge/results"
)

func (s *Server) routeAPI() {
	s.mux.HandleFunc("GET /api/tournaments.json", s.answer(s.tournamentsJSON))
	s.mux.HandleFunc("GET /api/t/{tid}/info.json", s.answer(s.infoJSON))
	standings := table(s, "standings", s.standings, results.WriteStandingsCSV)
	s.mux.HandleFunc("GET /api/t/{tid}/standings.json", standings)
	s.mux.HandleFunc("GET /api/t/{tid}/standings.csv", standings)
	games := table(s, "games", s.games, results.WriteGamesCSV)
	s.mux.HandleFunc("GET /api/t/{tid}/games.json", games)
	s.mux.HandleFunc("GET /api/t/{tid}/games.csv", games)
	s.mux.HandleFunc("GET /api/t/{tid}/crosstable.json", s.answer(s.crosstableJSON))
	s.mux.HandleFunc("GET /api/t/{tid}/pair/{a}/{b}/info.json", s.answer(s.pairJSON))
	s.mux.HandleFunc("GET /api/t/{tid}/bot/{bid}/info.json", s.answer(s.botJSON))
	s.mux.HandleFunc("GET /api/t/{tid}/live.json", s.answer(s.liveJSON))
	s.mux.HandleFunc("GET /api/t/{tid}/events", s.serveEvents)
	s.mux.HandleFunc("GET /api/game/{id}/replay.json", s.answer(s.replayJSON))
	s.mux.HandleFunc("GET /api/game/{id}/record.json", s.serveRecord)
	s.mux.HandleFunc("GET /api/faults.json", s.answer(func(*http.Request) (any, error) { return fault.All(), nil }))
	s.mux.HandleFunc("GET /api/phrases.json", s.answer(func(*http.Request) (any, error) { return phrase.All(), nil }))
	s.mux.HandleFunc("GET /api/events", s.serveEvents)
	s.mux.HandleFunc("GET /api/arena/{file}", s.answer(s.arenaJSON))
	s.mux.HandleFunc("GET /api/arena.json", s.answer(s.arenasJSON))
	s.mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		failJSON(w, http.StatusNotFound, "no such API: "+r.URL.Path)
	})
}

// answer makes the handler of a JSON route: the JSON of h's value, or h's
// error as fail tells it. faults.json is the one list of faults, with
// their classes and words, so that the pages name them as the rest of the
// judge does.
func (s *Server) answer(h func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		if err != nil {
			s.fail(w, err)
			return
		}
		s.writeJSON(w, v)
	}
}

// table makes the handler of a tournament's list: JSON, or on its .csv
// route a CSV file named after the tournament.
func table[T any](s *Server, what string, list func(*http.Request, results.Tournament) ([]T, error), csv func(io.Writer, []T) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, err := s.tournament(r.Context(), r)
		if err != nil {
			s.fail(w, err)
			return
		}
		l, err := list(r, t)
		if err != nil {
			s.fail(w, err)
			return
		}
		if l == nil {
			l = []T{}
		}
		if !strings.HasSuffix(r.Pattern, ".csv") {
			s.writeJSON(w, l)
			return
		}
		attachment(w, t, what)
		if err := csv(w, l); err != nil {
			s.log.Printf("screen: %s csv: %v", what, err)
		}
	}
}

// Info is a tournament with what the pages show around every view.
type Info struct {
	results.Tournament
	Bots     int      `json:"bots"`
	Progress Progress `json:"progress"`
}

// Progress is where a tournament's run stands.
type Progress struct {
	Done    int `json:"done"`
	Planned int `json:"planned"`
	Playing int `json:"playing"`
	// Running is true while a run writes games: it started, did not finish
	// and was seen working in the last minutes (a run that died is not).
	Running  bool `json:"running"`
	Finished bool `json:"finished"`
	// Left is the estimated time to the end in seconds (judge/eta), and
	// LeftKind how sure it is: "about"; "least" when a game in progress
	// runs longer than the others, so that it is at least Left and, when
	// LeftMost is not 0, at most LeftMost; "unknown" before any game of
	// the run finished; "" when not running.
	Left     float64 `json:"left_s,omitempty"`
	LeftMost float64 `json:"left_most_s,omitempty"`
	LeftKind string  `json:"left_kind,omitempty"`
	// LastGame is the id of the newest stored game: when it changes, the
	// pages reload what they show.
	LastGame int64 `json:"last_game"`
}

// idle is how long a run may go without storing or advancing a game before
// the screen stops calling it running.
const idle = 3 * time.Minute

// progressOf is where t stands, from the count of its games (c.Since
// counts those of the current run) and its games in progress. Its time
// left counts the games of beside too, the other tournaments running now:
// they share the machine's workers (a side-by-side `judge run`).
func progressOf(t results.Tournament, c results.GameCount, live []results.Live, now time.Time, beside []eta.Input) Progress {
	p := Progress{Done: c.Games, Planned: t.Planned, Playing: len(live), Finished: !t.Finished.IsZero(), LastGame: c.LastID,
		Running: running(t, c, live, now)}
	if p.Running {
		e := eta.Shared(append([]eta.Input{etaInput(t, c, live, now)}, beside...), 0, 0)
		p.Left, p.LeftMost = e.Left.Seconds(), e.Most.Seconds()
		switch {
		case !e.Known:
			p.LeftKind = "unknown"
		case e.AtLeast:
			p.LeftKind = "least"
		default:
			p.LeftKind = "about"
		}
	}
	return p
}

// running says whether a run writes t's games at now: it started, did not
// finish, has games left and was seen working in the last minutes (a run
// that died is not).
func running(t results.Tournament, c results.GameCount, live []results.Live, now time.Time) bool {
	last := c.LastFinished
	for _, l := range live {
		if l.Updated.After(last) {
			last = l.Updated
		}
	}
	if t.Started.After(last) {
		last = t.Started
	}
	return !t.Started.IsZero() && t.Finished.IsZero() && now.Sub(last) < idle && c.Games < max(t.Planned, 1)
}

// etaInput is what the estimate of the time left counts: the games of the
// current run finished so far, the ones to come, and each game in progress
// with its moves since it started, bounded by the rules when they can.
// The games at once are those in progress, of every tournament running.
func etaInput(t results.Tournament, c results.GameCount, live []results.Live, now time.Time) eta.Input {
	in := eta.Input{Finished: c.Since, FinishedTime: c.SinceTime, FinishedMoves: c.SinceMoves,
		Queued: max(t.Planned-c.Games-len(live), 0)}
	rules, _ := games.Lookup(t.Game)
	bounded, _ := rules.(games.Bounded)
	for _, l := range live {
		r := eta.Running{Moves: l.Moves}
		if !l.Started.IsZero() {
			r.Elapsed = now.Sub(l.Started)
		}
		if bounded != nil {
			r.MaxMoves = bounded.MaxRequests(len(l.Players)) * len(l.Players)
		}
		in.Running = append(in.Running, r)
	}
	return in
}

func (s *Server) tournament(ctx context.Context, r *http.Request) (results.Tournament, error) {
	tid, err := idParam(r, "tid")
	if err != nil {
		return results.Tournament{}, err
	}
	t, err := s.db.Tournament(ctx, tid)
	if err == nil && t.Private {
		// Sparring games of hand-ins are seen one by one, by their students.
		return results.Tournament{}, errNotFound
	}
	return t, err
}

// info is t's card; left says whether its progress has the time left,
// which reads every other tournament running.
func (s *Server) info(ctx context.Context, t results.Tournament, left bool) (Info, error) {
	in := Info{Tournament: t}
	entries, err := s.db.Entries(ctx, t.ID)
	if err != nil {
		return in, err
	}
	in.Bots = len(entries)
	in.Progress, _, err = s.progress(ctx, t, left)
	return in, err
}

// progress reads t's progress, and its games in progress: a count of its
// games, not the games, since every page's header and every poll of its
// events ask for it. left says whether it has the time left.
func (s *Server) progress(ctx context.Context, t results.Tournament, left bool) (Progress, []results.Live, error) {
	c, live, err := s.count(ctx, t)
	if err != nil {
		return Progress{}, nil, err
	}
	now := time.Now()
	var beside []eta.Input
	if left && running(t, c, live, now) {
		if beside, err = s.runningBeside(ctx, t.ID, now); err != nil {
			return Progress{}, nil, err
		}
	}
	p := progressOf(t, c, live, now, beside)
	if !left {
		p.Left, p.LeftMost, p.LeftKind = 0, 0, ""
	}
	return p, live, nil
}

func (s *Server) count(ctx context.Context, t results.Tournament) (results.GameCount, []results.Live, error) {
	c, err := s.db.CountGames(ctx, t.ID, t.Started)
	if err != nil {
		return c, nil, err
	}
	live, err := s.db.Live(ctx, t.ID)
	return c, live, err
}

// runningBeside is what the estimates of the time left count of the
// tournaments running at now other than tid.
func (s *Server) runningBeside(ctx context.Context, tid int64, now time.Time) ([]eta.Input, error) {
	ts, err := s.db.Tournaments(ctx)
	if err != nil {
		return nil, err
	}
	var beside []eta.Input
	for _, t := range ts {
		if t.ID == tid || t.Started.IsZero() || !t.Finished.IsZero() {
			continue
		}
		c, live, err := s.count(ctx, t)
		if err != nil {
			return nil, err
		}
		if running(t, c, live, now) {
			beside = append(beside, etaInput(t, c, live, now))
		}
	}
	return beside, nil
}

func (s *Server) tournamentsJSON(r *http.Request) (any, error) {
	ts, err := s.db.Tournaments(r.Context())
	if err != nil {
		return nil, err
	}
	list := []Info{}
	for _, t := range ts {
		in, err := s.info(r.Context(), t, true)
		if err != nil {
			return nil, err
		}
		list = append(list, in)
	}
	return list, nil
}

func (s *Server) infoJSON(r *http.Request) (any, error) {
	t, err := s.tournament(r.Context(), r)
	if err != nil {
		return nil, err
	}
	return s.info(r.Context(), t, true)
}

// schemeOf is the tournament's point scheme, or the one the URL's points
// parameter names (as `judge standings --points` does).
func schemeOf(r *http.Request, t results.Tournament) (results.Scheme, error) {
	p := r.URL.Query().Get("points")
	if p == "" {
		return results.ParseScheme(string(t.Scheme))
	}
	s, err := results.ParseScheme(p)
	if err != nil {
		return "", badRequest(err.Error())
	}
	return s, nil
}

// standings are t's standings in the scheme the request asks for.
func (s *Server) standings(r *http.Request, t results.Tournament) ([]results.Standing, error) {
	scheme, err := schemeOf(r, t)
	if err != nil {
		return nil, err
	}
	st, err := s.db.Standings(r.Context(), t.ID, scheme)
	if s.hideLogs(t) {
		for i := range st {
			hideCheck(&st[i].Check)
		}
	}
	return st, err
}

// attachment names a CSV download after the tournament.
func attachment(w http.ResponseWriter, t results.Tournament, what string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%d-%s.csv"`, t.Game, t.ID, what))
}

// filterOf reads the bot and opponent parameters of a games list.
func filterOf(r *http.Request) (results.GameFilter, error) {
	var f results.GameFilter
	for name, dst := range map[string]*int64{"bot": &f.BotID, "opponent": &f.Opponent} {
		if v := r.URL.Query().Get(name); v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return f, badRequest(fmt.Sprintf("%s=%q is not a bot id", name, v))
			}
			*dst = id
		}
	}
	return f, nil
}

// games are t's games the request's filter keeps.
func (s *Server) games(r *http.Request, t results.Tournament) ([]results.Game, error) {
	f, err := filterOf(r)
	if err != nil {
		return nil, err
	}
	return s.listGames(r.Context(), t, f)
}

// listGames are t's games the filter keeps, as a list gives them, with
// the sandbox's details hidden where the rules quoted them in the reasons,
// when t's games go without them: the list has no moves to find them in.
func (s *Server) listGames(ctx context.Context, t results.Tournament, f results.GameFilter) ([]results.Game, error) {
	gs, err := s.db.Games(ctx, t.ID, f)
	if err != nil || !s.hideLogs(t) {
		return gs, err
	}
	details, err := s.db.FaultDetails(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	for i := range gs {
		hideReasons(&gs[i], detailHider(details[gs[i].ID]))
	}
	return gs, nil
}

// Crosstable is every pairing's score, rows and columns in standings order.
type Crosstable struct {
	Bots []CrossBot `json:"bots"`
	// Cells[i][j] is row bot i's record against column bot j, as the
	// standings count it, with its games (the marks of the cell, each
	// opening its replay); nil when they have not played (and on the
	// diagonal).
	Cells [][]*results.Pairing `json:"cells"`
	// Rounds, in a swiss tournament only, where bots meet a few others:
	// Rounds[i][r-1] is row bot i's pairing of round r (nil when not
	// played yet): the played pairings only, a column a round.
	Rounds [][]*SwissCell `json:"rounds,omitempty"`
}

// SwissCell is one bot's pairing of one swiss round: its opponent (an
// index into Bots) and its record, or a bye.
type SwissCell struct {
	Opp    int              `json:"opp"`
	Bye    bool             `json:"bye,omitempty"`
	Record *results.Pairing `json:"record"`
}

// CrossBot is a row (and column) of the crosstable.
type CrossBot struct {
	ID     int64   `json:"id"`
	Name   string  `json:"name"`
	Rank   int     `json:"rank"`
	Points float64 `json:"points"`
}

func crosstable(st []results.Standing, gs []results.Game, scheme results.Scheme) Crosstable {
	ct := Crosstable{Bots: make([]CrossBot, len(st))}
	ids := make([]int64, len(st))
	for i, s := range st {
		ct.Bots[i] = CrossBot{ID: s.Bot.ID, Name: s.Bot.Name, Rank: s.Rank, Points: s.Points}
		ids[i] = s.Bot.ID
	}
	ct.Cells = results.Pairings(ids, gs, scheme)
	return ct
}

// swissRounds fills ct.Rounds from the games and byes of a swiss
// tournament of rounds rounds.
func swissRounds(ct *Crosstable, gs []results.Game, byes []results.Bye, rounds int, scheme results.Scheme) {
	ids := make([]int64, len(ct.Bots))
	index := map[int64]int{}
	for i, b := range ct.Bots {
		ids[i] = b.ID
		index[b.ID] = i
	}
	byRound := make([][]results.Game, rounds)
	for _, g := range gs {
		if g.Round >= 1 && g.Round <= rounds {
			byRound[g.Round-1] = append(byRound[g.Round-1], g)
		}
	}
	ct.Rounds = make([][]*SwissCell, len(ids))
	for i := range ct.Rounds {
		ct.Rounds[i] = make([]*SwissCell, rounds)
	}
	for r, round := range byRound {
		cells := results.Pairings(ids, round, scheme)
		for i := range cells {
			for j, c := range cells[i] {
				if c != nil {
					ct.Rounds[i][r] = &SwissCell{Opp: j, Record: c}
				}
			}
		}
	}
	for _, y := range byes {
		if i, ok := index[y.BotID]; ok && y.Round >= 1 && y.Round <= rounds {
			p := float64(y.Games) * scheme.Win()
			ct.Rounds[i][y.Round-1] = &SwissCell{Opp: -1, Bye: true, Record: &results.Pairing{Points: p}}
		}
	}
}

func (s *Server) crosstableJSON(r *http.Request) (any, error) {
	t, err := s.tournament(r.Context(), r)
	if err != nil {
		return nil, err
	}
	scheme, err := schemeOf(r, t)
	if err != nil {
		return nil, err
	}
	st, err := s.db.Standings(r.Context(), t.ID, scheme)
	if err != nil {
		return nil, err
	}
	gs, err := s.db.Games(r.Context(), t.ID, results.GameFilter{})
	if err != nil {
		return nil, err
	}
	ct := crosstable(st, gs, scheme)
	if t.Format == results.FormatSwiss {
		byes, err := s.db.Byes(r.Context(), t.ID)
		if err != nil {
			return nil, err
		}
		swissRounds(&ct, gs, byes, t.Rounds, scheme)
	}
	return ct, nil
}

// Pair is a pairing's page: its two bots, A's record against B as the
// standings count it (a game of k seats gives the pair one result), and
// the games they were both in.
type Pair struct {
	A      results.Bot     `json:"a"`
	B      results.Bot     `json:"b"`
	Record results.Pairing `json:"record"`
	Games  []results.Game  `json:"games"`
}

func (s *Server) pairJSON(r *http.Request) (any, error) {
	ctx := r.Context()
	t, err := s.tournament(ctx, r)
	if err != nil {
		return nil, err
	}
	a, err := idParam(r, "a")
	if err != nil {
		return nil, err
	}
	b, err := idParam(r, "b")
	if err != nil {
		return nil, err
	}
	scheme, err := schemeOf(r, t)
	if err != nil {
		return nil, err
	}
	entries, err := s.db.Entries(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	p := Pair{Games: []results.Game{}}
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.Bot.ID
		switch e.Bot.ID {
		case a:
			p.A = e.Bot
		case b:
			p.B = e.Bot
		}
	}
	if p.A.ID == 0 || p.B.ID == 0 || a == b {
		return nil, errNotFound
	}
	gs, err := s.listGames(ctx, t, results.GameFilter{BotID: a, Opponent: b})
	if err != nil {
		return nil, err
	}
	if gs != nil {
		p.Games = gs
	}
	cells := results.Pairings(ids, gs, scheme)
	if rec := cells[slices.Index(ids, a)][slices.Index(ids, b)]; rec != nil {
		p.Record = *rec
	}
	return p, nil
}

// game is the stored game the request's {id} names, and its tournament.
func (s *Server) game(r *http.Request) (results.Game, results.Tournament, error) {
	id, err := idParam(r, "id")
	if err != nil {
		return results.Game{}, results.Tournament{}, err
	}
	g, err := s.db.Game(r.Context(), id)
	if err != nil {
		return g, results.Tournament{}, err
	}
	t, err := s.db.Tournament(r.Context(), g.TournamentID)
	if err != nil {
		return results.Game{}, results.Tournament{}, err
	}
	if t.Private && (s.opt.MayRead == nil || !s.opt.MayRead(r, g.ID)) {
		return results.Game{}, results.Tournament{}, errNotFound
	}
	return g, t, s.arenaNames(r.Context(), t, &g)
}

// hideLogs says whether t's games go without what the bots printed: with
// the hand-in on, and always for a private tournament's (a sparring or an
// arena game), whose opponent may be another student (SPEC §7: a student
// never sees another's log), even with --public-logs.
func (s *Server) hideLogs(t results.Tournament) bool {
	return s.opt.HideLogs || t.Private
}

// hideCheck takes what a bot printed out of its check, and the words of
// its failure, which quote the sandbox's (its traceback): its verdict stays.
func hideCheck(c *results.Check) {
	c.Log, c.Detail = "", ""
}

func (s *Server) replayJSON(r *http.Request) (any, error) {
	g, t, err := s.game(r)
	if err != nil {
		return nil, err
	}
	rp, err := NewReplay(t.Game, g)
	if err != nil {
		return nil, err
	}
	rp.Private = t.Private
	// A private game has no live card to match, and its bots' places,
	// in the order of their names, would tell something of the names that
	// an arena's pseudonyms hide.
	if !t.Private {
		ids, err := s.db.EntryIDs(r.Context(), t.ID)
		if err != nil {
			return nil, err
		}
		rp.Entries = places(rp.Game.Players, ids)
	}
	if s.hideLogs(t) {
		rp.hideDetails(g.Moves)
	}
	return rp, nil
}

// serveRecord sends a game's stored record, every answer and its time
// included, as a file to keep: what a student studies their bot's game from.
func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request) {
	g, t, err := s.game(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if s.hideLogs(t) {
		hideLogs(&g)
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.json"`, g.ID))
	s.writeJSON(w, g)
}
