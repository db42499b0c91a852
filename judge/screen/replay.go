package screen

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/results"
)

// Replay is a stored game played again through its rules, frame by frame,
// as the replay page draws it.
type Replay struct {
	Game results.Game `json:"game"`
	// GameKind is the rules' registered name, which names the board module
	// that draws the frames.
	GameKind string `json:"kind"`
	// Frames[0] is the position before any answer; each later frame is the
	// position after one step of the rules (one ToMove's answers).
	Frames []Frame `json:"frames"`
	// Outcome is the replay's final outcome, Stored the one the database
	// holds; Consistent says they are the same, as they must be.
	Outcome    *games.Outcome `json:"outcome"`
	Stored     *games.Outcome `json:"stored"`
	Consistent bool           `json:"consistent"`
	// Problem says why the replay stopped early or differs, for the page.
	Problem string `json:"problem,omitempty"`
	// Private: a hand-in's sparring game, whose tournament, bots and
	// pairings have no pages, so the replay links to none of them.
	Private bool `json:"private,omitempty"`
	// Entries are the places of the seats' bots in the tournament's list
	// of bots, as a game in progress has them (LiveGame.Entries): a board
	// whose seats are alike marks a bot in its replay as on its live card.
	// None for a private game.
	Entries []int `json:"entries,omitempty"`
}

// Frame is one position and the moves that led to it: the envelope every
// game shares (what the screen draws without knowing the game: each seat's
// score, whose turn it is) around the game's own View, which only its board
// module reads. For rules whose Views fold from events
// (games.Incremental) only the first and the last frames have a View: the
// board module folds the moves' events into the one before.
type Frame struct {
	View   json.RawMessage `json:"view,omitempty"`
	Moves  []FrameMove     `json:"moves"`
	Scores []int           `json:"scores"`
	// ToMove lists the seats whose moves the game waits on: those whose
	// answers the next step needs (all of them in a game of simultaneous
	// moves); empty once the game is over. A step that only hands every bot
	// the rules (botsArena's init, whose answers are unjudged) moves
	// nobody: before it, ToMove is the step after it's, the first to play.
	ToMove []int `json:"to_move"`
}

// frameOf is s's envelope, its moves still to add; its View only when
// view is set.
func frameOf(s games.State, view bool) Frame {
	f := Frame{Moves: []FrameMove{}, Scores: s.Scores(), ToMove: append([]int{}, s.ToMove()...)}
	if view {
		f.View = s.View()
	}
	return f
}

// FrameMove is one applied answer as the rules judged it again, with what
// only the record (a results.Move) knows: its index, the sandbox's detail
// and the answer's times, in the milliseconds the page shows.
type FrameMove struct {
	games.Move
	N      int    `json:"n"` // index in the stored moves
	Detail string `json:"detail,omitempty"`
	Time
}

// answerOf rebuilds what the judge fed the rules from a stored move: the
// bot's answer, or its fault when it gave none.
func answerOf(m results.Move) games.Answer {
	if len(m.Answer) > 0 {
		return games.Answer{Data: m.Answer}
	}
	return games.Answer{Fault: m.Verdict, Detail: m.Detail}
}

// NewReplay replays g, a game with its moves, through the rules of kind.
// A record the rules cannot replay gives the frames up to the problem and
// says what it is; only unknown rules are an error.
func NewReplay(kind string, g results.Game) (*Replay, error) {
	rules, ok := games.Lookup(kind)
	if !ok {
		return nil, fmt.Errorf("screen: game %d: unknown game %q", g.ID, kind)
	}
	rp := &Replay{Game: g, GameKind: kind}
	final, n, err := rp.play(rules, g)
	rp.conclude(final, n, err, g)
	// The moves are in the frames; the game's own list would be sent twice.
	// Logs are the bot pages' business.
	rp.Game.Moves = nil
	rp.Game.Players = append([]results.Player(nil), g.Players...)
	for i := range rp.Game.Players {
		rp.Game.Players[i].Log = ""
	}
	return rp, nil
}

// play builds the frames of g's replay; it returns the final state, how
// many stored moves the rules took and why they stopped early, if they did.
func (rp *Replay) play(rules games.Rules, g results.Game) (games.State, int, error) {
	names := make([]string, len(g.Players))
	for i, p := range g.Players {
		names[i] = p.Name
	}
	answers := make([]games.Answer, len(g.Moves))
	for i, m := range g.Moves {
		answers[i] = answerOf(m)
	}
	// Encoding a large View at every step costs the server as much as
	// sending it costs the page.
	every := !games.IncrementalView(rules)
	rp.Frames = append(rp.Frames, frameOf(rules.New(g.Seed, names), true))
	n := 0
	final, err := games.Replay(rules, g.Seed, names, answers, func(s games.State, moves []games.Move) {
		f := frameOf(s, every)
		for _, m := range moves {
			st := g.Moves[n]
			f.Moves = append(f.Moves, FrameMove{Move: m, N: n, Detail: st.Detail, Time: timeOf(st)})
			n++
		}
		rp.Frames = append(rp.Frames, f)
	})
	for i := len(rp.Frames) - 2; i >= 0; i-- {
		if next := rp.Frames[i+1]; unjudged(next.Moves) {
			rp.Frames[i].ToMove = next.ToMove
		}
	}
	if last := &rp.Frames[len(rp.Frames)-1]; last.View == nil {
		last.View = final.View()
	}
	return final, n, err
}

// conclude compares the replay's end with the stored outcome.
func (rp *Replay) conclude(final games.State, n int, err error, g results.Game) {
	if len(g.Outcome) > 0 {
		var stored games.Outcome
		if json.Unmarshal(g.Outcome, &stored) == nil {
			rp.Stored = &stored
		}
	}
	switch {
	case err != nil:
		rp.Problem = err.Error()
	case n < len(g.Moves):
		rp.Problem = fmt.Sprintf("the game ended after %d of the %d stored moves", n, len(g.Moves))
	default:
		o := final.Outcome()
		rp.Outcome = &o
		rp.Consistent = rp.Stored != nil && sameOutcome(o, *rp.Stored)
		if !rp.Consistent {
			rp.Problem = "the replay does not end on the stored result"
		}
	}
}

// unjudged says whether a step's answers were all taken without judging
// (botsArena's replies to init).
func unjudged(moves []FrameMove) bool {
	for _, m := range moves {
		if !m.Unjudged {
			return false
		}
	}
	return len(moves) > 0
}

func sameOutcome(a, b games.Outcome) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// hideDetails takes the sandbox's details of moves (a traceback, what the
// bot printed as it died) out of the replay: from its moves, and from the
// reasons and events where the rules quoted them ("crash: Traceback…").
// The replay was played with them, so that it is still compared with the
// stored result.
func (rp *Replay) hideDetails(moves []results.Move) {
	hide := detailHider(detailsOf(moves))
	hideReasons(&rp.Game, hide)
	for _, o := range []*games.Outcome{rp.Outcome, rp.Stored} {
		if o != nil {
			o.Reason = hide.Replace(o.Reason)
		}
	}
	for i := range rp.Frames {
		for j := range rp.Frames[i].Moves {
			m := &rp.Frames[i].Moves[j]
			m.Detail = ""
			hideQuoted(&m.Move, hide)
		}
	}
}

// hideLogs takes what the bots printed out of a game's record: their logs,
// and the sandbox's details wherever they are quoted (see hideDetails).
func hideLogs(g *results.Game) {
	for i := range g.Players {
		g.Players[i].Log = ""
	}
	hideReasons(g, hideMoves(g.Moves))
}

// hideMoves takes the sandbox's details out of moves, and out of what the
// rules said of them; it returns what hides them, for their game's reasons.
func hideMoves(moves []results.Move) *strings.Replacer {
	hide := detailHider(detailsOf(moves))
	for i := range moves {
		moves[i].Detail = ""
		hideQuoted(&moves[i].Move, hide)
	}
	return hide
}

// hideQuoted hides details in what the rules said of a move: its reason,
// and its event, which a board shows (battleships' {"error": …}).
func hideQuoted(m *games.Move, hide *strings.Replacer) {
	m.Reason = hide.Replace(m.Reason)
	m.Event = rewriteStrings(m.Event, hide.Replace)
}

// hideReasons hides details in a game's reasons: its own and its
// outcome's. A list of games has no moves: hide comes from elsewhere.
func hideReasons(g *results.Game, hide *strings.Replacer) {
	g.Reason = hide.Replace(g.Reason)
	g.Outcome = rewriteStrings(g.Outcome, hide.Replace)
}

// detailsOf are the sandbox's details of the faults among moves.
func detailsOf(moves []results.Move) []string {
	var details []string
	for _, m := range moves {
		if m.Detail != "" {
			details = append(details, m.Detail)
		}
	}
	return details
}

// detailHider replaces each detail with an ellipsis, the longest first: a
// detail may begin another.
func detailHider(details []string) *strings.Replacer {
	details = slices.Clone(details) // sorted, not the caller's
	slices.SortFunc(details, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	var pairs []string
	for _, d := range slices.Compact(details) {
		pairs = append(pairs, d, "…")
	}
	return strings.NewReplacer(pairs...)
}

// rewriteStrings applies f to every string of a JSON text, an outcome or
// an event: JSON escapes a detail's newlines and quotes, so the text itself
// cannot be searched for it. A text that f leaves as it is is kept as it
// is, and so is one that is not JSON.
func rewriteStrings(raw json.RawMessage, f func(string) string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if len(raw) == 0 || dec.Decode(&v) != nil {
		return raw
	}
	changed := false
	v = walkStrings(v, func(s string) string {
		out := f(s)
		changed = changed || out != s
		return out
	})
	b, err := json.Marshal(v)
	if !changed || err != nil {
		return raw
	}
	return b
}

// walkStrings replaces each string of a decoded JSON value with f's.
func walkStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for i := range x {
			x[i] = walkStrings(x[i], f)
		}
	case map[string]any:
		for k := range x {
			x[k] = walkStrings(x[k], f)
		}
	}
	return v
}
