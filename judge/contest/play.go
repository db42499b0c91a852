package contest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/sandbox"
)

// Runner starts a bot for one game: the Docker sandbox, or plain processes.
type Runner interface {
	Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error)
}

// Seat is a bot taking part in one game.
type Seat struct {
	Name string
	Bot  sandbox.Bot
}

// Step is one applied answer with what the sandbox measured.
type Step struct {
	games.Move
	Detail  string        // the sandbox's words for a fault (traceback, exit status)
	Elapsed time.Duration // the bot's answer time
	Ply     int           // the step of the game: seats answering at once share it
}

// Played is a finished game.
type Played struct {
	Steps    []Step
	Outcome  games.Outcome
	Logs     []string // per seat, what the bot printed
	Restarts []int    // per seat, how often its container was started afresh
	Started  time.Time
	Finished time.Time
}

// Observer sees the game after every step: the live screen, `judge play`.
type Observer func(s games.State, steps []Step)

// Play starts the seats' bots, plays one game and stops them. A bot's
// misbehaviour is part of the result; an error means the judge itself failed
// (Docker unreachable...) and the game must not be scored.
func Play(ctx context.Context, run Runner, rules games.Rules, seed int64, seats []Seat, lim sandbox.Limits, labels map[string]string, observe Observer) (Played, error) {
	sessions, err := StartSeats(ctx, run, seats, lim, labels)
	if err != nil {
		return Played{}, err
	}
	defer closeAll(ctx, sessions)
	return PlaySessions(ctx, sessions, rules, seed, seats, observe)
}

// PlaySessions plays one game between bots already started, one session per
// seat; the caller closes them. Starting is separate so that a tournament can
// start the next games' containers while the current ones play.
func PlaySessions(ctx context.Context, sessions []sandbox.Session, rules games.Rules, seed int64, seats []Seat, observe Observer) (Played, error) {
	p := Played{Started: time.Now(), Logs: make([]string, len(seats)), Restarts: make([]int, len(seats))}
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	state := rules.New(seed, names)
	for ply := 0; len(state.ToMove()) > 0; ply++ {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		toMove := state.ToMove()
		replies, err := askAll(ctx, sessions, toMove, state)
		if err != nil {
			return p, err
		}
		answers := make([]games.Answer, len(replies))
		for i, r := range replies {
			answers[i] = answerOf(r)
			if r.Restarted {
				p.Restarts[toMove[i]]++
			}
		}
		moves := state.Apply(answers)
		var steps []Step
		for i, m := range moves {
			st := Step{Move: m, Ply: ply, Elapsed: replies[i].Elapsed}
			// What the bot really said is kept, not the rules' rendering of
			// it, so a replay feeds the rules exactly the same answers.
			st.Answer = answers[i].Data
			if replies[i].Fault != fault.None {
				st.Detail = replies[i].Detail
			}
			steps = append(steps, st)
		}
		p.Steps = append(p.Steps, steps...)
		if observe != nil {
			observe(state, steps)
		}
	}
	p.Outcome = state.Outcome()
	for i, s := range sessions {
		p.Logs[i] = s.Log()
	}
	p.Finished = time.Now()
	return p, nil
}

// answerOf turns a sandbox reply into what the rules judge.
func answerOf(r sandbox.Reply) games.Answer {
	if r.Fault != fault.None {
		return games.Answer{Fault: r.Fault, Detail: r.Detail}
	}
	return games.Answer{Data: json.RawMessage(r.Data)}
}

// StartSeats starts every seat's bot at once: the fixed cost of a game is
// one container start, not one per seat.
func StartSeats(ctx context.Context, run Runner, seats []Seat, lim sandbox.Limits, labels map[string]string) ([]sandbox.Session, error) {
	sessions := make([]sandbox.Session, len(seats))
	errs := make([]error, len(seats))
	var wg sync.WaitGroup
	for i, s := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sessions[i], errs[i] = run.Start(ctx, s.Bot, lim, labels)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			closeAll(ctx, sessions)
			return nil, fmt.Errorf("starting %s: %w", seats[i].Name, err)
		}
	}
	return sessions, nil
}

// askAll asks every seat to move at once (simultaneous games) and waits for
// all of them. A seat whose request is nil is not asked: its reply is empty.
func askAll(ctx context.Context, sessions []sandbox.Session, toMove []int, state games.State) ([]sandbox.Reply, error) {
	replies := make([]sandbox.Reply, len(toMove))
	if len(toMove) == 1 {
		req := state.Request(toMove[0])
		if req == nil {
			return replies, nil
		}
		r, err := sessions[toMove[0]].Ask(ctx, req)
		replies[0] = r
		return replies, err
	}
	errs := make([]error, len(toMove))
	var wg sync.WaitGroup
	for i, seat := range toMove {
		req := state.Request(seat)
		if req == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i], errs[i] = sessions[seat].Ask(ctx, req)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return replies, nil
}

// closeAll stops the bots of a game; sessions not started are nil.
func closeAll(ctx context.Context, sessions []sandbox.Session) {
	for _, s := range sessions {
		if s != nil {
			s.Close(ctx)
		}
	}
}
