package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// cmdCheck is for a student before the deadline: it runs the bot in the same
// sandbox as the tournament, first on its first request, then for a whole
// game against itself (contest.CheckBot), and says in plain words what went
// wrong.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c, game := newBotFlags("check", "the bot's", stderr)
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("give one bot, e.g. judge check submissions/<game>/me.py")
	}
	r, err := gameOfBot(*game, fs.Arg(0))
	if err != nil {
		return err
	}
	seat, err := stagedSeat(fs.Arg(0), r, c.db, c.urlBots)
	if err != nil {
		return err
	}
	run, _, closeRunner, err := c.runner(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeRunner()
	rep, err := contest.CheckBot(ctx, contest.Pipeline{Run: run, Rules: r, Limits: c.limits, Policy: c.policy}, seat, map[string]string{"botjudge.check": "1"})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Checking %s as a %s bot (limit %s per move)...\n", rep.Seat.Name, r.Name(), c.limits.Move)
	if c.sandboxKind == "none" {
		printInterpreters(stdout)
	}
	if err := printFirst(stdout, rep); err != nil {
		return err
	}
	return printGame(stdout, rep, c.limits.Move, c.policy.GiveUp)
}

// printInterpreters says which of the host's programs the plain runner runs
// each interpreted language with: the host's, not the runtime image's.
func printInterpreters(w io.Writer) {
	var runs []string
	for _, l := range sandbox.Languages {
		if l.Interpreter == "" {
			continue
		}
		path := sandbox.HostInterpreter(l)
		if path == "" {
			path = "nothing (no " + l.Interpreter + " on the PATH)"
		}
		runs = append(runs, l.Name+" with "+path)
	}
	fmt.Fprintf(w, "Plain processes (--sandbox none) run %s.\n", sandbox.JoinOr(runs))
}

// printFirst says how the bot compiled and answered its first request.
func printFirst(w io.Writer, rep contest.Report) error {
	seat, res := rep.Seat, rep.First
	if b := seat.Build; b != nil && b.Reused {
		fmt.Fprintln(w, "Compiled before: the same source is not compiled again.")
	} else if b != nil && b.Fault == fault.None {
		fmt.Fprintf(w, "Compiled in %s.\n", b.Elapsed.Round(10*time.Millisecond))
	}
	if rep.BuildFailed() {
		fmt.Fprintf(w, "NOT READY: your bot did not compile:\n  %s\n", indent(res.Detail))
		// The first lines are the detail: the whole log only when it says more.
		if strings.TrimSpace(res.Log) != strings.TrimSpace(res.Detail) && strings.TrimSpace(res.Log) != "" {
			fmt.Fprintf(w, "What the compiler said (your bot's log):\n  %s\n", indent(res.Log))
		}
		return fmt.Errorf("%s did not compile: fix it and check again", seat.Name)
	}
	if !res.OK {
		fmt.Fprintf(w, "NOT READY: its first answer was refused (%s).\n  %s\n", res.Verdict.Plain(), indent(res.Detail))
		printLog(w, res.Log)
		return fmt.Errorf("%s is not ready", seat.Name)
	}
	fmt.Fprintf(w, "First answer accepted: it %s. Now a whole game against itself...\n", took(res.CPU, res.Elapsed))
	return nil
}

// printGame tells the game against itself: its first faults, how it ended,
// and whether the bot is ready. limit and giveUp are the tournament's.
func printGame(w io.Writer, rep contest.Report, limit time.Duration, giveUp int) error {
	played := rep.Game
	for i, st := range rep.Faults {
		if i < 5 {
			fmt.Fprintf(w, "  move %d: %s: %s\n", st.Ply+1, st.Verdict.Plain(), indent(oneLine(st.Verdict.Beside(st.Reason))))
		}
	}
	if rep.TimedOut {
		fmt.Fprintf(w, "  Stopped at this timeout: every later move would wait %s for nothing. In a tournament the judge stops asking a bot after %d timeouts in a row.\n", limit, giveUp)
	}
	end := fmt.Sprintf("Game over after %d moves: %s", len(played.Steps), played.Outcome.Reason)
	if played.Stopped {
		end = fmt.Sprintf("Stopped after %d moves, before the end of the game: enough to try every kind of turn", len(played.Steps))
	}
	if rep.Slowest != nil {
		end += fmt.Sprintf(". Its slowest answer %s", took(rep.Slowest.CPU, rep.Slowest.Elapsed))
	}
	fmt.Fprintf(w, "%s.\n", end)
	printLog(w, played.Logs[0])
	if !rep.Ready() {
		return fmt.Errorf("%s made %d faults in one game: fix them before the tournament", rep.Seat.Name, len(rep.Faults))
	}
	fmt.Fprintf(w, "READY: %s played a whole game without a fault.\n", rep.Seat.Name)
	return nil
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ") }

func printLog(w io.Writer, log string) {
	if strings.TrimSpace(log) == "" {
		return
	}
	fmt.Fprintf(w, "What your bot printed (its log):\n  %s\n", indent(log))
}

// took says how long an answer took, as the judge charged it: CPU time
// beside wall time in a sandbox (SPEC §5), wall time alone for a bot
// reached by URL.
func took(cpu *time.Duration, wall time.Duration) string {
	if cpu == nil {
		return fmt.Sprintf("took %s", seconds(wall))
	}
	return fmt.Sprintf("took %s of CPU, %s of wall time", seconds(*cpu), seconds(wall))
}

// seconds writes a time as a student reads it: milliseconds under one
// second, tenths of seconds above.
func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
