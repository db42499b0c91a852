// Package bench measures what the judge costs on top of the bots it runs:
// the same measures with the Docker sandbox and with the plain-process
// runner, in one run, so that the difference is the sandbox's price. It
// reports per-move and per-game costs, tournaments of trivial and of thinking
// bots, the judge's own CPU and peak memory, the standings of a large
// database, and the projected tournament of a class of 30 copies of each
// game's example bots, each against the project's target.
package bench

import (
	"context"
	"embed"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"botjudge/games"
	_ "botjudge/games/all" // the games of the bench's bots, found by name
	"botjudge/games/fault"
	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// Side is one runner under measure.
type Side struct {
	Runner contest.Runner
	// Bots counts the CPU of the bots this runner starts.
	Bots CPUCounter
}

// Sizes say how much of each measure to run: the defaults take a few
// minutes on two cores; tests use tiny ones.
type Sizes struct {
	Asks     int // requests to an ia bot per runner, for the round trip
	Requests int // program-bot requests per runner
	// LangRequests are timed per language of the request table, each
	// beside a bare start of its interpreter on the host.
	LangRequests int
	Games        int // games started and stopped per runner, for the fixed cost

	TrivialBots  int           // bots of the trivial tournament (n(n-1) games)
	ThinkingBots int           // bots of the thinking tournament
	Think        time.Duration // CPU time a thinking bot spends per move
	// SleepingBots play a tournament twice, with and without the pool's
	// overlap, sleeping Sleep per move.
	SleepingBots int
	Sleep        time.Duration

	// Repeats is how often each tournament is played on each runner; the
	// fastest counts.
	Repeats int

	MemoryBots  int // bots of the tournament whose peak memory is measured...
	MemoryGames int // ...stopped after this many games

	// FreeForAllBots play one game all at once; their bots die on purpose
	// once their trail is FreeForAllLife cells long (0: never).
	FreeForAllBots int
	FreeForAllLife int

	// FairMoves are timed for a bot doing fixed work, alone and beside a
	// busy tournament.
	FairMoves int

	StandingsGames int // games in the database whose standings are timed
	Workers        int // games at once; 0 is the judge's default

	// ClassBots is the size of the class whose tournaments are projected
	// (class.go), from ClassGames sample games per pairing of example
	// bots, each stopped after ClassSteps plies (0: never).
	ClassBots, ClassGames, ClassSteps int

	// HogPerCore busy processes per core are the hog the load tournaments
	// (load.go) play beside, after playing alone; 0 skips them.
	HogPerCore int
}

// DefaultSizes are those of `judge bench`.
func DefaultSizes() Sizes {
	return Sizes{
		Asks: 300, Requests: 40, LangRequests: 30, Games: 15,
		TrivialBots: 6, ThinkingBots: 3, Think: 50 * time.Millisecond, Repeats: 2,
		SleepingBots: 4, Sleep: 5 * time.Millisecond,
		MemoryBots: 40, MemoryGames: 60,
		// A whole game of these bots lasts about 1,500 turns and 5 minutes
		// on each runner: 300 cells of trail keep the bench short.
		FreeForAllBots: 12, FreeForAllLife: 300,
		FairMoves:      200,
		StandingsGames: 10_000,
		// 200 plies finish a game of battleships; a Tron duel of two
		// good bots runs thousands of turns (2,199 in issue 20). One game
		// a pairing keeps the class rows to a few minutes a runner.
		ClassBots: 30, ClassGames: 1, ClassSteps: 200,
		HogPerCore: 3,
	}
}

// Config is one benchmark run.
type Config struct {
	Sandboxed, Plain Side
	// Cold is the sandbox without the warm start (sandbox.Options.Cold);
	// when set, the request table times the warm-started languages on it
	// too, in the same run.
	Cold  contest.Runner
	Sizes Sizes
	// Work is a folder for the bots and databases; empty means a temporary
	// one, removed at the end.
	Work string
	// Log gets a line as each measure starts; nil means none.
	Log io.Writer
	// Only names the measures to run (see Steps); empty means all.
	Only []string
	// Submissions is the folder of the games' example bots
	// (<game>/<bots>) whose classes are projected; "" skips the class rows.
	Submissions string
	// GiveUp is the projected tournament's --give-up: the timeouts in a
	// row after which its games stop asking a bot (0: never).
	GiveUp int
}

// Report is a run's results, one Row per figure, and what to know to read
// them.
type Report struct {
	Rows  []Row
	Notes []string
}

// Row is one measure on both runners. NaN means not measured.
type Row struct {
	Measure          string
	Unit             string
	Sandboxed, Plain float64
	// Compare is how the two are compared: "diff" (sandboxed minus plain),
	// "ratio" (sandboxed over plain) or "" (not compared).
	Compare string
	// Target is the goal in words, and Met whether it was reached; nil when
	// the row has no target.
	Target string
	Met    *bool
}

// Row finds a row by the beginning of its measure's name.
func (r Report) Row(prefix string) (Row, bool) {
	for _, row := range r.Rows {
		if strings.HasPrefix(row.Measure, prefix) {
			return row, true
		}
	}
	return Row{}, false
}

// botFiles are the benchmark's own bots, each in the folder of the game it
// plays (bots/<game>/<file>): the folder names their rules, so that the
// bench needs no game by name.
//
//go:embed bots
var botFiles embed.FS

// benchBot is one of the benchmark's bots.
type benchBot struct {
	rules  games.Rules
	file   string // its file name
	source string
}

// loadBot finds the benchmark bot file and its game.
func loadBot(file string) (benchBot, error) {
	found, err := fs.Glob(botFiles, "bots/*/"+file)
	if err != nil || len(found) != 1 {
		return benchBot{}, fmt.Errorf("bench: %d bots named %s (%v)", len(found), file, err)
	}
	game := path.Base(path.Dir(found[0]))
	rules, ok := games.Lookup(game)
	if !ok {
		return benchBot{}, fmt.Errorf("bench: %s: no game named %q", found[0], game)
	}
	src, err := botFiles.ReadFile(found[0])
	return benchBot{rules: rules, file: file, source: string(src)}, err
}

// bot is the sandbox's view of b, written at path.
func (b benchBot) bot(name, path string) sandbox.Bot {
	return sandbox.Bot{Name: name, Path: path, Protocol: b.rules.Protocol()}
}

// thinkingBot is first_cell.py slowed down by think per move: of CPU, or
// of sleep.
func thinkingBot(firstCell, thinking benchBot, think time.Duration, sleep bool) benchBot {
	head := strings.Replace(thinking.source, "THINK = 0.05", fmt.Sprintf("THINK = %g", think.Seconds()), 1)
	if sleep {
		head = strings.Replace(head, "SLEEP = False", "SLEEP = True", 1)
	}
	firstCell.source = head + "\n\n" + firstCell.source + "\n\nia = think(ia)\n"
	return firstCell
}

// Run measures both runners and reports every figure. An error means the
// judge itself failed (Docker unreachable...): a bot of the benchmark that
// misbehaves is an error too, since they are all well-behaved.
func Run(ctx context.Context, cfg Config) (Report, error) {
	work := cfg.Work
	if work == "" {
		dir, err := os.MkdirTemp("", "botjudge-bench-")
		if err != nil {
			return Report{}, err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	b := &bencher{cfg: cfg, sz: cfg.Sizes, work: work, log: cfg.Log}
	for file, dst := range map[string]*benchBot{"first_cell.py": &b.firstCell, "thinking.py": &b.thinking, "shot.py": &b.shot, "fixed_work.py": &b.fixedWork} {
		var err error
		if *dst, err = loadBot(file); err != nil {
			return Report{}, err
		}
	}
	if b.log == nil {
		b.log = io.Discard
	}
	b.sides = [2]Side{cfg.Sandboxed, cfg.Plain}
	load, _ := os.ReadFile("/proc/loadavg")
	b.note("machine: %d cores (GOMAXPROCS %d), load average at start %s", runtime.NumCPU(), runtime.GOMAXPROCS(0), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	steps := map[string]func(context.Context) error{
		"moves": b.moves, "programs": b.programs, "requests": b.requests, "fixed": b.fixedCost,
		"tournaments": b.tournaments, "fairness": b.fairness, "ffa": b.freeForAll, "memory": b.memory, "standings": b.standings, "class": b.class,
		"load": b.load,
	}
	for _, name := range Steps {
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, name) {
			continue
		}
		if err := steps[name](ctx); err != nil {
			return b.report, err
		}
	}
	return b.report, nil
}

// Steps name the measures in the order they run, for Config.Only.
var Steps = []string{"moves", "programs", "requests", "fixed", "tournaments", "fairness", "ffa", "memory", "standings", "class", "load"}

// bencher holds one run's state while the measures add their rows.
type bencher struct {
	cfg    Config
	sz     Sizes
	work   string
	log    io.Writer
	sides  [2]Side // sandboxed, plain
	report Report

	// firstCell answers at once, thinking slows it down, fixedWork too but
	// by a number of steps, and shot is a program bot answering at once.
	firstCell, thinking, fixedWork, shot benchBot
}

var sideNames = [2]string{"sandboxed", "plain"}

func (b *bencher) note(format string, a ...any) {
	b.report.Notes = append(b.report.Notes, fmt.Sprintf(format, a...))
}

func (b *bencher) progress(format string, a ...any) {
	fmt.Fprintf(b.log, "bench: "+format+"\n", a...)
}

func (b *bencher) add(r Row) { b.report.Rows = append(b.report.Rows, r) }

// file writes a bot under the work folder and returns its path.
func (b *bencher) file(rel, content string, mode os.FileMode) (string, error) {
	path := filepath.Join(b.work, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		return "", err
	}
	// The sandbox's unprivileged user must be able to read it, whatever
	// the umask.
	return path, os.Chmod(path, mode)
}

// atMost and atLeast tell whether a figure reached its target.
func atMost(got, max float64) *bool  { ok := !math.IsNaN(got) && got <= max; return &ok }
func atLeast(got, min float64) *bool { ok := !math.IsNaN(got) && got >= min; return &ok }
func both(a, b *bool) *bool          { ok := *a && *b; return &ok }

// Print writes the report as a table followed by its notes.
func (r Report) Print(w io.Writer) error {
	cells := [][]string{{"measure", "sandboxed", "plain", "sandboxed vs plain", "target", "met"}}
	for _, row := range r.Rows {
		met := ""
		if row.Met != nil {
			met = map[bool]string{true: "yes", false: "NO"}[*row.Met]
		}
		cells = append(cells, []string{row.Measure, value(row.Sandboxed, row.Unit), value(row.Plain, row.Unit), row.compared(), row.Target, met})
	}
	width := make([]int, len(cells[0]))
	for _, line := range cells {
		for i, c := range line {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var sb strings.Builder
	for n, line := range cells {
		for i, c := range line {
			pad := width[i] - len([]rune(c))
			if i == 0 || i >= 4 {
				sb.WriteString(c + strings.Repeat(" ", pad))
			} else {
				sb.WriteString(strings.Repeat(" ", pad) + c)
			}
			if i < len(line)-1 {
				sb.WriteString("  ")
			}
		}
		sb.WriteString("\n")
		if n == 0 {
			total := len(width)*2 - 2
			for _, x := range width {
				total += x
			}
			sb.WriteString(strings.Repeat("-", total) + "\n")
		}
	}
	for _, n := range r.Notes {
		sb.WriteString("* " + n + "\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(strings.ReplaceAll(sb.String(), " \n", "\n"), " "))
	return err
}

func (row Row) compared() string {
	if math.IsNaN(row.Sandboxed) || math.IsNaN(row.Plain) {
		return ""
	}
	switch row.Compare {
	case "diff":
		d := row.Sandboxed - row.Plain
		if d > 0 {
			return "+" + value(d, row.Unit)
		}
		return value(d, row.Unit)
	case "ratio":
		if row.Plain == 0 {
			return ""
		}
		return fmt.Sprintf("×%.2f", row.Sandboxed/row.Plain)
	}
	return ""
}

// value prints a figure with about three significant digits.
func value(x float64, unit string) string {
	if math.IsNaN(x) {
		return "—"
	}
	if unit == "×" {
		return fmt.Sprintf("×%.2f", x)
	}
	digits := 0
	switch a := math.Abs(x); {
	case a == 0 || a >= 100:
	case a >= 10:
		digits = 1
	case a >= 1:
		digits = 2
	default:
		digits = 3
	}
	return fmt.Sprintf("%.*f %s", digits, x, unit)
}

// quantile is the nearest-rank q-quantile of durations, in milliseconds.
func quantile(d []time.Duration, q float64) float64 {
	if len(d) == 0 {
		return math.NaN()
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return ms(s[max(0, min(i, len(s)-1))])
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

var errBot = errors.New("bench: a benchmark bot misbehaved")

// checkReply turns a fault of the benchmark's own well-behaved bots into an
// error: a figure measured on faults would mean nothing.
func checkReply(r sandbox.Reply, err error) error {
	if err != nil {
		return err
	}
	if r.Fault != fault.None {
		return fmt.Errorf("%w: %s: %s", errBot, r.Fault, r.Detail)
	}
	return nil
}

// Machine is what a report's figures were measured on: the same run's
// floor (a bare interpreter's start) beside them, so that a ratio can be
// read against what this machine does without the judge.
type Machine struct {
	When          time.Time
	Cores         int
	Memory        string
	Kernel        string
	StorageDriver string
	// Floor is a bare interpreter's start on the host, measured in the
	// same run ("python3 -c pass: 14 ms of CPU, 16 ms wall").
	Floor string
}

// Markdown writes the report as a page: the machine, the table, the notes.
// The performance page of the documentation is such a page, generated by
// `judge bench --report`, never written by hand.
func (r Report) Markdown(w io.Writer, m Machine, took time.Duration) error {
	var sb strings.Builder
	sb.WriteString("# Performance\n\n")
	sb.WriteString("Generated by `judge bench --report` (`make bench`); every figure below comes from one run.\n\n")
	fmt.Fprintf(&sb, "| machine | |\n|---|---|\n| measured | %s, in %s |\n| cores | %d |\n| memory | %s |\n| kernel | %s |\n| storage driver | %s |\n| floor | %s |\n\n",
		m.When.UTC().Format("2006-01-02 15:04 UTC"), took.Round(time.Second), m.Cores, m.Memory, m.Kernel, m.StorageDriver, m.Floor)
	sb.WriteString("| measure | sandboxed | plain | sandboxed vs plain | target | met |\n|---|---:|---:|---:|---|---|\n")
	for _, row := range r.Rows {
		met := ""
		if row.Met != nil {
			met = map[bool]string{true: "yes", false: "**no**"}[*row.Met]
		}
		cells := []string{row.Measure, value(row.Sandboxed, row.Unit), value(row.Plain, row.Unit), row.compared(), row.Target, met}
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		sb.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	if len(r.Notes) > 0 {
		sb.WriteString("\n")
	}
	for _, n := range r.Notes {
		sb.WriteString("- " + n + "\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
