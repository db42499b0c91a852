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
	"time"

	"botjudge/games"
	_ "botjudge/games/all" // every game, registered
	"botjudge/judge/contest"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/httpbot"
)

// common are the flags every command that runs bots shares.
type common struct {
	db          string
	sandboxKind string
	engines     engineList
	urlBots     bool
	limits      sandbox.Limits
	policy      contest.Policy
}

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("judge "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func addStore(fs *flag.FlagSet, c *common) {
	fs.StringVar(&c.db, "db", filepath.Join("results", "judge.db"), "SQLite `file` holding every game")
}

func addSandbox(fs *flag.FlagSet, c *common) {
	def := contest.DefaultConfig()
	c.limits, c.policy = def.Limits, def.Policy
	fs.StringVar(&c.sandboxKind, "sandbox", "docker", "where bots run: docker, or none (UNSAFE: plain processes with your rights, for testing your own bot)")
	fs.Var(&c.engines, "engine", "Docker engine `address` to play on (unix:///..., tcp://host:2376), repeatable or comma-separated; default: $"+enginesEnv+", else DOCKER_HOST or the default socket")
	fs.BoolVar(&c.urlBots, "allow-url-bots", false, "let bots reached by URL (name.url files) play: NOT sandboxed, the judge POSTs to whatever address they name")
	fs.DurationVar(&c.limits.Move, "move-limit", c.limits.Move, "CPU `time` per move (bots by URL: wall-clock time); a move also ends at twice it in wall-clock time")
	fs.DurationVar(&c.limits.Startup, "startup-limit", c.limits.Startup, "`time` for a bot to start (e.g. to import a Python module)")
	fs.Int64Var(&c.limits.Memory, "memory", c.limits.Memory, "memory per bot in `bytes`, swap included")
	fs.IntVar(&c.policy.GiveUp, "give-up", c.policy.GiveUp, "stop asking a bot for the rest of a game after this many timeouts in a row (0: never)")
	fs.DurationVar(&c.policy.Budget, "budget", 0, "a bot's whole charged `time` per game (CPU, as each move), chess-clock style (0: none, only the move limit)")
}

// newBotFlags declares the flags of a command that runs the bots named on
// its command line (check, play): the store's, the sandbox's and --game,
// whose default is the bots' folder (whose: "the bot's", "the bots'").
func newBotFlags(name, whose string, stderr io.Writer) (*flag.FlagSet, *common, *string) {
	fs := newFlags(name, stderr)
	c := &common{}
	addStore(fs, c)
	addSandbox(fs, c)
	return fs, c, fs.String("game", "", "the game (default: "+whose+" folder name)")
}

// parse parses args into fs, then checks the sandbox's flags.
func (c *common) parse(fs *flag.FlagSet, args []string) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	return c.checkFlags()
}

// Bounds of the flags, so that a mistake gets one line before anything is
// recorded rather than a tournament of games that all fail.
const (
	minMoveLimit = 10 * time.Millisecond
	maxLimit     = time.Hour
	// minMemory: the runtime's interpreters need some room to start at all.
	minMemory = 32 << 20
)

// checkFlags says, in one line, what is wrong with the sandbox's flags.
func (c *common) checkFlags() error {
	switch {
	case c.sandboxKind != "docker" && c.sandboxKind != "none":
		return usagef("unknown --sandbox %q: use docker or none", c.sandboxKind)
	case c.limits.Move < minMoveLimit || c.limits.Move > maxLimit:
		return usagef("--move-limit %v: give a time from %v to %v, e.g. 10s or 500ms", c.limits.Move, minMoveLimit, maxLimit)
	case c.limits.Startup < minMoveLimit || c.limits.Startup > maxLimit:
		return usagef("--startup-limit %v: give a time from %v to %v, e.g. 10s", c.limits.Startup, minMoveLimit, maxLimit)
	case c.limits.Memory < minMemory:
		return usagef("--memory %d: give at least %d bytes (32 MiB), e.g. 268435456 for 256 MiB", c.limits.Memory, minMemory)
	case c.policy.GiveUp < 0:
		return giveUpError(c.policy.GiveUp)
	case c.policy.Budget < 0 || c.policy.Budget > 24*maxLimit:
		return usagef("--budget %v: give a time per game, e.g. 2m, or 0 for none", c.policy.Budget)
	}
	return nil
}

func giveUpError(n int) error {
	return usagef("--give-up %d: give a number of timeouts, or 0 to never give up", n)
}

// parse parses flags and turns flag mistakes into usage errors of one line;
// the list of flags is for -h only. Flags may come after the arguments
// (judge run virus --db x.db), as people type them: the flag package alone
// stops at the first argument and would leave the flags after it unread.
func parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := parseInterleaved(fs, args)
	fs.SetOutput(out)
	switch {
	case err == flag.ErrHelp:
		fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
		fs.PrintDefaults()
		return err
	case err != nil:
		return usagef("%v (%s -h lists the flags)", err, fs.Name())
	}
	return nil
}

// parseInterleaved parses the flags wherever they are among the
// arguments; after "--" everything is an argument. fs.Args() are then the
// arguments, in their order.
func parseInterleaved(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		used := len(args) - len(rest)
		if len(rest) == 0 || (used > 0 && args[used-1] == "--") {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// runner opens the runner of c's flags: the sandbox, and beside it, with
// --allow-url-bots, the bots reached by URL.
func (c *common) runner(ctx context.Context, stderr io.Writer) (contest.Runner, string, func(), error) {
	run, image, closeRunner, err := openRunnerOn(ctx, c.sandboxKind, c.engines.hosts(), stderr)
	if err != nil || !c.urlBots {
		return run, image, closeRunner, err
	}
	fmt.Fprintln(stderr, "judge: WARNING: --allow-url-bots: bots reached by URL play, not sandboxed: the judge POSTs to any address their .url file names, from this machine.")
	return byURL{sandboxed: run, url: httpbot.New()}, image, closeRunner, nil
}

// byURL runs each bot reached by URL (name.url) over HTTP and every other
// bot in the sandbox.
type byURL struct{ sandboxed, url contest.Runner }

var _ contest.Runner = byURL{}

func (m byURL) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	if httpbot.ByURL(bot.Path) {
		return m.url.Start(ctx, bot, lim, labels)
	}
	return m.sandboxed.Start(ctx, bot, lim, labels)
}

// Builds is the sandbox's: a bot reached by URL is never compiled.
func (m byURL) Builds() bool { return m.sandboxed.Builds() }

// Build builds compiled bots in the sandbox.
func (m byURL) Build(ctx context.Context, src, dst string, lim sandbox.BuildLimits) (sandbox.Built, error) {
	return m.sandboxed.Build(ctx, src, dst, lim)
}

// Drain drains both: what the sandbox keeps, and whatever the runner of
// bots by URL may keep one day.
func (m byURL) Drain(ctx context.Context) error {
	return errors.Join(m.sandboxed.Drain(ctx), m.url.Drain(ctx))
}

// openRunner connects to the sandbox. For Docker it also removes what a dead
// earlier run left behind and makes sure the runtime image exists.
func openRunner(ctx context.Context, kind string, stderr io.Writer) (contest.Runner, string, func(), error) {
	return openRunnerOn(ctx, kind, engineList(nil).hosts(), stderr)
}

// openRunnerOn is openRunner on the engines of hosts.
func openRunnerOn(ctx context.Context, kind string, hosts []string, stderr io.Writer) (contest.Runner, string, func(), error) {
	switch kind {
	case "none":
		fmt.Fprintln(stderr, "judge: WARNING: --sandbox=none runs bots as plain processes with your rights, unprotected. Only for your own bots.")
		return sandbox.NewLocal(), "none", func() {}, nil
	case "docker":
		return dockerRunner(ctx, hosts, stderr)
	}
	return nil, "", nil, usagef("unknown --sandbox %q: use docker or none", kind)
}

// dockerRunner opens the Docker sandbox. The tests of the command line's
// wiring (judge serve --hand-in end to end) put plain processes in its
// place, which the command line itself never allows with --hand-in.
var dockerRunner = openDocker

// imageEnv names a runtime image other than this build's own (`judge image`
// then builds that one): for an organiser who keeps several, and for the
// tests of a missing image.
const imageEnv = "BOTJUDGE_IMAGE"

func dockerOptions() sandbox.Options {
	return sandbox.Options{Image: os.Getenv(imageEnv)}
}

// gameOfBot finds which game a bot file belongs to: --game, or the folder it
// sits in (submissions/<game>/me.py).
func gameOfBot(flagGame, path string) (games.Rules, error) {
	name := flagGame
	if name == "" {
		name = filepath.Base(filepath.Dir(mustAbs(path)))
	}
	r, ok := games.Lookup(name)
	if !ok {
		if flagGame != "" {
			return nil, usagef("unknown game %q (known: %s)", flagGame, strings.Join(games.Names(), ", "))
		}
		return nil, usagef("cannot tell the game of %s from its folder: add --game (%s)", path, strings.Join(games.Names(), ", "))
	}
	return r, nil
}

func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// botEntry reads one bot given on the command line as if it was discovered
// (urlBots: with bots reached by URL allowed).
func botEntry(path string, r games.Rules, urlBots bool) (contest.Entry, error) {
	dir, base := filepath.Split(mustAbs(path))
	entries, notices, err := contest.Discover(dir, r.Protocol(), urlBots)
	if err != nil {
		return contest.Entry{}, err
	}
	for _, e := range entries {
		if filepath.Base(e.Source) == base {
			return e, nil
		}
	}
	for _, n := range notices {
		if filepath.Base(n.Path) == base {
			return contest.Entry{}, fmt.Errorf("%s", n.String())
		}
	}
	if _, err := os.Stat(path); err != nil {
		return contest.Entry{}, err
	}
	return contest.Entry{}, fmt.Errorf("%s is not a %s bot", path, r.Name())
}

// openStore opens the results database: to write games in it (its folder
// must exist), or to read one that exists (standings, the screen).
func openStore(path string, write bool) (*results.DB, error) {
	open := results.OpenExisting
	if write {
		open = results.Open
	}
	db, err := open(path)
	switch {
	case errors.Is(err, results.ErrNoDatabase):
		return nil, fmt.Errorf("no results database at %s: run `judge run` (or `make run`) first, or give --db", path)
	case err != nil:
		return nil, fmt.Errorf("opening the results database: %w", err)
	}
	return db, nil
}

func since(t time.Time) string { return time.Since(t).Round(100 * time.Millisecond).String() }
