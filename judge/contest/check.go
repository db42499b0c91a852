package contest

import (
	"context"
	"strings"
	"time"

	"botjudge/games"
	"botjudge/sandbox"
)

// CheckResult is how a bot answered its first request.
type CheckResult struct {
	OK      bool
	Verdict games.Verdict
	Detail  string // the rules' reason and the bot's own error text
	Log     string
	Elapsed time.Duration
}

// Check starts a bot in the first seat of a fresh game and judges its first
// answer, as SPEC §4 asks before a tournament. The other seats are not run:
// they get a placeholder fault, which no game lets reach the first seat's
// verdict.
func Check(ctx context.Context, run Runner, rules games.Rules, seat Seat, lim sandbox.Limits, labels map[string]string) (CheckResult, error) {
	s, err := run.Start(ctx, seat.Bot, lim, labels)
	if err != nil {
		return CheckResult{}, err
	}
	defer s.Close(ctx)
	names := make([]string, rules.Seats())
	for i := range names {
		names[i] = "opponent"
	}
	names[0] = seat.Name
	state := rules.New(0, names)
	toMove := state.ToMove()
	answers := make([]games.Answer, len(toMove))
	var reply sandbox.Reply
	for i, st := range toMove {
		if st != 0 {
			answers[i] = games.Answer{Fault: games.Timeout, Detail: "not run during a check"}
			continue
		}
		if reply, err = s.Ask(ctx, state.Request(0)); err != nil {
			return CheckResult{}, err
		}
		answers[i] = answerOf(reply)
	}
	res := CheckResult{OK: true, Log: s.Log(), Elapsed: reply.Elapsed}
	for i, m := range state.Apply(answers) {
		if toMove[i] != 0 || m.Verdict == games.OK {
			continue
		}
		res.OK, res.Verdict = false, m.Verdict
		res.Detail = joinDetail(m.Reason, reply.Detail)
	}
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
