package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"botjudge/games"
	"botjudge/judge/contest"
	"botjudge/judge/eta"
	"botjudge/results"
)

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, o := newRunFlags(stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	base, err := o.config()
	if err != nil {
		return err
	}
	folders, err := gameFolders(o.submissions, fs.Args(), stderr)
	if err != nil {
		return err
	}
	db, err := openStore(o.db, true)
	if err != nil {
		return err
	}
	defer db.Close()
	base.StageRoot = contest.StageRootOf(o.db)
	run, image, closeRunner, err := o.runner(ctx, stderr)
	if err != nil {
		return err
	}
	defer closeRunner()
	base.Image = image
	if err := runGames(ctx, run, db, base, o.submissions, folders, stdout, stderr); err != nil {
		return err
	}
	return prune(ctx, db, base.StageRoot, stderr)
}

// runGames plays the tournaments of folders. Several are played side by
// side on one share of workers, so that none sits idle while one
// tournament's last long game goes on and another folder waits: each line
// then starts with its game's name, and the standings come once all have
// ended, in the folders' order whichever ended first, so that two runs
// print the same. A judge's failure in one stops them all.
func runGames(ctx context.Context, run contest.Runner, db *results.DB, base contest.Config, root string, folders []games.Rules, stdout, stderr io.Writer) error {
	out := &lineWriter{w: stdout}
	var share *contest.Share
	width := 0
	if len(folders) > 1 {
		share = contest.NewShare(contest.WorkersFor(ctx, run, base, 2))
		names := make([]string, len(folders))
		for i, r := range folders {
			names[i] = r.Name()
			width = max(width, len(r.Name()))
		}
		fmt.Fprintf(out, "== %s: side by side, %d games at once\n", strings.Join(names, ", "), share.Workers())
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	oks, errs := make([]bool, len(folders)), make([]error, len(folders))
	tables := make([]strings.Builder, len(folders))
	var wg sync.WaitGroup
	for i, r := range folders {
		cfg := base.ForGame(r, filepath.Join(root, r.Name()))
		cfg.Share = share
		label, table := "", io.Writer(out)
		if share != nil {
			label, table = fmt.Sprintf("%-*s", width, r.Name()), &tables[i]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if oks[i], errs[i] = runGame(ctx, run, db, cfg, label, out, table, stderr); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	for i := range tables {
		io.WriteString(out, tables[i].String())
	}
	if share != nil {
		// The tournaments left the containers kept waiting to each other.
		if err := run.Drain(context.WithoutCancel(ctx)); err != nil {
			fmt.Fprintf(stderr, "judge run: %v\n", err)
		}
	}
	return runOutcome(folders, oks, errs)
}

// runOutcome is what the tournaments of folders, each finished (oks) or
// not and with its error, make of the run: a judge's failure first, then a
// stop, then the tournaments not finished.
func runOutcome(folders []games.Rules, oks []bool, errs []error) error {
	var failed []string
	var stopped error
	for i, err := range errs {
		switch {
		case err != nil && !errors.Is(err, context.Canceled):
			return err
		case err != nil:
			stopped = err
		case !oks[i]:
			failed = append(failed, folders[i].Name())
		}
	}
	if stopped != nil {
		return stopped
	}
	if len(failed) > 0 {
		return fmt.Errorf("not finished: %s", strings.Join(failed, ", "))
	}
	return nil
}

// lineWriter lets the tournaments played side by side write to one
// terminal: each Write goes out whole.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// runOptions are the flags of `judge run`: base holds those that go into
// every game folder's Config as they are.
type runOptions struct {
	common
	submissions    string
	format, points string
	base           contest.Config
}

// newRunFlags declares the flags of `judge run`, each defaulting to
// contest.DefaultConfig.
func newRunFlags(stderr io.Writer) (*flag.FlagSet, *runOptions) {
	def := contest.DefaultConfig()
	o := &runOptions{base: def}
	fs := newFlags("run", stderr)
	addStore(fs, &o.common)
	addSandbox(fs, &o.common)
	fs.StringVar(&o.submissions, "submissions", contest.DefaultSubmissions, "`folder` with one subfolder of bots per game")
	fs.IntVar(&o.base.Rounds, "rounds", def.Rounds, "rounds: in duels each pair plays twice per round, each bot first once; in swiss, the rounds of pairings (0: the game's own default, ⌈log2 bots⌉+2 in swiss)")
	fs.StringVar(&o.format, "format", string(def.Format), "how bots meet: duel (every pair, a round robin), swiss (rounds of pairings of equal scores, for large fields), or ffa (games of more than two seats: all bots in one game per round, or heats of at most a game's seats)")
	fs.Int64Var(&o.base.Seed, "seed", def.Seed, "tournament seed: every game's seed derives from it")
	fs.IntVar(&o.base.Workers, "workers", def.Workers, "games played at once (0: one per core, fewer if memory cannot hold their bots)")
	fs.StringVar(&o.points, "points", string(def.Scheme), "points for win-draw-loss: 1-0.5-0 or 3-1-0")
	return fs, o
}

// config checks the flags, each mistake in one line, and gives the Config
// every game folder's tournament starts from.
func (o *runOptions) config() (contest.Config, error) {
	cfg := o.base
	if err := o.checkFlags(); err != nil {
		return cfg, err
	}
	switch {
	case cfg.Rounds < 0:
		return cfg, usagef("--rounds %d: give a number of rounds, or 0 for the game's own default", cfg.Rounds)
	case cfg.Workers < 0:
		return cfg, usagef("--workers %d: give a number of games at once, or 0 for one per core", cfg.Workers)
	}
	var err error
	if cfg.Scheme, err = results.ParseScheme(o.points); err != nil {
		return cfg, usagef("unknown --points %q: use 1-0.5-0 or 3-1-0", o.points)
	}
	if cfg.Format, err = contest.ParseFormat(o.format); err != nil {
		return cfg, usagef("%v", err)
	}
	cfg.Limits, cfg.Policy, cfg.URLBots = o.limits, o.policy, o.urlBots
	return cfg, nil
}

// runGame plays the tournament of one game folder and prints its
// standings, in one piece, to table. Each line of its progress starts with
// label when it is not empty. It tells whether the tournament was finished;
// an error stops the whole run.
func runGame(ctx context.Context, run contest.Runner, db *results.DB, cfg contest.Config, label string, stdout, table, stderr io.Writer) (bool, error) {
	name := cfg.Rules.Name()
	if label == "" {
		fmt.Fprintf(stdout, "== %s: %s\n", name, cfg.Dir)
	}
	start := time.Now()
	sum, err := contest.Run(ctx, run, db, cfg, progress(stdout, label))
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "Stopped. %d games of %s recorded; run again to finish the rest (nothing recorded is lost).\n", sum.Skipped+sum.Played, name)
		return false, ctx.Err()
	}
	if err != nil {
		fmt.Fprintf(stderr, "judge run: %s: %v\n", name, err)
		if sum.Tournament.ID == 0 {
			return false, nil
		}
	}
	var b strings.Builder
	if label != "" {
		fmt.Fprintf(&b, "\n== %s: %s\n", name, cfg.Dir)
	}
	fmt.Fprintf(&b, "%d games played, %d already recorded, in %s.\n\n", sum.Played, sum.Skipped, since(start))
	t, terr := db.Tournament(ctx, sum.Tournament.ID) // with this run's schedule
	if terr == nil {
		terr = showTournament(ctx, db, t, cfg.Scheme, "table", false, &b)
	}
	io.WriteString(table, b.String())
	return err == nil, terr
}

// prune removes the staged copies of bot versions no tournament uses any
// more, so that _bots/ does not grow with every version ever submitted. The
// database knows its own tournaments only: the copies other judge processes
// use are kept by their leases.
func prune(ctx context.Context, db *results.DB, stage string, stderr io.Writer) error {
	inUse, err := db.EnteredHashes(ctx)
	if err != nil {
		return err
	}
	n, err := contest.Prune(stage, inUse)
	if n > 0 {
		fmt.Fprintf(stderr, "judge: removed %d staged bot versions no tournament uses\n", n)
	}
	return err
}

// gameFolders picks the games to play: those named, or every known game
// folder that holds something. Unknown and empty folders are reported and
// skipped so that one mistake does not stop the contest.
func gameFolders(root string, named []string, stderr io.Writer) ([]games.Rules, error) {
	des, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no submissions folder at %s: create %s/<game>/ (games: %s) and put the bots in it", root, root, strings.Join(games.Names(), ", "))
	}
	if err != nil {
		return nil, err
	}
	var out []games.Rules
	for _, n := range named {
		r, ok := games.Lookup(n)
		if !ok {
			return nil, usagef("unknown game %q (known: %s)", n, strings.Join(games.Names(), ", "))
		}
		if hasBots(filepath.Join(root, n), stderr) {
			out = append(out, r)
		}
	}
	if len(named) == 0 {
		for _, de := range des {
			if strings.HasPrefix(de.Name(), ".") {
				continue
			}
			r, ok := games.Lookup(de.Name())
			if !ok {
				fmt.Fprintf(stderr, "judge: %s: not a game folder (games: %s), skipped\n", filepath.Join(root, de.Name()), strings.Join(games.Names(), ", "))
				continue
			}
			if hasBots(filepath.Join(root, de.Name()), stderr) {
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no bots in %s: put them in %s/<game>/ (games: %s)", root, root, strings.Join(games.Names(), ", "))
	}
	return out, nil
}

// hasBots tells whether a game folder holds anything to play, and says why
// not when it does not.
func hasBots(dir string, stderr io.Writer) bool {
	info, err := os.Stat(dir) // follows links: a link to a folder is a folder
	if err == nil && !info.IsDir() {
		fmt.Fprintf(stderr, "judge: %s: not a folder, skipped\n", dir)
		return false
	}
	des, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		fmt.Fprintf(stderr, "judge: %s: no such folder, skipped\n", dir)
		return false
	case err != nil:
		fmt.Fprintf(stderr, "judge: %v: skipped\n", err)
		return false
	}
	for _, de := range des {
		if !strings.HasPrefix(de.Name(), ".") {
			return true
		}
	}
	fmt.Fprintf(stderr, "judge: %s: no bots in it, skipped\n", dir)
	return false
}

// progress prints one line per event, each starting with label (or an
// indent): it reads well on a terminal and in a CI log alike. Checks and
// games report from several workers at once: one line at a time.
func progress(stdout io.Writer, label string) func(contest.Event) {
	var mu sync.Mutex
	return func(e contest.Event) {
		mu.Lock()
		defer mu.Unlock()
		// One Write per event, which a lineWriter keeps whole.
		var w strings.Builder
		defer func() { io.WriteString(stdout, w.String()) }()
		pre := "  "
		if label != "" {
			pre = label + "  "
		}
		switch e.Kind {
		case "notice":
			fmt.Fprintf(&w, "%s! %s\n", pre, e.Text)
		case "build":
			if e.Text == "" {
				fmt.Fprintf(&w, "%scompiled %s (%s)\n", pre, e.Name, e.Elapsed.Round(10*time.Millisecond))
			} else {
				fmt.Fprintf(&w, "%scompiled %s: %s (%s)\n", pre, e.Name, e.Text, e.Elapsed.Round(10*time.Millisecond))
			}
		case "check":
			if e.Check.OK {
				fmt.Fprintf(&w, "%sready    %s (%s)\n", pre, e.Name, e.Elapsed.Round(time.Millisecond))
			} else {
				fmt.Fprintf(&w, "%sBROKEN   %s: %s: %s\n", pre, e.Name, e.Check.Verdict, oneLine(e.Check.Detail))
			}
		case "start":
			fmt.Fprintf(&w, "%s%s\n", pre, e.Text)
			if e.Worst > 0 && e.Done < e.Total {
				fmt.Fprintf(&w, "%sat most %s if every bot used its whole time on every move (games × moves × limit / workers)\n", pre, eta.Roughly(e.Worst))
			}
		case "game":
			left := ""
			if s := e.Left.String(); s != "" && e.Done < e.Total {
				left = " · " + s
			}
			fmt.Fprintf(&w, "%s[%*d/%d] %s%s\n", pre, len(fmt.Sprint(e.Total)), e.Done, e.Total, gameLine(e.Game, e.Elapsed), left)
		case "failure", "suggest":
			fmt.Fprintf(&w, "%s! %s\n", pre, e.Text)
		case "waiting":
			fmt.Fprintf(&w, "%s… %s · %s\n", pre, e.Text, e.Left.String())
		}
	}
}

func gameLine(g *results.Game, elapsed time.Duration) string {
	var b strings.Builder
	for i, p := range g.Players {
		if i > 0 {
			b.WriteString(" vs ")
		}
		fmt.Fprintf(&b, "%s %d", p.Name, p.Score)
		if p.Rank == 1 && !allRank1(g.Players) {
			b.WriteString(" (won)")
		}
	}
	fmt.Fprintf(&b, " · %s · %s", g.Reason, elapsed.Round(100*time.Millisecond))
	var faults []string
	for _, p := range g.Players {
		if p.Faults > 0 {
			faults = append(faults, fmt.Sprintf("%s %d", p.Name, p.Faults))
		}
	}
	if len(faults) > 0 {
		fmt.Fprintf(&b, " · faults: %s", strings.Join(faults, ", "))
	}
	return b.String()
}

func allRank1(ps []results.Player) bool {
	for _, p := range ps {
		if p.Rank != 1 {
			return false
		}
	}
	return true
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
