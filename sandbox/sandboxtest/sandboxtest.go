// Package sandboxtest gives tests a real Docker sandbox, its runtime image
// built once per test binary. Without a Docker engine the tests skip, unless
// CI=true: then they fail, so that a green CI means the sandbox really ran.
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
