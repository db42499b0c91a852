package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Received is how many bytes the judge received from s's harnesses.
func Received(s Session) int64 { return s.(*session).received.Load() }

// Phases times one fresh container's life, step by step: created, started
// (attached first), its harness ready, removed.
func Phases(ctx context.Context, d *Docker, bot Bot) ([4]time.Duration, error) {
	var took [4]time.Duration
	lim := DefaultLimits()
	sink := newLineSink(lim.Answer + envelope)
	spec := launchSpec{bot: bot, lim: lim, out: sink, log: io.Discard}
	began := time.Now()
	c, err := d.create(ctx, spec, false)
	if err != nil {
		return took, err
	}
	took[0] = time.Since(began)
	began = time.Now()
	err = c.attachAndStart(ctx, spec.out, spec.log)
	took[1] = time.Since(began)
	if err == nil {
		began = time.Now()
		in := &instance{p: c, lines: sink.lines}
		_, end, werr := in.await(ctx, &backstop{began: time.Now(), allow: lim.Startup}, func(m message) bool { return m["ready"] != nil })
		took[2] = time.Since(began)
		if err = werr; err == nil && end != answered {
			err = fmt.Errorf("no ready line (%d)", end)
		}
	}
	began = time.Now()
	err = errors.Join(err, c.kill(ctx))
	took[3] = time.Since(began)
	return took, err
}

// PruneUsr runs the pruning of /usr copies that follows a new copy.
func PruneUsr(ctx context.Context, d *Docker, keep string) { d.pruneUsr(ctx, keep) }

// NewColdLocal is the local runner without the warm start, as
// Options.Cold is Docker's.
func NewColdLocal() *Local { return &Local{cold: true} }
