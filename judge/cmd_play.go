package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/results"
)

func cmdPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c, game := newBotFlags("play", "the bots'", stderr)
	seed := fs.Int64("seed", 1, "the game's seed")
	quiet := fs.Bool("quiet", false, "print the result only, not the board after every move")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("give the bots in seat order, e.g. judge play submissions/<game>/alice.py submissions/<game>/bob.js")
	}
	r, err := gameOfBot(*game, fs.Arg(0))
	if err != nil {
		return err
	}
	if lo, hi := r.Seats(); fs.NArg() < lo || fs.NArg() > hi {
		return usagef("a game of %s seats %s bots, not %d", r.Name(), seatRange(lo, hi), fs.NArg())
	}
	seats, err := playSeats(fs.Args(), r, c.db, c.urlBots)
	if err != nil {
		return err
	}
	run, _, closeRunner, err := c.runner(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeRunner()
	p := contest.Pipeline{Run: run, Rules: r, Limits: c.limits, Policy: c.policy}
	for i := range seats {
		if seats[i], err = p.Built(ctx, seats[i]); err != nil {
			return err
		}
	}
	var observe contest.Observer
	if !*quiet {
		observe = printMoves(stdout, r, seats)
	}
	_, played, err := p.Play(ctx, contest.Fixture{Seed: *seed, Seats: seats, Labels: map[string]string{"botjudge.play": "1"}}, observe)
	if err != nil {
		return err
	}
	o := played.Outcome
	fmt.Fprintf(stdout, "Result: %s\n", resultText(o, seats))
	for i, log := range played.Logs {
		if strings.TrimSpace(log) != "" {
			fmt.Fprintf(stdout, "--- what %s printed ---\n%s\n", seats[i].Name, strings.TrimRight(log, "\n"))
		}
	}
	return nil
}

// playSeats stages the bots of paths, in seat order, telling apart the same
// bot in two seats.
func playSeats(paths []string, r games.Rules, db string, urlBots bool) ([]contest.Seat, error) {
	seats := make([]contest.Seat, len(paths))
	taken := map[string]int{}
	for i, path := range paths {
		var err error
		if seats[i], err = stagedSeat(path, r, db, urlBots); err != nil {
			return nil, err
		}
		if taken[seats[i].Name]++; taken[seats[i].Name] > 1 {
			seats[i].Name += fmt.Sprintf(" (%d)", taken[seats[i].Name])
		}
	}
	return seats, nil
}

// printMoves prints each step's moves and the board after it.
func printMoves(w io.Writer, r games.Rules, seats []contest.Seat) contest.Observer {
	return func(s games.State, steps []results.Move) {
		for _, st := range steps {
			fmt.Fprintf(w, "move %d: %s %s\n", st.Ply+1, seats[st.Seat].Name, stepText(st))
		}
		if board, err := games.Board(r, s.View()); err == nil {
			fmt.Fprintln(w, board)
		}
	}
}

// stagedSeat reads a bot named on the command line and stages it like a
// tournament would.
func stagedSeat(path string, r games.Rules, db string, urlBots bool) (contest.Seat, error) {
	e, err := botEntry(path, r, urlBots)
	if err != nil {
		return contest.Seat{}, err
	}
	return contest.Pipeline{Rules: r, StageRoot: contest.StageRootOf(db)}.Staged(e)
}

func stepText(st results.Move) string {
	t := fmt.Sprintf("answered %s, %s", compact(st.Answer), took(st.CPU, st.Elapsed))
	if st.Verdict != fault.None {
		t = fmt.Sprintf("%s, %s: %s", strings.ToUpper(string(st.Verdict)), took(st.CPU, st.Elapsed), oneLine(st.Verdict.Beside(st.Reason)))
	} else if st.Reason != "" {
		t += " (" + st.Reason + ")"
	}
	return t
}

func compact(raw json.RawMessage) string {
	s := strings.Join(strings.Fields(string(raw)), "")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// resultText says who won: the one seat ranked first alone, else a draw
// between the seats ranked first.
func resultText(o games.Outcome, seats []contest.Seat) string {
	var parts, first []string
	for i, s := range seats {
		p := s.Name
		if i < len(o.Score) {
			p += fmt.Sprintf(" %d", o.Score[i])
		}
		parts = append(parts, p)
		if i < len(o.Rank) && o.Rank[i] == slices.Min(o.Rank) {
			first = append(first, s.Name)
		}
	}
	winner := first[0] + " wins"
	if len(first) > 1 {
		winner = "draw between " + strings.Join(first, ", ")
		if len(first) == len(seats) {
			winner = "draw"
		}
	}
	return fmt.Sprintf("%s: %s (%s)", strings.Join(parts, " – "), winner, o.Reason)
}

// seatRange says how many bots a game seats: "2" or "2 to 12".
func seatRange(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}
