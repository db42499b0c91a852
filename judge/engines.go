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

// engine is one Docker engine of a run, with its pool: each bot's container
// serves its games one after another there (SPEC §5), so that a game costs
// an interpreter start, not a container's life.
type engine struct {
	d    *sandbox.Docker
	pool *sandbox.Pool
	// name starts what is said of the engine: "" when it is the run's
	// only one, "address: " among several.
	name string
}

// dialEngine connects to the engine of opts; named: one of several.
func dialEngine(ctx context.Context, opts sandbox.Options, named bool) (*engine, error) {
	d, err := sandbox.NewDocker(ctx, opts)
	if err != nil {
		if named {
			err = fmt.Errorf("--engine %s: %w", opts.Host, err)
		}
		return nil, err
	}
	e := &engine{d: d, pool: sandbox.NewPool(d, 0)}
	if named {
		e.name = d.Host() + ": "
	}
	return e, nil
}

// reap removes the containers a run that died left on the engine (more:
// "more " once this run reaped them at its start).
func (e *engine) reap(ctx context.Context, stderr io.Writer, more string) error {
	n, err := e.d.Reap(ctx)
	if err == nil && n > 0 {
		fmt.Fprintf(stderr, "judge: %sremoved %d %scontainers left by a run that died\n", e.name, n, more)
	}
	return err
}

// closeWait bounds ending a run on an engine: removing what the run left
// waits that long for a slow engine (a loaded machine's), and countWait
// then bounds counting what is left.
var closeWait = 30 * time.Second

const countWait = 5 * time.Second

// close ends the run on the engine, even one stopped by Ctrl-C: its
// waiting containers, the late ones of a create the engine finished for a
// judge killed in the middle of it, and the bots' volumes. An engine that
// went away, or did not remove everything within closeWait, keeps the rest
// until the next run there reaps it: one line says so.
func (e *engine) close(ctx context.Context, stderr io.Writer) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeWait)
	defer cancel()
	defer e.d.Close()
	if e.d.Ping(rctx) != nil {
		return
	}
	err := errors.Join(e.pool.Drain(rctx), e.reap(rctx, stderr, "more "), e.d.Clear(rctx))
	if err != nil {
		fmt.Fprintf(stderr, "judge: %s%s\n", e.name, e.left(context.WithoutCancel(ctx), err))
	}
}

// left says in one line what the run could not remove from the engine:
// each removal's error, forty of them on a slow engine, would say the same.
func (e *engine) left(ctx context.Context, err error) string {
	ctx, cancel := context.WithTimeout(ctx, countWait)
	defer cancel()
	boxes, cerr := e.d.Containers(ctx)
	vols, verr := e.d.VolumesLabelled(ctx, sandbox.LabelOwner, e.d.Owner())
	what := "some containers and volumes of this run are"
	if cerr == nil && verr == nil {
		what = fmt.Sprintf("%d containers and %d volumes of this run are", len(boxes), len(vols))
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return fmt.Sprintf("%s left on the engine (%s); the next run removes them", what, first)
}

// openDocker connects to the engines of hosts, one or more: each reaped of
// what a dead earlier run left and given the runtime image by the first
// that has it. It returns one runner over all of them, the image's digest,
// and what ends the run on them.
func openDocker(ctx context.Context, hosts []string, stderr io.Writer) (contest.Runner, string, func(), error) {
	var es []*engine
	closeAll := func() {
		for _, e := range es {
			e.close(ctx, stderr)
		}
	}
	fail := func(err error) (contest.Runner, string, func(), error) {
		closeAll()
		return nil, "", nil, err
	}
	for _, h := range hosts {
		opts := dockerOptions()
		opts.Host = h
		e, err := dialEngine(ctx, opts, len(hosts) > 1)
		if err != nil {
			return fail(err)
		}
		es = append(es, e)
		if err := e.reap(ctx, stderr, ""); err != nil {
			return fail(err)
		}
	}
	digest, err := shareImage(ctx, es, stderr)
	if err != nil {
		return fail(err)
	}
	if len(es) == 1 {
		return es[0].pool, digest, closeAll, nil
	}
	pools := make([]contest.Engine, len(es))
	for i, e := range es {
		pools[i] = e.pool
	}
	run, err := contest.NewEngines(ctx, pools)
	if err != nil {
		return fail(err)
	}
	return run, digest, closeAll, nil
}

// shareImage finds the runtime image on the first engine that has it and
// sends it to the others; it returns its digest, the same on every engine.
func shareImage(ctx context.Context, es []*engine, stderr io.Writer) (string, error) {
	var source *engine
	var digest string
	var err error
	for _, e := range es {
		if digest, err = e.d.EnsureImage(ctx, stderr, false); err == nil {
			source = e
			break
		} else if !errors.Is(err, sandbox.ErrImageMissing) {
			return "", err
		}
	}
	if source == nil && len(es) > 1 {
		err = fmt.Errorf("%w: no engine has %s: run `make image` (or `judge image`) with DOCKER_HOST at one of them", sandbox.ErrImageMissing, es[0].d.Image())
	}
	if source == nil {
		return "", err
	}
	for _, e := range es {
		if id, err := e.d.SendImage(ctx, source.d, stderr); err != nil {
			return "", err
		} else if id != digest {
			return "", fmt.Errorf("judge: %s has another %s (%s, not %s): remove it there", e.d.Host(), e.d.Image(), id, digest)
		}
	}
	return digest, nil
}
