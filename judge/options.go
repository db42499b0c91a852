package main

import (
	"context"
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
)

// common are the flags every command that runs bots shares.
type common struct {
	db          string
	sandboxKind string
	limits      sandbox.Limits
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
	c.limits = sandbox.DefaultLimits()
	fs.StringVar(&c.sandboxKind, "sandbox", "docker", "where bots run: docker, or none (UNSAFE: plain processes with your rights, for testing your own bot)")
	fs.DurationVar(&c.limits.Move, "move-limit", c.limits.Move, "wall-clock `time` per move")
	fs.DurationVar(&c.limits.Startup, "startup-limit", c.limits.Startup, "`time` for a bot to start (import, for virus)")
	fs.Int64Var(&c.limits.Memory, "memory", c.limits.Memory, "memory per bot in `bytes`, swap included")
}

// parse parses flags and turns flag mistakes into usage errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// openRunner connects to the sandbox. For Docker it also removes what a dead
// earlier run left behind and makes sure the runtime image exists.
func openRunner(ctx context.Context, kind string, stderr io.Writer) (contest.Runner, string, func(), error) {
	switch kind {
	case "none":
		fmt.Fprintln(stderr, "judge: WARNING: --sandbox=none runs bots as plain processes with your rights, unprotected. Only for your own bots.")
		return sandbox.NewLocal(), "none", func() {}, nil
	case "docker":
	default:
		return nil, "", nil, usagef("unknown --sandbox %q: use docker or none", kind)
	}
	d, err := sandbox.NewDocker(ctx, dockerOptions())
	if err != nil {
		return nil, "", nil, err
	}
	if n, err := d.Reap(ctx); err != nil {
		d.Close()
		return nil, "", nil, err
	} else if n > 0 {
		fmt.Fprintf(stderr, "judge: removed %d containers left by a run that died\n", n)
	}
	digest, err := d.EnsureImage(ctx, stderr, false)
	if err != nil {
		d.Close()
		return nil, "", nil, err
	}
	return d, digest, func() {
		// The engine may finish creating a container for a judge killed
		// in the middle of the request after the reaping above: reap its
		// late containers too, even when stopped by Ctrl-C.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if n, err := d.Reap(rctx); err != nil {
			fmt.Fprintf(stderr, "judge: %v\n", err)
		} else if n > 0 {
			fmt.Fprintf(stderr, "judge: removed %d more containers left by a run that died\n", n)
		}
		d.Close()
	}, nil
}

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

// botEntry reads one bot given on the command line as if it was discovered.
func botEntry(path string, r games.Rules) (contest.Entry, error) {
	dir, base := filepath.Split(mustAbs(path))
	entries, notices, err := contest.Discover(dir, r.Protocol())
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

func openStore(path string) (*results.DB, error) {
	db, err := results.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening the results database: %w", err)
	}
	return db, nil
}

func since(t time.Time) string { return time.Since(t).Round(100 * time.Millisecond).String() }
