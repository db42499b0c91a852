package sandbox

import (
	"context"
	"errors"
)

// Runner is a way of running bots: Docker (a container per bot per game),
// Pool (Docker, each bot's container kept for its next games), Local (plain
// processes), httpbot.Runner (bots reached by URL), and the judge's runners
// built on them. Every capability is a method, as go-judge's environments
// have every operation: a wrapper that forgets one does not compile, and a
// runner without one says so explicitly (Builds false, ErrNoCapacity, a
// Drain with nothing to drain).
type Runner interface {
	// Start starts bot for one game and waits until it is ready. labels
	// name what it runs (LabelGameKey...).
	Start(ctx context.Context, bot Bot, lim Limits, labels map[string]string) (Session, error)
	// Builds tells whether Build compiles bots. A compiled bot's program
	// is kept from one run to the next: a runner that cannot build must
	// not run it either, so the judge asks before it looks for one.
	Builds() bool
	// Build compiles the staged bot at src into the folder dst, which must
	// not exist; ErrNoBuild when the runner does not build.
	Build(ctx context.Context, src, dst string, lim BuildLimits) (Built, error)
	// Capacity is the machine the bots run on: its cores and its memory
	// in bytes. ErrNoCapacity when the runner does not know it.
	Capacity(ctx context.Context) (cores int, memory int64, err error)
	// Drain removes what the runner keeps between games (Pool's waiting
	// containers), once the games that could use it are over; nil when it
	// keeps nothing.
	Drain(ctx context.Context) error
}

var (
	// ErrNoBuild is Build's answer on a runner that does not build.
	ErrNoBuild = errors.New("sandbox: this runner does not build compiled bots")
	// ErrNoCapacity is Capacity's answer on a runner that does not know
	// the machine its bots run on.
	ErrNoCapacity = errors.New("sandbox: this runner does not know the machine its bots run on")
)

// StartOnly is what a runner that only starts bots has of the other
// capabilities: it builds nothing, knows no machine and keeps nothing
// between games. A runner embeds it to say so.
type StartOnly struct{}

// Builds is false: nothing is built.
func (StartOnly) Builds() bool { return false }

// Build is ErrNoBuild.
func (StartOnly) Build(context.Context, string, string, BuildLimits) (Built, error) {
	return Built{}, ErrNoBuild
}

// Capacity is ErrNoCapacity.
func (StartOnly) Capacity(context.Context) (int, int64, error) { return 0, 0, ErrNoCapacity }

// Drain has nothing to drain.
func (StartOnly) Drain(context.Context) error { return nil }

var (
	_ Runner = (*Docker)(nil)
	_ Runner = (*Pool)(nil)
	_ Runner = (*Local)(nil)
)

// Builds is true: Build compiles in a container of the runtime image.
func (d *Docker) Builds() bool { return true }

// Drain has nothing to drain: every container goes with its game.
func (d *Docker) Drain(context.Context) error { return nil }

// Builds is true: the pool's Docker builds.
func (p *Pool) Builds() bool { return true }

// Build compiles on the pool's Docker, in a container of its own that is
// never kept.
func (p *Pool) Build(ctx context.Context, src, dst string, lim BuildLimits) (Built, error) {
	return p.Docker.Build(ctx, src, dst, lim)
}

// Capacity is the pool's engine's machine.
func (p *Pool) Capacity(ctx context.Context) (int, int64, error) { return p.Docker.Capacity(ctx) }

// Ping tells whether the pool's engine still answers.
func (p *Pool) Ping(ctx context.Context) error { return p.Docker.Ping(ctx) }

// Host is the pool's engine's address.
func (p *Pool) Host() string { return p.Docker.Host() }
