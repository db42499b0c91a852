package main

import (
	"context"
	"errors"
	"testing"

	"botjudge/sandbox"
	"botjudge/sandbox/httpbot"
	"botjudge/sandbox/sandboxtest"
)

// byURL forwards every capability of the sandbox beside it: the containers
// a pool keeps are drained at the end of a tournament with bots by URL too,
// and the sandbox's machine sets the games at once.
func TestByURLForwards(t *testing.T) {
	ctx := context.Background()
	box := &sandboxtest.Fake{Cores: 3, Memory: 5 << 30}
	run := byURL{sandboxed: box, url: httpbot.New()}
	if err := run.Drain(ctx); err != nil || box.Drains() != 1 {
		t.Errorf("Drain: %v, the sandbox drained %d times, want once", err, box.Drains())
	}
	if cores, memory, err := run.Capacity(ctx); cores != 3 || memory != 5<<30 || err != nil {
		t.Errorf("Capacity = %d, %d, %v: want the sandbox's", cores, memory, err)
	}
	if _, err := run.Build(ctx, "src", "dst", sandbox.DefaultBuildLimits()); run.Builds() || !errors.Is(err, sandbox.ErrNoBuild) {
		t.Errorf("a sandbox that does not build: Builds %v, Build %v", run.Builds(), err)
	}
}
