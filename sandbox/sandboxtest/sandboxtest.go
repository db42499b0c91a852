// Package sandboxtest gives tests a real Docker sandbox, its runtime image
// built once per test binary. Without a Docker engine the tests skip, unless
// CI=true: then they fail, so that a green CI means the sandbox really ran.
// Beside it, Fake runs scripted bots in memory, for fast tests of what
// plays games.
package sandboxtest

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"botjudge/sandbox"
)

var (
	once  sync.Once
	setup error
)

// Docker returns a Docker runner of its own (its own owner label, so that
// Leftovers sees only this test's containers) whose runtime image exists:
// the first call builds it, and its base, if needed.
func Docker(tb testing.TB) *sandbox.Docker {
	tb.Helper()
	once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		d, err := sandbox.NewDocker(ctx, sandbox.Options{})
		if setup = err; err != nil {
			return
		}
		defer d.Close()
		// The first build takes a minute or two: show it.
		_, setup = d.EnsureImage(ctx, os.Stderr, true)
	})
	err := setup
	var d *sandbox.Docker
	if err == nil {
		d, err = sandbox.NewDocker(context.Background(), sandbox.Options{})
	}
	switch {
	case errors.Is(err, sandbox.ErrEngine) && os.Getenv("CI") != "true":
		tb.Skipf("no Docker engine (set CI=true to make this a failure): %v", err)
	case err != nil:
		tb.Fatalf("sandbox: %v", err)
	}
	tb.Cleanup(func() {
		// Bots reach their containers through volumes: the test's go with it.
		if err := d.RemoveVolumes(context.Background()); err != nil {
			tb.Error(err)
		}
		d.Close()
	})
	return d
}

// Pool returns a Pool on a Docker of its own whose every session starts in
// a container that already served a session of the same bot (Start first
// starts and closes one). The pool is drained when the test ends, and then
// none of its containers may be left.
func Pool(tb testing.TB) Warmed {
	tb.Helper()
	p := sandbox.NewPool(Docker(tb), 0)
	tb.Cleanup(func() {
		if err := p.Drain(context.Background()); err != nil {
			tb.Error(err)
		}
		if n := Leftovers(tb, p.Docker); n > 0 {
			tb.Errorf("%d containers left after the pool was drained", n)
		}
	})
	return Warmed{p}
}

// Warmed is a Pool whose sessions never get a new container.
type Warmed struct{ *sandbox.Pool }

// Start closes a first session of bot before it starts the one it returns.
func (w Warmed) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	first, err := w.Pool.Start(ctx, bot, lim, labels)
	if err != nil {
		return nil, err
	}
	if err := first.Close(ctx); err != nil {
		return nil, err
	}
	return w.Pool.Start(ctx, bot, lim, labels)
}

// Leftovers counts the containers d started that still exist: once every
// session is closed there must be none.
func Leftovers(tb testing.TB, d *sandbox.Docker) int {
	tb.Helper()
	ids, err := d.Containers(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return len(ids)
}
