package sandbox

import (
	"botjudge/games/fault"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// DefaultIdle is how many containers a Pool keeps waiting at most. An idle
// container holds a sleeping warden and its engine's processes (about
// 20 MB in all, no CPU), and a round robin brings each bot back within a
// few games: 48 covers a 30-bot tournament on a few workers.
const DefaultIdle = 48

// Pool runs bots like Docker, but keeps each bot's container between its
// games (SPEC §5's Decision): once a game is over, the container's warden
// kills every process but itself and empties every writable place, and the
// container waits for that same bot's next game, which starts a fresh
// harness in it. A game then costs one interpreter start rather than a
// container's creation, start and removal. A container whose reset fails,
// whose bot could not be stopped, or that ended, is removed instead.
//
// Containers are reused only for the same bot file, protocol, limits and
// labels; LabelGameKey is not put on them.
type Pool struct {
	Docker *Docker // where the containers run
	max    int

	mu      sync.Mutex
	idle    []*warm // least recently used first
	removal sync.WaitGroup
	created atomic.Int64
}

// NewPool keeps up to max containers of d waiting (DefaultIdle when max is
// 0). Drain removes them.
func NewPool(d *Docker, max int) *Pool {
	if max <= 0 {
		max = DefaultIdle
	}
	return &Pool{Docker: d, max: max}
}

// Start runs bot for one game, in a waiting container of the same bot when
// there is one, and waits until it is ready.
func (p *Pool) Start(ctx context.Context, bot Bot, lim Limits, labels map[string]string) (Session, error) {
	return start(ctx, p, bot, lim, labels)
}

// Drain removes the waiting containers, all at once, and waits for every
// removal under way: at the end of a tournament, whose bots the next one
// does not play, and at the end of a run. The pool stays usable.
func (p *Pool) Drain(ctx context.Context) error {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	errs := make([]error, len(idle))
	var wg sync.WaitGroup
	for i, w := range idle {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = kill(ctx, w.box)
		}()
	}
	wg.Wait()
	p.removal.Wait()
	return errors.Join(errs...)
}

// Created counts the containers the pool created so far.
func (p *Pool) Created() int { return int(p.created.Load()) }

func (p *Pool) launch(ctx context.Context, spec launchSpec) (proc, error) {
	key, err := poolKey(spec)
	if err != nil {
		return nil, err
	}
	for {
		w := p.take(key)
		if w == nil {
			break
		}
		if sh, err := w.begin(spec); err == nil {
			return sh, nil
		}
		// It ended while it waited.
		p.remove(w)
	}
	c, err := p.Docker.create(ctx, spec, true)
	if err != nil {
		return nil, err
	}
	p.created.Add(1)
	w := &warm{pool: p, key: key, box: c}
	if err := c.attachAndStart(ctx, w, logRoute{w}); err != nil {
		return nil, errors.Join(fmt.Errorf("sandbox: starting the container of %s: %w", spec.bot.Name, err), kill(ctx, c))
	}
	go func() {
		<-c.ended
		w.stopped()
	}()
	sh, err := w.begin(spec)
	if err != nil {
		return nil, errors.Join(err, kill(ctx, c))
	}
	return sh, nil
}

// poolKey says which games may share a container: those of the same bot
// with the same limits and labels.
func poolKey(spec launchSpec) (string, error) {
	src, err := filepath.Abs(spec.bot.Path)
	if err != nil {
		return "", err
	}
	labels := map[string]string{}
	for k, v := range spec.labels {
		if k != LabelGameKey {
			labels[k] = v
		}
	}
	key, err := json.Marshal([]any{src, spec.bot.Name, spec.bot.Protocol, spec.lim, labels})
	return string(key), err
}

func (p *Pool) take(key string) *warm {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		if w := p.idle[i]; w.key == key {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return w
		}
	}
	return nil
}

// put lets a clean container wait for its bot's next game, making room by
// removing the one that waited longest.
func (p *Pool) put(w *warm) {
	p.mu.Lock()
	p.idle = append(p.idle, w)
	var evicted *warm
	if len(p.idle) > p.max {
		evicted, p.idle = p.idle[0], p.idle[1:]
	}
	p.mu.Unlock()
	if evicted != nil {
		p.remove(evicted)
	}
}

// remove removes a container in the background: no game waits for it, and
// Drain waits for all of them.
func (p *Pool) remove(w *warm) {
	p.removal.Add(1)
	go func() {
		defer p.removal.Done()
		// Nothing waits for the outcome: a container that could not be
		// removed now has stopped with its judge's stdin, and the reaper
		// of a later run removes it.
		_ = kill(context.Background(), w.box)
	}()
}

// warm is a container of the pool: its stdout carries the lines of the
// current game's harness and the warden's reports, which end each game.
type warm struct {
	pool *Pool
	key  string
	box  *box

	mu      sync.Mutex
	cur     *shift
	held    []byte // the start of a stdout line that may be the warden's
	passing bool   // in the middle of a line that is not the warden's
	ended   bool
}

// wardenPrefix starts the warden's reports, as its json.dumps writes them.
var wardenPrefix = []byte(`{"warden": "`)

// wardenLineMax bounds a report line; a longer one is a forgery.
const wardenLineMax = 512

// begin starts a game's harness in the container.
func (w *warm) begin(spec launchSpec) (*shift, error) {
	sh := &shift{w: w, nonce: uuid.NewString(), out: spec.out, log: spec.log, ended: make(chan struct{})}
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return nil, errors.New("sandbox: the container ended")
	}
	w.cur, w.held, w.passing = sh, w.held[:0], false
	w.mu.Unlock()
	if err := w.box.write(fmt.Appendf(nil, `{"game": %q}`+"\n", sh.nonce), time.Now().Add(cleanupTimeout)); err != nil {
		return nil, fmt.Errorf("sandbox: starting a game in container %.12s: %w", w.box.id, err)
	}
	return sh, nil
}

// Write takes the container's stdout: the warden's report of the current
// game ends it, and every other line goes to the game's harness.
func (w *warm) Write(p []byte) (int, error) {
	n := len(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i+1]
		}
		p = p[len(chunk):]
		if w.passing {
			w.forward(chunk)
			w.passing = i < 0
			continue
		}
		w.held = append(w.held, chunk...)
		switch {
		case len(w.held) > wardenLineMax ||
			!bytes.HasPrefix(w.held, wardenPrefix) && !bytes.HasPrefix(wardenPrefix, w.held):
			w.forward(w.held)
			w.held, w.passing = w.held[:0], i < 0
		case i >= 0:
			w.report(w.held)
			w.held = w.held[:0]
		}
	}
	return n, nil
}

func (w *warm) forward(b []byte) {
	if w.cur != nil {
		_, _ = w.cur.out.Write(b)
	}
}

// report ends the current game if the line is its warden's report and its
// log has come to its end.
func (w *warm) report(line []byte) {
	var r wardenReport
	if json.Unmarshal(line, &r) != nil || w.cur == nil || r.Warden != w.cur.nonce {
		return
	}
	w.cur.reported = &r
	w.endIfComplete()
}

// endIfComplete ends the current game once both the warden's report (on
// stdout) and the end of its log (on stderr) have come. The engine relays
// the two streams independently: the report may overtake the last of the
// log, which would then be lost, or land in the next game's log.
func (w *warm) endIfComplete() {
	if sh := w.cur; sh != nil && sh.reported != nil && sh.logEnded {
		sh.finish(sh.reported)
		w.cur = nil
	}
}

// stopped is called when the container has ended.
func (w *warm) stopped() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = true
	if w.cur != nil {
		w.cur.finish(nil)
		w.cur = nil
	}
}

// logRoute takes the container's stderr, the current game's log, up to
// the warden's mark of its end (logEnd and the game's nonce, which no bot
// sees), which it keeps out of the log.
type logRoute struct{ w *warm }

// logEnd starts the warden's mark of a game's log's end, as it writes it.
// Its first byte is one that logs do not end with, so the log is held back
// for a possible mark almost never.
const logEnd = "\x1e[warden] log ends "

func (l logRoute) Write(p []byte) (int, error) {
	w := l.w
	w.mu.Lock()
	defer w.mu.Unlock()
	sh := w.cur
	if sh == nil {
		return len(p), nil
	}
	mark := logEnd + sh.nonce + "\n"
	// Only a held start of the mark costs a copy: most writes pass as they are.
	data := p
	if len(sh.logHeld) > 0 {
		data = append(sh.logHeld, p...)
		sh.logHeld = nil
	}
	if i := bytes.Index(data, []byte(mark)); i >= 0 {
		_, _ = sh.log.Write(data[:i])
		sh.logEnded = true
		w.endIfComplete()
		return len(p), nil
	}
	// What may be the start of the mark waits for the next write.
	keep := 0
	for k := min(len(mark)-1, len(data)); k > 0; k-- {
		if bytes.HasSuffix(data, []byte(mark[:k])) {
			keep = k
			break
		}
	}
	_, _ = sh.log.Write(data[:len(data)-keep])
	sh.logHeld = append([]byte(nil), data[len(data)-keep:]...)
	return len(p), nil
}

// wardenReport is what the warden says once a game's harness has ended and
// the container was reset.
type wardenReport struct {
	Warden string `json:"warden"`
	Status int    `json:"status"`
	OOM    bool   `json:"oom"`
	Clean  bool   `json:"clean"`
}

// shift is one game's harness in a warm container: the proc of a session.
type shift struct {
	w        *warm
	nonce    string
	out, log io.Writer
	ended    chan struct{}
	finished sync.Once
	result   *wardenReport // nil when the container itself ended

	// Under warm.mu: the warden's report, once read; whether its log has
	// ended; what may be the start of the log's end mark.
	reported *wardenReport
	logEnded bool
	logHeld  []byte

	once    sync.Once
	killErr error
}

func (sh *shift) finish(r *wardenReport) {
	sh.finished.Do(func() {
		sh.result = r
		close(sh.ended)
	})
}

func (sh *shift) write(p []byte, deadline time.Time) error { return sh.w.box.write(p, deadline) }

func (sh *shift) done() <-chan struct{} { return sh.ended }

// hangUp ends the game: the harness exits, then the warden resets the
// container and reports.
func (sh *shift) hangUp() error {
	return sh.w.box.write([]byte(`{"end":true}`+"\n"), time.Now().Add(quitWait))
}

func (sh *shift) exit(ctx context.Context) (fault.Kind, string, error) {
	if sh.result == nil {
		return sh.w.box.exit(ctx)
	}
	if sh.result.OOM {
		return fault.OOM, "killed: out of memory", nil
	}
	return fault.Crash, exitStatus(sh.result.Status), nil
}

// kill ends the game's harness and gives the container back to the pool
// once the warden has reset it; a harness that does not end, or a reset
// that fails, costs the container.
func (sh *shift) kill(ctx context.Context) error {
	sh.once.Do(func() {
		select {
		case <-sh.ended:
		default:
			if sh.hangUp() == nil {
				quit := time.NewTimer(quitWait)
				select {
				case <-sh.ended:
				case <-quit.C:
				case <-ctx.Done():
				}
				quit.Stop()
			}
		}
		select {
		case <-sh.ended:
			if sh.result != nil && sh.result.Clean {
				sh.w.pool.put(sh.w)
				return
			}
		default:
		}
		sh.killErr = sh.w.box.kill(ctx)
	})
	return sh.killErr
}
