package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// enginesEnv lists engines, comma-separated, when no --engine is given.
const enginesEnv = "BOTJUDGE_ENGINES"

// engineList is the repeatable --engine flag.
type engineList []string

func (l *engineList) String() string { return strings.Join(*l, ",") }

func (l *engineList) Set(v string) error {
	for h := range strings.SplitSeq(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			*l = append(*l, h)
		}
	}
	return nil
}

// hosts are the engines to play on: --engine, else BOTJUDGE_ENGINES, else
// one, the environment's (DOCKER_HOST or the default socket), named "".
func (l engineList) hosts() []string {
	if len(l) > 0 {
		return l
	}
	var env engineList
	env.Set(os.Getenv(enginesEnv))
	if len(env) > 0 {
		return env
	}
	return []string{""}
}

// Capacity is the sandbox's, for the default number of games at once: the
// bots reached by URL run on their authors' machines.
func (m byURL) Capacity(ctx context.Context) (int, int64, error) { return m.sandboxed.Capacity(ctx) }

// openEngines connects to several engines: each reaped of what a dead
// earlier run left, each given the runtime image by the first that has it,
// then one runner spreading the games over all of them.
func openEngines(ctx context.Context, hosts []string, stderr io.Writer) (contest.Runner, string, func(), error) {
	var docks []*sandbox.Docker
	closeAll := func() {
		// As for one engine: what a create cancelled half-way left, and
		// the bots' volumes, even when stopped by Ctrl-C. An engine that
		// went away keeps its own until the next run there reaps it.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		for _, d := range docks {
			if _, err := d.Reap(rctx); err != nil && d.Ping(rctx) == nil {
				fmt.Fprintf(stderr, "judge: %s: %v\n", d.Host(), err)
			}
			if err := d.Clear(rctx); err != nil && d.Ping(rctx) == nil {
				fmt.Fprintf(stderr, "judge: %s: %v\n", d.Host(), err)
			}
			d.Close()
		}
	}
	fail := func(err error) (contest.Runner, string, func(), error) {
		closeAll()
		return nil, "", nil, err
	}
	var source *sandbox.Docker
	digest := ""
	for _, h := range hosts {
		opts := dockerOptions()
		opts.Host = h
		d, err := sandbox.NewDocker(ctx, opts)
		if err != nil {
			return fail(fmt.Errorf("--engine %s: %w", h, err))
		}
		docks = append(docks, d)
		if n, err := d.Reap(ctx); err != nil {
			return fail(err)
		} else if n > 0 {
			fmt.Fprintf(stderr, "judge: %s: removed %d containers left by a run that died\n", d.Host(), n)
		}
		if source == nil {
			if id, err := d.EnsureImage(ctx, nil, false); err == nil {
				source, digest = d, id
			} else if !errors.Is(err, sandbox.ErrImageMissing) {
				return fail(err)
			}
		}
	}
	if source == nil {
		return fail(fmt.Errorf("%w: no engine has %s: run `make image` (or `judge image`) with DOCKER_HOST at one of them", sandbox.ErrImageMissing, docks[0].Image()))
	}
	engines := make([]contest.Engine, len(docks))
	for i, d := range docks {
		if id, err := d.SendImage(ctx, source, stderr); err != nil {
			return fail(err)
		} else if id != digest {
			return fail(fmt.Errorf("judge: %s has another %s (%s, not %s): remove it there", d.Host(), d.Image(), id, digest))
		}
		// As on one engine, each bot's container serves its games one
		// after another there.
		engines[i] = sandbox.NewPool(d, 0)
	}
	run, err := contest.NewEngines(ctx, engines)
	if err != nil {
		return fail(err)
	}
	return run, digest, closeAll, nil
}
