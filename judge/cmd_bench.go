package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"botjudge/judge/bench"
	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// benchFlags are judge bench's flags, parsed.
type benchFlags struct {
	sz                  bench.Sizes
	steps               []string
	submissions, report string
	giveUp              int
}

func parseBench(args []string, stderr io.Writer) (*benchFlags, error) {
	bf := &benchFlags{sz: bench.DefaultSizes()}
	fs := newFlags("bench", stderr)
	fs.IntVar(&bf.sz.Workers, "workers", contest.DefaultConfig().Workers, "games played at once in the tournaments (0: the judge's default)")
	fs.DurationVar(&bf.sz.Think, "think", bf.sz.Think, "CPU `time` a thinking bot spends per move")
	quick := fs.Bool("quick", false, "a small run (a few minutes): the figures are rough")
	only := fs.String("only", "", "run only these measures, comma-separated, of: "+strings.Join(bench.Steps, ", "))
	fs.StringVar(&bf.submissions, "submissions", contest.DefaultSubmissions, "`folder` of example bots, one subfolder per game, whose class of 30 is projected")
	fs.IntVar(&bf.giveUp, "give-up", contest.DefaultConfig().Policy.GiveUp, "the projected tournament's --give-up: stop asking a bot for the rest of a game after this many timeouts in a row (0: never)")
	fs.StringVar(&bf.report, "report", "", "also write the run's table as a Markdown page to `file`, with the machine's figures (docs/performance.md is one)")
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, usagef("no arguments expected, got %q", fs.Args())
	case bf.giveUp < 0:
		return nil, giveUpError(bf.giveUp)
	}
	if *quick {
		bf.sz = quickSizes(bf.sz)
	}
	var err error
	bf.steps, err = benchSteps(*only)
	return bf, err
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	bf, err := parseBench(args, stderr)
	if err != nil {
		return err
	}
	steps := bf.steps
	classDir := classFolder(bf.submissions, stderr)
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
		Sizes:       bf.sz,
		Log:         stderr,
		Only:        steps,
		Submissions: classDir,
		GiveUp:      bf.giveUp,
	})
	if err != nil {
		return err
	}
	driver, note := storageNote(ctx)
	rep.Notes = append(rep.Notes, "plain runner's python3: "+python, note)
	took := time.Since(began)
	fmt.Fprintf(stdout, "\nSandboxed (Docker) versus plain processes (--sandbox=none), measured in %s:\n\n", since(began))
	if err := rep.Print(stdout); err != nil {
		return err
	}
	if bf.report == "" {
		return nil
	}
	m := machine(ctx, python, driver)
	m.When = began
	return writeReport(bf.report, rep, m, took)
}

// writeReport writes the Markdown page whole or not at all.
func writeReport(path string, rep bench.Report, m bench.Machine, took time.Duration) error {
	var b strings.Builder
	if err := rep.Markdown(&b, m, took); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// machine reads what the figures were measured on, and times the floor: a
// bare start of the plain runner's python3, 20 times, its median.
func machine(ctx context.Context, python, driver string) bench.Machine {
	m := bench.Machine{Cores: runtime.NumCPU(), StorageDriver: driver, Memory: "unknown", Kernel: "unknown", Floor: "unknown"}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
		}
	}
	var cpu, wall []time.Duration
	for range 20 {
		cmd := exec.CommandContext(ctx, python, "-c", "pass")
		t0 := time.Now()
		if err := cmd.Run(); err != nil {
			return m
		}
		wall = append(wall, time.Since(t0))
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	slices.Sort(cpu)
	slices.Sort(wall)
	m.Floor = fmt.Sprintf("`%s -c pass` (the plain runner's interpreter, bare, median of 20): %s of CPU, %s wall",
		python, cpu[10].Round(100*time.Microsecond), wall[10].Round(100*time.Microsecond))
	return m
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
// file a sandboxed bot opens, and so on the request table: the driver, and a
// note saying so.
func storageNote(ctx context.Context) (string, string) {
	d, err := sandbox.NewDocker(ctx, dockerOptions())
	if err != nil {
		return "unknown", fmt.Sprintf("the engine's storage driver: unknown (%v)", err)
	}
	defer d.Close()
	driver, err := d.StorageDriver(ctx)
	if err != nil {
		return "unknown", fmt.Sprintf("the engine's storage driver: unknown (%v)", err)
	}
	note := "the engine's storage driver: " + driver
	if driver == "fuse-overlayfs" {
		note += ": every path a bot looks up from / is a round trip to the driver's own process, which slows the starts that look up many files" +
			" (PHP's about ×2 against overlay2, Docker's default)"
	}
	return driver, note
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
