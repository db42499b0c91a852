// Command judge runs bot programming contests: it plays every pair of bots
// found in submissions/<game>/ inside Docker sandboxes, records every game in
// SQLite and prints (and serves) the standings and replays.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `judge runs bot programming contests in Docker sandboxes.

Usage:
  judge run [flags] [GAME...]     play the tournament of every game folder (or those named)
  judge standings [flags] [GAME]  print the standings from the database alone
  judge arena [flags] GAME        print the arena's live ladder of the students' bots
  judge play [flags] BOT1 BOT2    play one game and show the board as it goes
  judge check [flags] BOT         try one bot in the sandbox and say what is wrong, if anything
  judge serve [flags]             the screen: standings, crosstable, replays, live games
                                  (--hand-in: and students hand in their bots from a browser)
  judge roster [add|reset] ...    the hand-in's students and their codes, or who handed in what
  judge image                     build the bots' runtime image (no registry needed)
  judge bench [flags]             measure the sandbox's cost against plain processes

Run "judge COMMAND -h" for the flags of a command.
`

var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{
	"run":       cmdRun,
	"standings": cmdStandings,
	"arena":     cmdArena,
	"play":      cmdPlay,
	"check":     cmdCheck,
	"image":     cmdImage,
	"serve":     cmdServe,
	"roster":    cmdRoster,
	"bench":     cmdBench,
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(runMain(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// runMain is main without the process around it, so tests can call it.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "judge: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	err := cmd(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "judge %s: %v\n", args[0], err)
		return 2
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "judge %s: stopped: %v\n", args[0], err)
		return 130
	}
	fmt.Fprintf(stderr, "judge %s: %v\n", args[0], err)
	return 1
}

// usageError is a mistake in the command line, answered with exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }
