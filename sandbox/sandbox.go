// Package sandbox runs bots. It is the only package that talks to Docker: one
// hardened container per bot per game, with a long-lived harness inside that
// answers one JSON line per request. A bot's misbehaviour comes back as a
// fault.Kind with a reason; a Go error means the judge's own machinery failed.
package sandbox

import (
	"context"
	"time"

	"botjudge/games"
	"botjudge/games/fault"
)

// The protocols a harness speaks are the ones games name, kept once there.
const (
	// ProtocolIA: a Python module defining ia(game, side), imported once per
	// game and called once per request.
	ProtocolIA = games.ProtocolIA
	// ProtocolProgram: one process per request, JSON in argv[1] and stdin.
	ProtocolProgram = games.ProtocolProgram
)

// Bot is one submitted bot, as the judge staged it.
type Bot struct {
	Name string // file stem, for labels and messages
	// Path is the bot's file or folder on the judge's machine. Docker copies
	// it into a volume through the API and mounts that read-only.
	Path string
	// Protocol is ProtocolIA or ProtocolProgram.
	Protocol string
}

// Limits are the per-bot limits of SPEC §5.
type Limits struct {
	// Move is the time a request may be charged: CPU time for bots in a
	// sandbox, with a wall-clock backstop of twice as much (SPEC §5).
	Move    time.Duration
	Startup time.Duration // container ready and, for virus, module imported
	Memory  int64         // bytes, swap included
	CPUs    float64
	Pids    int64
	Answer  int   // bytes per answer
	Log     int   // bytes of log kept per bot per game
	Tmp     int64 // bytes of the writable /tmp
	// Background games (hand-in checks, sparring) run at a lower CPU
	// weight than a tournament's: on a busy machine the tournament's bots
	// get the CPU first.
	Background bool
}

// DefaultLimits are SPEC §5's defaults.
func DefaultLimits() Limits {
	return Limits{
		Move:    10 * time.Second,
		Startup: 10 * time.Second,
		Memory:  256 << 20,
		CPUs:    1,
		Pids:    64,
		Answer:  64 << 10,
		Log:     64 << 10,
		Tmp:     16 << 20,
	}
}

// Reply is the result of one request.
type Reply struct {
	Data   []byte // the JSON answer when Fault is fault.None
	Fault  fault.Kind
	Detail string // the reason in plain words (traceback, exit status...)
	// Elapsed is the request's wall-clock time, as the judge saw it.
	Elapsed time.Duration
	// CPU is what the request was charged when Metered (SPEC §5): the CPU
	// of every process and thread of the bot's container since its
	// previous answer. A reply that is not Metered (a bot reached by URL,
	// a harness that never answered) is charged its wall-clock time.
	CPU     time.Duration
	Metered bool
	// Waited is how long the bot waited for a CPU during the request, as
	// its harness measured: the machine's load, charged to no limit.
	Waited time.Duration
	// Restarted is set when the bot could not be interrupted after this
	// request and was started afresh for the next one (its state is lost).
	Restarted bool
}

// Charged is the time the reply counts against the move's limit and the
// contest's rules: its CPU when it was metered, else its wall-clock time.
func (r Reply) Charged() time.Duration {
	if r.Metered {
		return r.CPU
	}
	return r.Elapsed
}

// Session is one bot running for one game.
type Session interface {
	// Ask sends one request and waits for its answer, at most the move limit.
	Ask(ctx context.Context, request []byte) (Reply, error)
	// Ready reports how the bot started: a fault (import failed...) means
	// every request will get the same fault.
	Ready() Reply
	// Log is what the bot printed so far, bounded by Limits.Log. It is
	// complete once Close has returned: output still in flight when Ask
	// returns may arrive later.
	Log() string
	// Close stops the bot and removes everything it used. It works even when
	// ctx is already cancelled.
	Close(ctx context.Context) error
}
