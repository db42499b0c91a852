package contest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/results"
	"botjudge/sandbox"
)

// CheckResult is how a bot answered its first judged request.
type CheckResult struct {
	OK      bool
	Verdict fault.Kind
	Detail  string // the rules' reason and the bot's own error text
	Log     string
	// Elapsed and CPU are the first answer's times, as results.Move has them.
	Elapsed time.Duration
	CPU     *time.Duration
}

// Check starts a bot in the first seat of a fresh game with as few seats as
// the game allows and judges its first answer that the rules judge (past
// botsArena's init, whose reply is not judged), as SPEC §4 asks before a
// tournament. The other seats are not run: they get a placeholder fault,
// which no game lets reach the first seat's verdict.
func Check(ctx context.Context, run Runner, rules games.Rules, seat Seat, lim sandbox.Limits, labels map[string]string) (CheckResult, error) {
	if b := seat.Build; b != nil && b.Fault != fault.None {
		// The compiler's messages are all its author needs.
		return CheckResult{Verdict: b.Fault, Detail: b.Detail, Log: b.Log}, nil
	}
	s, err := startSeat(ctx, run, seat, lim, labels)
	if err != nil {
		return CheckResult{}, err
	}
	defer s.Close(ctx)
	seats, _ := rules.Seats()
	names := make([]string, max(seats, 1))
	for i := range names {
		names[i] = "opponent"
	}
	names[0] = seat.Name
	state := rules.New(0, names)
	res := CheckResult{OK: true}
	for len(state.ToMove()) > 0 {
		toMove := state.ToMove()
		answers := make([]games.Answer, len(toMove))
		var reply sandbox.Reply
		asked := false
		for i, st := range toMove {
			if st != 0 {
				answers[i] = games.Answer{Fault: fault.Timeout, Detail: "not run during a check"}
				continue
			}
			if req := state.Request(0); req != nil {
				if reply, err = s.Ask(ctx, req); err != nil {
					return CheckResult{}, err
				}
				asked = true
			}
			answers[i] = answerOf(reply)
		}
		for _, m := range state.Apply(answers) {
			if m.Seat != 0 || m.Unjudged || !asked {
				continue
			}
			res.Elapsed, res.Log = reply.Elapsed, s.Log()
			if reply.Metered {
				cpu := reply.CPU
				res.CPU = &cpu
			}
			if m.Verdict != fault.None {
				res.OK, res.Verdict = false, m.Verdict
				// Every page shows the verdict beside the detail.
				res.Detail = joinDetail(m.Verdict.Beside(m.Reason), reply.Detail)
			}
			return res, nil
		}
	}
	res.Log = s.Log()
	return res, nil
}

// joinDetail keeps both the rules' reason and the sandbox's detail without
// saying the same thing twice (a fault's reason is often its detail).
func joinDetail(reason, detail string) string {
	switch {
	case detail == "" || strings.Contains(reason, detail):
		return reason
	case reason == "" || strings.Contains(detail, reason):
		return detail
	}
	return reason + ": " + detail
}

// The rules of a check's game, the same for `judge check` and a hand-in:
// the bot against itself in every seat, from one seed, stopped after
// CheckSteps steps (a game of Tron can last thousands of turns, and a
// student waiting at midnight needs an answer in minutes), and given up at
// its first timeout (CheckGiveUp): every later move would wait the whole
// limit for nothing. Every fault up to then is counted (Report.Faults).
const (
	CheckSteps  = 300
	CheckGiveUp = 1
	checkSeed   = 1
)

// Report is a whole check of one bot, as `judge check` and a hand-in run it:
// its build, its first judged answer, then a game against itself.
type Report struct {
	// Seat is the bot as it plays: built, when it is a compiled one.
	Seat  Seat
	First CheckResult
	// Game is the game against itself; nil when the first answer was
	// refused (or the bot did not compile).
	Game *Played
	// Faults are the game's faulty answers, up to the first timeout: a bot
	// too slow once is not asked again, for every later move would wait
	// the whole limit for nothing.
	Faults   []results.Move
	TimedOut bool
	// Slowest is the answer charged the most (SPEC §5); nil before any.
	Slowest *results.Move
}

// Ready says the bot compiled, answered its first request legally and
// played a whole game without a fault.
func (r Report) Ready() bool { return r.First.OK && r.Game != nil && len(r.Faults) == 0 }

// BuildFailed says the bot is a compiled one that did not compile.
func (r Report) BuildFailed() bool { return r.First.Verdict == fault.Build }

// CheckBot builds a bot when it is a compiled one, checks its first answer
// (Check) and, when that is accepted, plays it against itself by the rules
// of a check, through the pipeline p of the tournament it is checked for:
// its runner, rules, limits and budget (0 for none). The bot's containers
// carry labels.
func CheckBot(ctx context.Context, p Pipeline, seat Seat, labels map[string]string) (Report, error) {
	seat, err := p.Built(ctx, seat)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Seat: seat}
	if rep.First, err = Check(ctx, p.Run, p.Rules, seat, p.Limits, labels); err != nil || !rep.First.OK {
		return rep, err
	}
	p.Policy = Policy{GiveUp: CheckGiveUp, Budget: p.Policy.Budget}
	_, played, err := p.Play(ctx, checkGame(p.Rules, seat, labels), nil)
	if err != nil {
		return rep, err
	}
	rep.count(played)
	return rep, nil
}

// checkGame is the game of a check of seat.
func checkGame(rules games.Rules, seat Seat, labels map[string]string) Fixture {
	n, _ := rules.Seats()
	twins := make([]Seat, max(n, 2))
	for i := range twins {
		twins[i] = seat
		if i > 0 {
			twins[i].Name += fmt.Sprintf(" (%d)", i+1)
		}
	}
	return Fixture{Seed: checkSeed, Seats: twins, Labels: labels, MaxSteps: CheckSteps}
}

// count keeps the game of a check and counts its faults, up to its first
// timeout.
func (r *Report) count(played Played) {
	r.Game = &played
	for i, st := range played.Steps {
		if r.Slowest == nil || st.Charged() > r.Slowest.Charged() {
			r.Slowest = &played.Steps[i]
		}
		if st.Verdict == fault.None {
			continue
		}
		r.Faults = append(r.Faults, st)
		if st.Verdict == fault.Timeout {
			r.TimedOut = true
			return
		}
	}
}
