package screen

import (
	"context"
	"net/http"
	"time"

	"botjudge/games/fault"
	"botjudge/results"
)

// BotPage is everything a bot's author needs to see why it lost: its check,
// its line in the standings, and every game with its faults and its log.
type BotPage struct {
	Bot      results.Bot       `json:"bot"`
	Check    results.Check     `json:"check"`
	Standing *results.Standing `json:"standing,omitempty"`
	Games    []BotGame         `json:"games"`
}

// BotGame is one game seen from one bot.
type BotGame struct {
	ID        int64            `json:"id"`
	Key       string           `json:"key"`
	Round     int              `json:"round"`
	Seat      int              `json:"seat"`
	Opponents []results.Player `json:"opponents"`
	Rank      int              `json:"rank"`
	Score     int              `json:"score"`
	// Result is "win" (best rank alone), "loss" (someone ranked better) or
	// "draw".
	Result string `json:"result"`
	Reason string `json:"reason"`
	// Answers counts the bot's answers in the game.
	Answers int `json:"answers"`
	// Thinking is the bot's time over the game, and its slowest answer's.
	Thinking Thinking `json:"thinking"`
	Faults   []Fault  `json:"faults"`
	// Log is what the bot printed during the game (a traceback included).
	Log string `json:"log"`
}

// Fault is one answer of the bot that was not a legal move, standing for
// Count identical ones (same verdict, reason and detail) in the game: a bot
// that times out five thousand times is one line to read, not five thousand.
type Fault struct {
	// N is the index of the move in the game, Step the replay's step that
	// holds it (the move list's row, ?move= of a replay's URL, `judge
	// play`'s "move k": a turn, which every seat of a game of simultaneous
	// moves shares), Own the number of the bot's own answer (1 is its
	// first), of the first of them.
	N       int        `json:"n"`
	Step    int        `json:"step"`
	Own     int        `json:"own"`
	Count   int        `json:"count"`
	Verdict fault.Kind `json:"verdict"`
	Reason  string     `json:"reason"`
	Detail  string     `json:"detail,omitempty"`
	Time
}

// Time is an answer's times in milliseconds: what it was charged (SPEC
// §5), which is CPU time when CPU is set and wall time otherwise (a bot
// reached by URL, a game recorded before CPU was measured), and its wall
// time.
type Time struct {
	ChargedMS float64 `json:"charged_ms"`
	CPU       bool    `json:"cpu"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

func timeOf(m results.Move) Time {
	return Time{ChargedMS: ms(m.Charged()), CPU: m.CPU != nil, ElapsedMS: ms(m.Elapsed)}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Thinking is a bot's time in one game: in all, and its slowest answer's
// (the one charged the most).
type Thinking struct {
	// Total is CPU only when every answer was charged CPU.
	Total   Time `json:"total"`
	Slowest Time `json:"slowest"`
	answers int
}

func (th *Thinking) add(t Time) {
	th.Total.ChargedMS += t.ChargedMS
	th.Total.ElapsedMS += t.ElapsedMS
	th.Total.CPU = t.CPU && (th.answers == 0 || th.Total.CPU)
	th.answers++
	if t.ChargedMS >= th.Slowest.ChargedMS {
		th.Slowest = t
	}
}

func resultOf(me results.Player, all []results.Player) string {
	res := "win"
	for _, p := range all {
		switch {
		case p.Seat == me.Seat:
		case p.Rank < me.Rank:
			return "loss"
		case p.Rank == me.Rank:
			res = "draw"
		}
	}
	return res
}

func (s *Server) botJSON(r *http.Request) (any, error) {
	ctx := r.Context()
	t, err := s.tournament(ctx, r)
	if err != nil {
		return nil, err
	}
	bid, err := idParam(r, "bid")
	if err != nil {
		return nil, err
	}
	entries, err := s.db.Entries(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	var page BotPage
	for _, e := range entries {
		if e.Bot.ID == bid {
			page.Bot, page.Check = e.Bot, e.Check
		}
	}
	if page.Bot.ID == 0 {
		return nil, errNotFound
	}
	st, err := s.standings(r, t)
	if err != nil {
		return nil, err
	}
	for i := range st {
		if st[i].Bot.ID == bid {
			page.Standing = &st[i]
		}
	}
	if page.Games, err = s.botGames(ctx, t.ID, bid); err != nil {
		return nil, err
	}
	if s.hideLogs(t) {
		hideCheck(&page.Check)
	}
	return page, nil
}

// botGames are the games of bot bid, each with the bot's moves and log.
func (s *Server) botGames(ctx context.Context, tid, bid int64) ([]BotGame, error) {
	list, err := s.db.Games(ctx, tid, results.GameFilter{BotID: bid})
	if err != nil {
		return nil, err
	}
	games := []BotGame{}
	for _, item := range list {
		// Lists leave moves and logs out; the page needs both.
		g, err := s.db.Game(ctx, item.ID)
		if err != nil {
			return nil, err
		}
		// The rules quote a fault's detail in its reason (a traceback,
		// a line of the student's code): hidden there too.
		if s.opt.HideLogs {
			hideLogs(&g)
		}
		games = append(games, botGame(g, bid))
	}
	return games, nil
}

func botGame(g results.Game, bid int64) BotGame {
	bg := BotGame{ID: g.ID, Key: g.Key, Round: g.Round, Reason: g.Reason, Opponents: []results.Player{}, Faults: []Fault{}}
	for _, p := range g.Players {
		if p.BotID != bid {
			p.Log = ""
			bg.Opponents = append(bg.Opponents, p)
			continue
		}
		bg.Seat, bg.Rank, bg.Score, bg.Log = p.Seat, p.Rank, p.Score, p.Log
		bg.Result = resultOf(p, g.Players)
	}
	type same struct {
		verdict        fault.Kind
		reason, detail string
	}
	seen := map[same]int{} // index in bg.Faults
	for n, m := range g.Moves {
		if m.Seat != bg.Seat {
			continue
		}
		bg.Answers++
		bg.Thinking.add(timeOf(m))
		if m.Verdict.Class() == fault.NoClass {
			continue
		}
		key := same{m.Verdict, m.Reason, m.Detail}
		if i, ok := seen[key]; ok {
			bg.Faults[i].Count++
			continue
		}
		seen[key] = len(bg.Faults)
		bg.Faults = append(bg.Faults, Fault{N: n, Step: m.Ply + 1, Own: bg.Answers, Count: 1, Verdict: m.Verdict, Reason: m.Reason,
			Detail: m.Detail, Time: timeOf(m)})
	}
	return bg
}
