package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"botjudge/judge/bench"
	"botjudge/judge/contest"
	"botjudge/sandbox"
)

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", stderr)
	sz := bench.DefaultSizes()
	fs.IntVar(&sz.Workers, "workers", contest.DefaultConfig().Workers, "games played at once in the tournaments (0: the judge's default)")
	fs.DurationVar(&sz.Think, "think", sz.Think, "CPU `time` a thinking bot spends per move")
	quick := fs.Bool("quick", false, "a small run (a few minutes): the figures are rough")
	only := fs.String("only", "", "run only these measures, comma-separated, of: "+strings.Join(bench.Steps, ", "))
	submissions := fs.String("submissions", "submissions", "`folder` of example bots, one subfolder per game, whose class of 30 is projected")
	giveUp := fs.Int("give-up", contest.DefaultConfig().Policy.GiveUp, "the projected tournament's --give-up: stop asking a bot for the rest of a game after this many timeouts in a row (0: never)")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usagef("no arguments expected, got %q", fs.Args())
	case *giveUp < 0:
		return giveUpError(*giveUp)
	}
	if *quick {
		sz = quickSizes(sz)
	}
	steps, err := benchSteps(*only)
	if err != nil {
		return err
	}
	classDir := classFolder(*submissions, stderr)
	run, _, closeRunner, err := openRunner(ctx, "docker", stderr)
	if err != nil {
		return err
	}
	defer closeRunner()
	containers, err := bench.ContainersCPU()
	if err != nil {
		fmt.Fprintf(stderr, "judge bench: %v: the bots' CPU is estimated\n", err)
		containers = bench.MachineMinusJudge()
	}
	fmt.Fprintln(stderr, "judge bench: the plain runner runs the benchmark's own bots as unprotected processes")
	python := samePython()
	cold, closeCold, err := openCold(ctx, steps, stderr)
	if err != nil {
		return err
	}
	defer closeCold()
	began := time.Now()
	rep, err := bench.Run(ctx, bench.Config{
		Sandboxed:   bench.Side{Runner: run, Bots: containers},
		Plain:       bench.Side{Runner: sandbox.NewLocal(), Bots: bench.ChildrenCPU()},
		Cold:        cold,
		Sizes:       sz,
		Log:         stderr,
		Only:        steps,
		Submissions: classDir,
		GiveUp:      *giveUp,
	})
	if err != nil {
		return err
	}
	rep.Notes = append(rep.Notes, "plain runner's python3: "+python, storageNote(ctx))
	fmt.Fprintf(stdout, "\nSandboxed (Docker) versus plain processes (--sandbox=none), measured in %s:\n\n", since(began))
	return rep.Print(stdout)
}

// benchSteps reads --only: the measures to run, all of them when none.
func benchSteps(only string) ([]string, error) {
	if only == "" {
		return nil, nil
	}
	steps := strings.Split(only, ",")
	for _, s := range steps {
		if !slices.Contains(bench.Steps, s) {
			return nil, usagef("unknown measure %q in --only: use %s", s, strings.Join(bench.Steps, ", "))
		}
	}
	return steps, nil
}

// classFolder is the folder of the example bots whose class is projected,
// "" when there is none.
func classFolder(dir string, stderr io.Writer) string {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "judge bench: no submissions folder at %s: no class rows (--submissions names the folder of the games' example bots)\n", dir)
		return ""
	}
	return dir
}

// openCold is the judge's sandbox without the warm start, for the request
// table's comparison: a pool on an engine connection of its own. It is nil
// when the measures of steps do not include the requests.
func openCold(ctx context.Context, steps []string, stderr io.Writer) (contest.Runner, func(), error) {
	if len(steps) > 0 && !slices.Contains(steps, "requests") {
		return nil, func() {}, nil
	}
	opts := dockerOptions()
	opts.Cold = true
	e, err := dialEngine(ctx, opts, false)
	if err != nil {
		return nil, nil, err
	}
	return e.pool, func() { e.close(ctx, stderr) }, nil
}

// storageNote names the engine's storage driver, which weighs on every
// file a sandboxed bot opens, and so on the request table.
func storageNote(ctx context.Context) string {
	d, err := sandbox.NewDocker(ctx, dockerOptions())
	if err != nil {
		return fmt.Sprintf("the engine's storage driver: unknown (%v)", err)
	}
	defer d.Close()
	driver, err := d.StorageDriver(ctx)
	if err != nil {
		return fmt.Sprintf("the engine's storage driver: unknown (%v)", err)
	}
	note := "the engine's storage driver: " + driver
	if driver == "fuse-overlayfs" {
		note += ": every path a bot looks up from / is a round trip to the driver's own process, which slows the starts that look up many files" +
			" (PHP's about ×2 against overlay2, Docker's default; see the README's Performance)"
	}
	return note
}

// imagePython is the interpreter of the runtime image, Debian's.
const imagePython = "/usr/bin/python3"

// samePython makes the plain runner use the interpreter the image has when
// the host has it too, rather than whatever python3 comes first in PATH (a
// pyenv shim, a virtualenv...), so that the two runners differ by the sandbox
// alone. It returns the python3 the plain runner will use.
func samePython() string {
	if _, err := os.Stat(imagePython); err == nil {
		os.Setenv("PATH", filepath.Dir(imagePython)+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	path, err := exec.LookPath("python3")
	if err != nil {
		return "none found"
	}
	return path
}

// quickSizes keeps the shape of a run and only shrinks its samples.
func quickSizes(sz bench.Sizes) bench.Sizes {
	sz.Asks, sz.Requests, sz.LangRequests, sz.Games = 50, 10, 10, 4
	sz.TrivialBots, sz.ThinkingBots, sz.SleepingBots, sz.Repeats = 3, 2, 3, 1
	sz.MemoryBots, sz.MemoryGames = 10, 10
	sz.FairMoves, sz.StandingsGames = 60, 1000
	sz.ClassSteps = 30
	return sz
}
