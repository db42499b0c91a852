// Package gamestest is what the tests of every game share: a conformance kit
// that plays many games of any rules with plausible, garbage and faulty
// answers and checks what the judge, the results and the screen rely on;
// and a driver that plays bot files as real processes, the way the sandbox
// runs program bots, for the tests of the example bots.
package gamestest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"botjudge/games"
	"botjudge/games/fault"
)

// Player answers a request as a plausible bot would, so that the kit's
// games reach their middle and their end, not only their first fault. nil
// leaves the answer to the kit's garbage.
type Player func(rng *rand.Rand, request json.RawMessage) json.RawMessage

// garbageRates are the kit's kinds of games: the share of answers that are
// garbage or faults, the others coming from the Player.
var garbageRates = []float64{0, 0.03, 0.3, 1}

// gamesPerRate is how many games each rate plays for each number of seats
// (a quarter of them under go test -short).
const gamesPerRate = 8

// unbounded is the most steps a game of rules that are not games.Bounded
// may take.
const unbounded = 100_000

// Conformance plays games of r with as few and as many seats as it allows,
// and fails t unless, in every game, nothing panics; every request is nil
// or JSON, and the same when asked twice; Apply gives one Move per seat of
// ToMove, in order, which encodes as JSON, with no verdict when it is
// unjudged; every View is JSON that games.Board draws; Scores has one entry
// per seat; the game ends within its bound (games.Bounded, or 100 000
// steps) with a sound Outcome; and the game replays exactly, both from the
// answers (games.Replay) and from its record as the judge stores it.
func Conformance(t testing.TB, r games.Rules, play Player) {
	t.Helper()
	lo, hi := r.Seats()
	seats := []int{lo}
	if hi > lo {
		seats = append(seats, hi)
	}
	perRate := gamesPerRate
	if testing.Short() {
		perRate /= 4
	}
	for _, n := range seats {
		for ri, rate := range garbageRates {
			for i := range perRate {
				seed := int64(n*1_000_000 + ri*1_000 + i)
				if problem := conform(r, seed, n, rate, play); problem != "" {
					t.Errorf("%s, %d seats, seed %d, %.0f%% garbage: %s", r.Name(), n, seed, rate*100, problem)
					return
				}
			}
		}
	}
}

// conform plays one game and says what is wrong with it, "" when nothing.
func conform(r games.Rules, seed int64, seats int, rate float64, play Player) (problem string) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b6974)) // "kit"
	names := make([]string, seats)
	for i := range names {
		names[i] = fmt.Sprintf("bot%d", i)
	}
	limit := unbounded
	if b, ok := r.(games.Bounded); ok {
		limit = seats * b.MaxRequests(seats)
	}
	var steps []Step
	var last games.Answer
	defer func() {
		if p := recover(); p != nil {
			problem = fmt.Sprintf("panic at step %d on the answer %s: %v", len(steps)+1, describe(last), p)
		}
	}()

	s := r.New(seed, names)
	if problem = checkPosition(r, s, seats); problem != "" {
		return "at the start: " + problem
	}
	for len(s.ToMove()) > 0 {
		if len(steps) >= limit {
			return fmt.Sprintf("not over after %d steps", len(steps))
		}
		st := Step{Seats: s.ToMove()}
		for _, seat := range st.Seats {
			if seat < 0 || seat >= seats {
				return fmt.Sprintf("step %d: ToMove %v names a seat out of 0..%d", len(steps)+1, st.Seats, seats-1)
			}
			req := s.Request(seat)
			if problem = checkRequest(s, seat, req); problem != "" {
				return fmt.Sprintf("step %d: %s", len(steps)+1, problem)
			}
			last = answer(rng, req, rate, play)
			st.Requests = append(st.Requests, req)
			st.Answers = append(st.Answers, last)
		}
		st.Moves = s.Apply(st.Answers)
		steps = append(steps, st)
		if problem = checkMoves(st); problem == "" {
			problem = checkPosition(r, s, seats)
		}
		if problem != "" {
			return fmt.Sprintf("step %d: %s", len(steps), problem)
		}
	}
	last = games.Answer{}
	if problem = checkOutcome(s.Outcome(), seats); problem != "" {
		return problem
	}
	return checkReplays(r, seed, names, s, steps)
}

// answer is a seat's answer to req: none when it is not asked, as the
// judge does, else the Player's or garbage.
func answer(rng *rand.Rand, req json.RawMessage, rate float64, play Player) games.Answer {
	if req == nil {
		return games.Answer{}
	}
	if play != nil && rng.Float64() >= rate {
		if data := play(rng, req); data != nil {
			return games.Answer{Data: data}
		}
	}
	return garbage(rng, req)
}

func checkRequest(s games.State, seat int, req json.RawMessage) string {
	if req == nil {
		return ""
	}
	if !json.Valid(req) {
		return fmt.Sprintf("the request to seat %d is not JSON: %.200s", seat, req)
	}
	if again := s.Request(seat); !bytes.Equal(again, req) {
		return fmt.Sprintf("asked twice, seat %d's request changed:\n%.300s\n%.300s", seat, req, again)
	}
	return ""
}

func checkMoves(st Step) string {
	if len(st.Moves) != len(st.Seats) {
		return fmt.Sprintf("%d moves for seats %v", len(st.Moves), st.Seats)
	}
	for i, m := range st.Moves {
		if m.Seat != st.Seats[i] {
			return fmt.Sprintf("move %d is seat %d's, ToMove was %v", i, m.Seat, st.Seats)
		}
		if m.Unjudged && m.Verdict != fault.None {
			return fmt.Sprintf("an unjudged move with the verdict %s", m.Verdict)
		}
		if _, err := json.Marshal(m); err != nil {
			return fmt.Sprintf("the move of seat %d on %s does not encode: %v", m.Seat, describe(st.Answers[i]), err)
		}
	}
	return ""
}

func checkPosition(r games.Rules, s games.State, seats int) string {
	if n := len(s.Scores()); n != seats {
		return fmt.Sprintf("Scores has %d entries for %d seats", n, seats)
	}
	v := s.View()
	if !json.Valid(v) {
		return fmt.Sprintf("the view is not JSON: %.200s", v)
	}
	if _, err := games.Board(r, v); err != nil {
		return fmt.Sprintf("the board of the view: %v", err)
	}
	return ""
}

func checkOutcome(o games.Outcome, seats int) string {
	if len(o.Rank) != seats {
		return fmt.Sprintf("the outcome ranks %d seats of %d: %+v", len(o.Rank), seats, o)
	}
	first := false
	for _, rank := range o.Rank {
		if rank < 1 || rank > seats {
			return fmt.Sprintf("the outcome has a rank out of 1..%d: %+v", seats, o)
		}
		first = first || rank == 1
	}
	switch {
	case !first:
		return fmt.Sprintf("no seat ranks first: %+v", o)
	case o.Score != nil && len(o.Score) != seats:
		return fmt.Sprintf("the outcome scores %d seats of %d", len(o.Score), seats)
	case o.Fates != nil && len(o.Fates) != seats:
		return fmt.Sprintf("the outcome has %d fates for %d seats", len(o.Fates), seats)
	case o.Reason == "":
		return fmt.Sprintf("the outcome gives no reason: %+v", o)
	}
	return ""
}

// checkReplays plays the game again three ways: step by step with the same
// answers, which must give the same requests, moves and views; through
// games.Replay; and from its record, as the screen replays a stored game
// (the answer the bot gave, else its verdict as a fault).
func checkReplays(r games.Rules, seed int64, names []string, played games.State, steps []Step) string {
	var answers, stored []games.Answer
	s := r.New(seed, names)
	for i, st := range steps {
		for j, seat := range st.Seats {
			if req := s.Request(seat); !bytes.Equal(req, st.Requests[j]) {
				return fmt.Sprintf("replayed, the request of step %d to seat %d differs:\n%.300s\n%.300s", i+1, seat, st.Requests[j], req)
			}
		}
		if moves := s.Apply(st.Answers); !reflect.DeepEqual(moves, st.Moves) {
			return fmt.Sprintf("replayed, step %d gives other moves:\n%+v\n%+v", i+1, st.Moves, moves)
		}
		for j, a := range st.Answers {
			answers = append(answers, a)
			if len(a.Data) == 0 {
				a = games.Answer{Fault: st.Moves[j].Verdict, Detail: a.Detail}
			}
			stored = append(stored, a)
		}
	}
	if !bytes.Equal(s.View(), played.View()) {
		return fmt.Sprintf("replayed, the final view differs:\n%s\n%s", played.View(), s.View())
	}
	want := played.Outcome()
	if got, err := games.Replay(r, seed, names, answers, nil); err != nil || !reflect.DeepEqual(got.Outcome(), want) {
		return fmt.Sprintf("games.Replay: %v, outcome %+v, want %+v", err, outcomeOf(got), want)
	}
	got, err := games.Replay(r, seed, names, stored, nil)
	if err != nil {
		return "replayed from its record: " + err.Error()
	}
	a, _ := json.Marshal(got.Outcome())
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		return fmt.Sprintf("replayed from its record, the outcome is\n%s, want\n%s", a, b)
	}
	return ""
}

func outcomeOf(s games.State) any {
	if s == nil {
		return nil
	}
	return s.Outcome()
}

// describe shows an answer in a failure, shortened.
func describe(a games.Answer) string {
	if a.Fault != fault.None {
		return fmt.Sprintf("fault %s (%q)", a.Fault, a.Detail)
	}
	if len(a.Data) > 200 {
		return fmt.Sprintf("%q… (%d bytes)", a.Data[:200], len(a.Data))
	}
	return fmt.Sprintf("%q", a.Data)
}
