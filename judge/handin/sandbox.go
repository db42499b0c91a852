package handin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/results"
	"botjudge/sandbox"
)

// SandboxChecker checks a version in the sandbox through the same code as
// `judge check` (contest.CheckBot: build, first answer, a game against
// itself), then plays one sparring game against each of the first
// Opponents example bots of its game, stored in a private tournament so
// that the screen's replay page shows them to their student.
type SandboxChecker struct {
	Run         contest.Runner
	DB          *results.DB
	Submissions string
	// StageRoot is where the example bots are copied before they run
	// (results/_bots); a version is staged in a folder of its check's own.
	StageRoot string
	Limits    sandbox.Limits
	// Policy is the tournament's (judge serve's --give-up and --budget):
	// the sparring games give up on a bot as the tournament will.
	Policy contest.Policy
	Image  string
	// Opponents bounds the sparring games; 0 is 3.
	Opponents int
	// KeepIdle keeps the waiting containers when no check waits: the
	// arena plays on, and comes back to its bots' and the example bots'
	// containers (the pool's own bound removes the least used).
	KeepIdle bool
}

// handInLabels mark the containers of every game the hand-in server plays,
// checks, sparring and arena alike: the pool reuses a container only for
// the same labels, so that an example bot keeps one container for every
// check's sparring and for the arena.
var handInLabels = map[string]string{"botjudge.handin": "1"}

// sparringSettings name the private tournament of a game's sparring games.
var sparringSettings = json.RawMessage(`{"sparring":true}`)

// Check implements Checker.
func (c *SandboxChecker) Check(ctx context.Context, h results.HandIn, update func(string, Report)) (Report, error) {
	rules, ok := games.Lookup(h.Game)
	if !ok {
		return Report{}, fmt.Errorf("unknown game %q", h.Game)
	}
	tmp, err := os.MkdirTemp("", "botjudge-handin-")
	if err != nil {
		return Report{}, err
	}
	defer os.RemoveAll(tmp)
	if err := materialise(filepath.Join(tmp, botName(h.Student, h)), h); err != nil {
		return Report{}, err
	}
	entries, notices, err := contest.Discover(tmp, rules.Protocol(), false)
	if err != nil {
		return Report{}, err
	}
	if len(entries) != 1 {
		why := "not a bot"
		for _, n := range notices {
			why = n.Text
		}
		return Report{Verdict: fault.Crash, Detail: why}, nil
	}
	me := entries[0]
	// The version is staged and built in tmp, not in StageRoot: the
	// stage folder never keeps what a refused or superseded build wrote.
	pipe := c.pipeline(rules, filepath.Join(tmp, "stage"))
	seat, err := pipe.Staged(me)
	if err != nil {
		return Report{}, err
	}
	rep, err := contest.CheckBot(ctx, pipe, seat, handInLabels)
	if err != nil {
		return Report{}, err
	}
	out := reportOf(rep)
	if me.Kind == "file" {
		// A traceback names the staged copy (bot.py): the student knows
		// their file by its own name.
		staged := regexp.MustCompile(`\b` + regexp.QuoteMeta(filepath.Base(seat.Bot.Path)) + `\b`)
		own := filepath.Base(me.Source)
		out.Detail, out.Log = staged.ReplaceAllLiteralString(out.Detail, own), staged.ReplaceAllLiteralString(out.Log, own)
	}
	if !rep.First.OK {
		return out, nil
	}
	update(results.StatusPlaying, out)
	err = c.spar(ctx, rules, h, me, rep.Seat, &out, update)
	return out, err
}

// Idle releases what the sandbox keeps for the next games (the waiting
// containers of the example bots, Pool's), once no check waits or runs: a
// server between hand-ins holds no container, unless the arena plays on
// (KeepIdle).
func (c *SandboxChecker) Idle(ctx context.Context) error {
	if c.KeepIdle {
		return nil
	}
	return c.Run.Drain(ctx)
}

// pipeline plays a game's hand-in games, the check, the sparring and the
// arena alike, as the tournament will (its limits, policy and image), with
// bots staged under root.
func (c *SandboxChecker) pipeline(rules games.Rules, root string) contest.Pipeline {
	return contest.Pipeline{Run: c.Run, Rules: rules, StageRoot: root, Limits: c.Limits, Policy: c.Policy, Image: c.Image}
}

// spar plays the version against the example bots: the bots of the game's
// folder that belong to no student of the roster.
func (c *SandboxChecker) spar(ctx context.Context, rules games.Rules, h results.HandIn, me contest.Entry, mine contest.Seat, out *Report, update func(string, Report)) error {
	examples, err := c.sparringExamples(ctx, rules, h.Game)
	if err != nil || len(examples) == 0 {
		return err
	}
	t, err := c.DB.PrivateTournament(ctx, h.Game, sparringSettings)
	if err != nil {
		return err
	}
	myBot, err := c.DB.AddBot(ctx, results.Bot{Game: h.Game, Name: me.Name, SHA256: me.SHA256, Path: me.Name})
	if err != nil {
		return err
	}
	pipe := c.pipeline(rules, c.StageRoot)
	for i := range examples {
		seed := h.ID*100 + int64(i)
		f := contest.Fixture{Tournament: t.ID, Key: fmt.Sprintf("handin-%d-%d", h.ID, i), Round: 1, Seed: seed,
			Seats: []contest.Seat{mine}, BotIDs: []int64{myBot.ID}, Labels: handInLabels}
		if err := c.fillSeats(ctx, pipe, examples, i, &f); err != nil {
			return err
		}
		g, played, err := pipe.Play(ctx, f, nil)
		if err != nil {
			return err
		}
		id, err := c.DB.SaveSparring(context.WithoutCancel(ctx), h.ID, g)
		if errors.Is(err, results.ErrDuplicate) {
			continue // checked before the judge stopped
		}
		if err != nil {
			return err
		}
		out.Sparring = append(out.Sparring, sparOf(id, played.Outcome.Reason, g.Players))
		update(results.StatusPlaying, *out)
	}
	return nil
}

// sparringExamples are the first Opponents (3 by default) bots of game's
// folder that belong to no student of the roster.
func (c *SandboxChecker) sparringExamples(ctx context.Context, rules games.Rules, game string) ([]contest.Entry, error) {
	students, err := c.DB.Students(ctx)
	if err != nil {
		return nil, err
	}
	found, _, err := contest.Discover(filepath.Join(c.Submissions, game), rules.Protocol(), false)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var examples []contest.Entry
	for _, e := range found {
		if !slices.ContainsFunc(students, func(s results.Student) bool { return strings.EqualFold(s.Name, e.Name) }) {
			examples = append(examples, e)
		}
	}
	n := c.Opponents
	if n <= 0 {
		n = 3
	}
	return examples[:min(n, len(examples))], nil
}

// fillSeats seats the i-th sparring game's opponents after the version:
// one example in a duel; games of more seats than two fill them with the
// examples in turn.
func (c *SandboxChecker) fillSeats(ctx context.Context, pipe contest.Pipeline, examples []contest.Entry, i int, f *contest.Fixture) error {
	lo, _ := pipe.Rules.Seats()
	for k := 0; len(f.Seats) < max(lo, 2); k++ {
		e := examples[(i+k)%len(examples)]
		s, err := pipe.Seat(ctx, e)
		if err != nil {
			return err
		}
		b, err := c.DB.AddBot(ctx, results.Bot{Game: pipe.Rules.Name(), Name: e.Name, SHA256: e.SHA256, Path: e.Source})
		if err != nil {
			return err
		}
		f.Seats, f.BotIDs = append(f.Seats, s), append(f.BotIDs, b.ID)
	}
	return nil
}

// sparOf is a sparring game's line on the version's page: the version,
// seated first, wins unless an opponent ranks above it (a loss) or with it
// (a draw).
func sparOf(id int64, reason string, players []results.Player) Spar {
	sp := Spar{GameID: id, Reason: reason, Result: "win"}
	for k, p := range players {
		if k > 0 {
			sp.Opponents = append(sp.Opponents, p.Name)
		}
		switch {
		case k == 0:
			sp.Faults = p.Faults
		case p.Rank < players[0].Rank:
			sp.Result = "loss"
		case p.Rank == players[0].Rank && sp.Result == "win":
			sp.Result = "draw"
		}
	}
	return sp
}

// reportOf says a check's findings for the version's page.
func reportOf(rep contest.Report) Report {
	out := Report{Ready: rep.Ready(), Log: rep.First.Log}
	if b := rep.Seat.Build; b != nil {
		out.Compiled = b.Fault == fault.None
		out.BuildFailed = b.Fault != fault.None
	}
	switch {
	case out.BuildFailed:
		out.Detail = rep.First.Detail
		return out
	case !rep.First.OK:
		out.Verdict, out.Detail = rep.First.Verdict, rep.First.Detail
		return out
	}
	// A student reads the time they are charged (SPEC §5): the CPU.
	first := rep.First.Elapsed
	if rep.First.CPU != nil {
		first = *rep.First.CPU
	}
	out.FirstMS = max(float64(first.Microseconds())/1000, 0.001)
	if g := rep.Game; g != nil {
		out.Moves, out.Stopped, out.End = len(g.Steps), g.Stopped, g.Outcome.Reason
		out.Log = g.Logs[0]
		for _, st := range rep.Faults {
			out.Faults = append(out.Faults, ReportFault{Move: st.Ply + 1, Verdict: st.Verdict, Reason: st.Reason})
		}
		out.TimedOut = rep.TimedOut
		if rep.Slowest != nil {
			out.SlowestMS = float64(rep.Slowest.Charged().Microseconds()) / 1000
		}
	}
	return out
}
