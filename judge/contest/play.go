package contest

import (
	"botjudge/games/phrase"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/results"
	"botjudge/sandbox"
)

// Runner runs the bots of games: the Docker sandbox, plain processes, bots
// reached by URL, or Engines. Its capabilities are explicit methods
// (sandbox.Runner), never found by a type assertion.
type Runner = sandbox.Runner

// Seat is a bot taking part in one game.
type Seat struct {
	Name string
	Bot  sandbox.Bot
	// Build is how a compiled bot was built (nil for the others); one that
	// did not compile never runs, and every request gets its fault.
	Build *sandbox.Built
}

// Played is a finished game.
type Played struct {
	// Steps are the applied answers as the game's record keeps them.
	Steps []results.Move
	// Outcome is the game's, unless it was Stopped after Match.MaxSteps.
	Outcome  games.Outcome
	Stopped  bool
	Logs     []string // per seat, what the bot printed
	Restarts []int    // per seat, how often its container was started afresh
	Started  time.Time
	Finished time.Time
}

// Observer sees the game after every step: the live screen, `judge play`.
type Observer func(s games.State, steps []results.Move)

// Match is one game to play: its rules, its seed, its bots in seat order,
// and how the judge treats bots that waste time.
type Match struct {
	Rules  games.Rules
	Seed   int64
	Seats  []Seat
	Policy Policy
	// MaxSteps stops the game after that many steps, unfinished (a check
	// of a bot in a game that can last thousands of turns); 0 plays it all.
	MaxSteps int
}

// Policy bounds the time a broken bot can cost, beyond each move's limit
// (SPEC §1 and §4 Decisions): a bot that always times out must not stretch
// its games to moves × limit.
type Policy struct {
	// GiveUp is how many timeouts in a row make the judge stop asking a
	// seat for the rest of the game: its remaining answers are timeouts at
	// once. 0 never gives up.
	GiveUp int
	// Budget is a seat's whole answer time for one game, chess-clock
	// style, counted in charged time (CPU in a sandbox): an answer that
	// ends past it is a timeout, and a seat whose budget is spent is not
	// asked again. As a move has its wall-clock backstop, so has the game:
	// twice the budget of wall time, or a bot that sleeps just under the
	// move's backstop each move would stretch its games without bound.
	// 0 is no budget.
	Budget time.Duration
}

// PlaySessions plays one game between bots already started, one session per
// seat; the caller closes them. Starting is separate so that a tournament can
// start the next games' containers while the current ones play.
func PlaySessions(ctx context.Context, sessions []sandbox.Session, m Match, observe Observer) (Played, error) {
	seats := m.Seats
	p := Played{Started: time.Now(), Logs: make([]string, len(seats)), Restarts: make([]int, len(seats))}
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	state := m.Rules.New(m.Seed, names)
	clock := newClock(m.Policy, len(seats))
	for ply := 0; len(state.ToMove()) > 0; ply++ {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		if m.MaxSteps > 0 && ply >= m.MaxSteps {
			p.Stopped = true
			break
		}
		toMove := state.ToMove()
		replies, err := askAll(ctx, sessions, toMove, state, clock)
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
		var steps []results.Move
		for i, m := range moves {
			st := results.Move{Move: m, Ply: ply, Elapsed: replies[i].Elapsed}
			if replies[i].Metered {
				cpu := replies[i].CPU
				st.CPU = &cpu
			}
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
	if !p.Stopped {
		p.Outcome = state.Outcome()
	}
	for i, s := range sessions {
		p.Logs[i] = s.Log()
	}
	p.Finished = time.Now()
	return p, nil
}

// clock applies a Policy: it keeps each seat's timeouts in a row and the
// time it spent, and answers for the seats the judge no longer asks.
type clock struct {
	policy   Policy
	mu       sync.Mutex // seats answer at once in simultaneous games
	timeouts []int
	spent    []time.Duration // charged
	waited   []time.Duration // wall
}

func newClock(p Policy, seats int) *clock {
	return &clock{policy: p, timeouts: make([]int, seats), spent: make([]time.Duration, seats), waited: make([]time.Duration, seats)}
}

// over says whether seat's time for the game is used up: its charge past
// the budget, or its wall time past twice the budget.
func (c *clock) over(seat int, strict bool) bool {
	b := c.policy.Budget
	if b <= 0 {
		return false
	}
	if strict {
		return c.spent[seat] > b || c.waited[seat] > 2*b
	}
	return c.spent[seat] >= b || c.waited[seat] >= 2*b
}

// Why a seat is not asked, for the screen to translate.
var (
	givenUp    = phrase.Count("not asked: given up for this game after {1} timeout in a row", "not asked: given up for this game after {1} timeouts in a row", "pas interrogé : abandonné pour cette partie après {1} dépassement de temps d'affilée", "pas interrogé : abandonné pour cette partie après {1} dépassements de temps d'affilée")
	budgetUsed = phrase.Of("not asked: its time for this game ({1}) is used up", "pas interrogé : son temps pour cette partie ({1}) est épuisé")
)

// skip is the reply of a seat that is not asked any more, or nil.
func (c *clock) skip(seat int) *sandbox.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.policy.GiveUp > 0 && c.timeouts[seat] >= c.policy.GiveUp:
		return &sandbox.Reply{Fault: fault.Timeout, Detail: givenUp.Say(c.timeouts[seat])}
	case c.over(seat, false):
		return &sandbox.Reply{Fault: fault.Timeout, Detail: budgetUsed.Say(c.policy.Budget)}
	}
	return nil
}

// charge counts seat's reply and turns an answer that ended past the
// seat's budget into a timeout.
func (c *clock) charge(seat int, r sandbox.Reply) sandbox.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spent[seat] += r.Charged()
	c.waited[seat] += r.Elapsed
	if c.over(seat, true) && r.Fault == fault.None {
		r = sandbox.Reply{Fault: fault.Timeout, Elapsed: r.Elapsed, CPU: r.CPU, Metered: r.Metered,
			Detail: fmt.Sprintf("answered after its time for this game (%v, or twice that of wall time) ran out", c.policy.Budget)}
	}
	c.timeouts[seat]++
	if r.Fault != fault.Timeout {
		c.timeouts[seat] = 0
	}
	return r
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
			sessions[i], errs[i] = startSeat(ctx, run, s, lim, labels)
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
// all of them. A seat whose request is nil is not asked: its reply is empty;
// nor is a seat the clock no longer asks.
func askAll(ctx context.Context, sessions []sandbox.Session, toMove []int, state games.State, c *clock) ([]sandbox.Reply, error) {
	replies := make([]sandbox.Reply, len(toMove))
	errs := make([]error, len(toMove))
	ask := func(i, seat int, req []byte) {
		if skipped := c.skip(seat); skipped != nil {
			replies[i] = *skipped
			return
		}
		r, err := sessions[seat].Ask(ctx, req)
		replies[i], errs[i] = c.charge(seat, r), err
	}
	var wg sync.WaitGroup
	for i, seat := range toMove {
		req := state.Request(seat)
		switch {
		case req == nil:
		case len(toMove) == 1:
			ask(i, seat, req)
		default:
			wg.Add(1)
			go func() {
				defer wg.Done()
				ask(i, seat, req)
			}()
		}
	}
	wg.Wait()
	return replies, errors.Join(errs...)
}

// closeAll stops the bots of a game; sessions not started are nil.
func closeAll(ctx context.Context, sessions []sandbox.Session) {
	for _, s := range sessions {
		if s != nil {
			s.Close(ctx)
		}
	}
}
