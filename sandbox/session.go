package sandbox

import (
	"botjudge/games/fault"
	"botjudge/games/phrase"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is returned by Ask after Close.
var ErrClosed = errors.New("sandbox: session closed")

// ErrLoad is returned by Ask for a move that timed out on wall time while
// the machine was oversubscribed and the harness could not measure how long
// the bot waited for a CPU: the judge cannot tell the bot's fault from the
// load's, so the game is its own failure (SPEC §5, load).
var ErrLoad = errors.New("sandbox: a move timed out while the machine was too busy to tell whether the bot slept")

const (
	// maxRestarts bounds how often one session starts a bot afresh after a
	// fault the harness could not recover from; then the bot stays broken.
	maxRestarts = 3
	// envelope is the room a protocol line needs beyond the answer itself:
	// the id, and a fault's detail (the harness keeps it under 1000
	// characters, at most 12 bytes each once JSON-escaped).
	envelope = 16 << 10
	// startSlack is what a container (or a python process) may take to
	// start on top of the bot's own startup limit.
	startSlack = 5 * time.Second
	// cleanupTimeout bounds removing a sandbox, whatever the caller's ctx.
	cleanupTimeout = 10 * time.Second
	// quitWait is how long a harness that was told to quit, or is quitting
	// on its own, may take before it is killed.
	quitWait = time.Second
	// queuedLines is how many protocol lines may wait unread. Only a
	// misbehaving bot sends lines nobody asked for; beyond this the oldest
	// are dropped rather than letting a bot block the reader.
	queuedLines = 16
)

// launcher starts one harness for a session: a container, or a plain
// process for the local runner. Everything else is shared.
type launcher interface {
	launch(ctx context.Context, spec launchSpec) (proc, error)
}

// launchSpec is what a launcher needs: the harness's stdout must go to out
// and its stderr to log.
type launchSpec struct {
	bot    Bot
	lim    Limits
	labels map[string]string
	out    io.Writer
	log    io.Writer
}

// harnessArgs are the harness's arguments once the launcher knows where
// the bot and the bot's home are as the harness sees them.
func (s launchSpec) harnessArgs(botPath, home string) []string {
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	return []string{
		"--move", secs(s.lim.Move),
		"--startup", secs(s.lim.Startup),
		"--answer", strconv.Itoa(s.lim.Answer),
		"--log", strconv.Itoa(s.lim.Log),
		"--idle", secs(s.lim.idle()),
		"--home", home,
		s.bot.Protocol, botPath,
	}
}

// proc is one running harness.
type proc interface {
	// write sends bytes to the harness's stdin, giving up at deadline.
	write(p []byte, deadline time.Time) error
	// done is closed once the harness's output has ended and every line of
	// it has been delivered: it exited, or it was killed.
	done() <-chan struct{}
	// exit tells why the harness ended, after done is closed. An error
	// means the judge could not find out.
	exit(ctx context.Context) (fault.Kind, string, error)
	// hangUp closes the harness's stdin: it exits once it has answered.
	hangUp() error
	// kill stops the harness and removes everything it used. Idempotent.
	kill(ctx context.Context) error
}

// grace is how long the judge waits beyond a move's wall-clock backstop
// (twice its limit) before it declares a timeout itself: the harness
// normally reports it first.
func grace(protocol string) time.Duration {
	if protocol == ProtocolIA {
		return time.Second
	}
	return 2 * time.Second
}

// idle is how long a harness waits for a request before it ends itself: a
// backstop for a judge that died while the bot kept the harness from seeing
// its stdin close. A live judge asks each bot at least once a round, and a
// round takes at most one move and one restart per seat, for a few seats.
func (l Limits) idle() time.Duration {
	return 20*(2*l.Move+grace(ProtocolProgram)+l.Startup+startSlack) + time.Minute
}

// The CPU weights of containers (Docker's CPUShares, relative to the
// default 1024): a Background game's bots get a quarter of what a
// tournament's get when both want the CPU.
const (
	tournamentShares = 1024
	backgroundShares = 256
)

func (l Limits) shares() int64 {
	if l.Background {
		return backgroundShares
	}
	return tournamentShares
}

func (l Limits) validate() error {
	if l.Move <= 0 || l.Startup <= 0 || l.Memory <= 0 || l.CPUs <= 0 || l.Pids <= 0 ||
		l.Answer <= 0 || l.Log <= 0 || l.Tmp <= 0 {
		return fmt.Errorf("sandbox: every limit must be positive: %+v", l)
	}
	return nil
}

// session is the Session of both runners.
type session struct {
	launcher launcher
	bot      Bot
	lim      Limits
	labels   map[string]string
	log      boundedLog
	ready    Reply
	// received counts every byte the harnesses sent the judge, protocol
	// and log: what a bot's output costs the host beyond its container.
	received atomic.Int64

	asking sync.Mutex // one request at a time
	mu     sync.Mutex // guards what follows; never held while waiting
	cur    *instance  // nil after a fault, until the next Ask restarts it
	closed bool
	broken *Reply // when set, the answer to every request from now on
	// restarts counts fresh starts after faults; nextID numbers requests
	// across them so a late line of a dead instance never matches.
	restarts int
	nextID   int64
}

type instance struct {
	p     proc
	lines <-chan line
	// dropped is the harness's count of log bytes it dropped, as of its
	// last line.
	dropped int64
}

func start(ctx context.Context, l launcher, bot Bot, lim Limits, labels map[string]string) (Session, error) {
	if bot.Protocol != ProtocolIA && bot.Protocol != ProtocolProgram {
		return nil, fmt.Errorf("sandbox: unknown protocol %q for bot %s", bot.Protocol, bot.Name)
	}
	if err := lim.validate(); err != nil {
		return nil, err
	}
	s := &session{launcher: l, bot: bot, lim: lim, labels: labels, log: boundedLog{max: lim.Log}}
	in, ready, err := s.launch(ctx)
	if err != nil {
		return nil, err
	}
	s.ready = ready
	if ready.Fault != fault.None {
		s.broken = &ready
	}
	s.cur = in
	return s, nil
}

// Why a bot's answer or start failed, for the screen to translate.
var (
	notReady = phrase.Of("not ready within {1} of wall time, not counting {2} spent waiting for a CPU", "pas prêt en {1} de temps réel, sans compter {2} passées à attendre un processeur")
	// Games recorded before the wait for a CPU was counted say it so:
	// declared so that the screen still says them in French.
	_            = phrase.Of("not ready within {1}", "pas prêt en {1}")
	diedStarting = phrase.Of("the bot died while starting: {1}", "le bot est mort au démarrage : {1}")
	stuck        = phrase.Of("no answer within {1} of wall time (twice the limit), and the bot could not be interrupted", "pas de réponse en {1} de temps réel (deux fois la limite), et le bot n'a pas pu être interrompu")
	overCPU      = phrase.Of("answered after {1}s of CPU time, over the limit of {2}", "a répondu après {1} s de temps CPU, au-delà de la limite de {2}")
	overWall     = phrase.Of("answered after {1}s of wall time, not counting {2}s spent waiting for a CPU, over twice the limit of {3}", "a répondu après {1} s de temps réel, sans compter {2} s passées à attendre un processeur, au-delà de deux fois la limite de {3}")
	overLimit    = phrase.Of("answered after {1}s, over the limit of {2}", "a répondu après {1} s, au-delà de la limite de {2}")
)

// Why a bot's program could not start, as the harness (harness/program.py)
// says it: declared here, in Go, so that the screen and the hand-in pages
// say it in French too ("cannot start the bot: php is not installed here").
var (
	_ = phrase.Of("cannot start the bot: {1}", "impossible de lancer le bot : {1}")
	_ = phrase.Of("{1} is not installed here", "{1} n'est pas installé ici")
	_ = phrase.Of("its #! line names {1}, which is not installed here", "sa ligne #! nomme {1}, qui n'est pas installé ici")
	_ = phrase.Of("{1} cannot be run", "{1} ne peut pas être lancé")
)

// launch starts a harness and waits for its ready line. A bot that cannot
// start is a Reply with a fault (and no instance), not an error.
func (s *session) launch(ctx context.Context) (*instance, Reply, error) {
	sink := newLineSink(s.lim.Answer + envelope)
	p, err := s.launcher.launch(ctx, launchSpec{
		bot: s.bot, lim: s.lim, labels: s.labels,
		out: counting{sink, &s.received}, log: counting{&s.log, &s.received},
	})
	if err != nil {
		return nil, Reply{}, err
	}
	in := &instance{p: p, lines: sink.lines}
	// Starting is charged like a move, under the start-up limit: the
	// harness ends it at twice that in wall time, less the wait for a CPU.
	stop := backstop{began: time.Now(), allow: 2*s.lim.Startup + startSlack}
	msg, end, err := in.await(ctx, &stop, func(m message) bool { return m["ready"] != nil })
	r := Reply{Elapsed: time.Since(stop.began), Waited: stop.waited}
	switch end {
	case answered:
		s.tally(in, msg)
		var ok bool
		if json.Unmarshal(msg["ready"], &ok) == nil && ok {
			return in, r, nil
		}
		r.Fault, r.Detail = msg.fault()
		// The harness exits by itself: let the rest of its log arrive.
		settle(p)
	case died:
		r.Fault, r.Detail, err = p.exit(ctx)
		r.Detail = diedStarting.Say(r.Detail)
	case expired:
		r.Fault, r.Detail = fault.Timeout, notReady.Say(stop.allow, stop.waited.Round(time.Millisecond))
	}
	if kerr := kill(ctx, p); err == nil {
		err = kerr
	}
	if err != nil {
		return nil, Reply{}, err
	}
	return nil, r, nil
}

func (s *session) Ready() Reply { return s.ready }

func (s *session) Log() string { return s.log.String() }

func (s *session) Ask(ctx context.Context, request []byte) (Reply, error) {
	var body bytes.Buffer
	if err := json.Compact(&body, request); err != nil {
		return Reply{}, fmt.Errorf("sandbox: the request is not JSON: %w", err)
	}
	s.asking.Lock()
	defer s.asking.Unlock()
	in, early, err := s.current(ctx)
	if early != nil || err != nil {
		return *early, err
	}
	s.nextID++
	id := s.nextID
	line := fmt.Appendf(nil, `{"id":%d,"request":%s}`+"\n", id, body.Bytes())
	// The harness ends a move when its charge passes the limit, or its
	// wall-clock time less its wait for a CPU twice the limit; the judge
	// waits a little longer.
	stop := backstop{began: time.Now(), allow: 2*s.lim.Move + grace(s.bot.Protocol)}
	// A failed write needs no handling of its own: the harness either died
	// or stopped reading, and the wait below reports that as a crash or a
	// timeout.
	_ = in.p.write(line, stop.deadline())
	msg, end, err := in.await(ctx, &stop, func(m message) bool { return m.id() == id })
	r := Reply{Elapsed: time.Since(stop.began), Waited: stop.waited}
	switch end {
	case answered:
		s.tally(in, msg)
		if msg["load"] != nil {
			// The harness could not tell the bot's sleep from the
			// machine's load: the judge's failure, never the bot's.
			return Reply{}, errors.Join(fmt.Errorf("%w: %s", ErrLoad, s.bot.Name), s.drop(ctx, in))
		}
		return s.answer(msg, r), nil
	case died:
		if s.isClosed() {
			return Reply{}, ErrClosed
		}
		if r.Fault, r.Detail, err = in.p.exit(ctx); err != nil {
			return Reply{}, errors.Join(err, s.drop(ctx, in))
		}
	case expired:
		r.Fault, r.Detail = fault.Timeout, stuck.Say(2*s.lim.Move)
	default:
		// The judge gave up, not the bot: start afresh next time without
		// counting it against the bot.
		return Reply{}, errors.Join(err, s.drop(ctx, in))
	}
	return s.restart(ctx, in, r)
}

// current is the running harness to ask, started afresh after a fault;
// or else the answer to give at once (never nil with an error).
func (s *session) current(ctx context.Context) (*instance, *Reply, error) {
	s.mu.Lock()
	in, closed, broken := s.cur, s.closed, s.broken
	s.mu.Unlock()
	switch {
	case closed:
		return nil, &Reply{}, ErrClosed
	case broken != nil:
		return nil, &Reply{Fault: broken.Fault, Detail: broken.Detail}, nil
	case in != nil:
		return in, nil, nil
	}
	in, r, err := s.launch(ctx)
	if err != nil {
		return nil, &Reply{}, err
	}
	if r.Fault != fault.None {
		r.Detail = "restarting the bot failed: " + r.Detail
		s.setBroken(r)
		return nil, &Reply{Fault: r.Fault, Detail: r.Detail}, nil
	}
	s.mu.Lock()
	closed = s.closed
	if !closed {
		s.cur = in
	}
	s.mu.Unlock()
	if closed {
		return nil, &Reply{}, errors.Join(ErrClosed, kill(ctx, in.p))
	}
	return in, nil, nil
}

func (s *session) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// tally counts in the log what the harness dropped of it since its last line.
func (s *session) tally(in *instance, m message) {
	var n int64
	if m["dropped"] == nil || json.Unmarshal(m["dropped"], &n) != nil || n <= in.dropped {
		return
	}
	s.log.drop(n - in.dropped)
	in.dropped = n
}

// answer turns the harness's line into a Reply.
func (s *session) answer(msg message, r Reply) Reply {
	var cpu float64
	if json.Unmarshal(msg["cpu"], &cpu) == nil && cpu >= 0 {
		r.CPU, r.Metered = time.Duration(math.Round(cpu*float64(time.Second))), true
	}
	if msg["fault"] != nil {
		r.Fault, r.Detail = msg.fault()
		return r
	}
	var data bytes.Buffer
	if msg["value"] == nil || json.Compact(&data, msg["value"]) != nil {
		r.Fault, r.Detail = fault.Malformed, "the answer is not JSON"
		return r
	}
	// The harness checks its limits now and then; an answer that came
	// in past one is late all the same.
	switch {
	case r.Metered && r.CPU > s.lim.Move:
		r.Fault, r.Detail = fault.Timeout, overCPU.Say(fmt.Sprintf("%.3f", r.CPU.Seconds()), s.lim.Move)
		return r
	case r.Metered && busy(msg, r) > 2*s.lim.Move:
		r.Fault, r.Detail = fault.Timeout, overWall.Say(fmt.Sprintf("%.3f", busy(msg, r).Seconds()), fmt.Sprintf("%.3f", r.Waited.Seconds()), s.lim.Move)
		return r
	case !r.Metered && r.Elapsed > s.lim.Move:
		r.Fault, r.Detail = fault.Timeout, overLimit.Say(fmt.Sprintf("%.3f", r.Elapsed.Seconds()), s.lim.Move)
		return r
	}
	r.Data = data.Bytes()
	return r
}

// busy is the move's wall time less its wait for a CPU, as the harness
// measured it from the moment it read the request: the judge's own clock
// counts the judge's and the harness's waits too, which are not the bot's.
func busy(msg message, r Reply) time.Duration {
	var secs float64
	if msg["wall"] == nil || json.Unmarshal(msg["wall"], &secs) != nil {
		return r.Elapsed - r.Waited
	}
	return time.Duration(secs * float64(time.Second))
}

// restart records a fault after which the instance cannot be trusted: it is
// removed now and replaced at the next request, as long as restarts last.
func (s *session) restart(ctx context.Context, in *instance, r Reply) (Reply, error) {
	err := s.drop(ctx, in)
	s.mu.Lock()
	if s.restarts < maxRestarts {
		s.restarts++
		r.Restarted = true
		r.Detail += "; the bot was restarted"
		if s.bot.Protocol == ProtocolIA {
			r.Detail += " and its misc was lost"
		}
	}
	s.mu.Unlock()
	if !r.Restarted {
		r.Detail += fmt.Sprintf("; not restarted again after %d restarts", maxRestarts)
		s.setBroken(r)
	}
	s.log.note(fmt.Sprintf("[judge] %s: %s\n", r.Fault, r.Detail))
	return r, err
}

func (s *session) setBroken(r Reply) {
	s.mu.Lock()
	s.broken = &Reply{Fault: r.Fault, Detail: r.Detail}
	s.mu.Unlock()
}

// drop removes an instance that must not serve another request.
func (s *session) drop(ctx context.Context, in *instance) error {
	s.mu.Lock()
	if s.cur == in {
		s.cur = nil
	}
	s.mu.Unlock()
	return kill(ctx, in.p)
}

func (s *session) Close(ctx context.Context) error {
	s.mu.Lock()
	in := s.cur
	s.cur, s.closed = nil, true
	s.mu.Unlock()
	if in == nil {
		return nil
	}
	if in.p.hangUp() == nil {
		settle(in.p)
	}
	return kill(ctx, in.p)
}

// settle waits a little for a harness that is ending by itself, so that the
// log holds everything the bot wrote before it is killed.
func settle(p proc) {
	quit := time.NewTimer(quitWait)
	defer quit.Stop()
	select {
	case <-p.done():
	case <-quit.C:
	}
}

// kill removes a harness under its own deadline, even when ctx is done.
func kill(ctx context.Context, p proc) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	return p.kill(ctx)
}

// ending is how a wait for a protocol line ended.
type ending int

const (
	answered  ending = iota
	died             // the harness ended without the line
	expired          // the deadline passed
	cancelled        // ctx is done
)

// MaxWaitCredit bounds how far the harness's reports of the wait for a CPU
// move a backstop, in multiples of its allowance: a bot that forged them
// (an ia bot shares the harness's process) still ends, at the latest
// (1 + MaxWaitCredit) allowances after its request on the judge's clock.
const MaxWaitCredit = 8

// backstop is the deadline of a wait for the harness: its allowance from
// began, moved by how long the harness says the bot waited for a CPU.
type backstop struct {
	began  time.Time
	allow  time.Duration
	waited time.Duration
}

func (b *backstop) deadline() time.Time {
	return b.began.Add(b.allow + min(b.waited, MaxWaitCredit*b.allow))
}

// credit takes in a line's wait for a CPU (a {"wait": s} line while a move
// runs, or the answer's): whether it moved the deadline.
func (b *backstop) credit(m message) bool {
	var secs float64
	if m["wait"] == nil || json.Unmarshal(m["wait"], &secs) != nil || secs <= 0 {
		return false
	}
	d := time.Duration(secs * float64(time.Second))
	if d <= b.waited {
		return false
	}
	b.waited = d
	return true
}

// await waits for the first line that want accepts, until stop's deadline;
// lines it does not accept (answers to nobody, repeated answers, junk) are
// discarded, and the wait for a CPU they report moves the deadline.
func (in *instance) await(ctx context.Context, stop *backstop, want func(message) bool) (message, ending, error) {
	timer := time.NewTimer(time.Until(stop.deadline()))
	defer timer.Stop()
	for {
		select {
		case ln := <-in.lines:
			m := ln.message()
			if m != nil && want(m) {
				stop.credit(m)
				return m, answered, nil
			}
			if m != nil && m["id"] == nil && stop.credit(m) {
				timer.Reset(time.Until(stop.deadline()))
			}
		case <-in.p.done():
			// The last lines are queued before done is closed.
			for {
				select {
				case ln := <-in.lines:
					if m := ln.message(); m != nil && want(m) {
						stop.credit(m)
						return m, answered, nil
					}
				default:
					return nil, died, nil
				}
			}
		case <-timer.C:
			return nil, expired, nil
		case <-ctx.Done():
			return nil, cancelled, ctx.Err()
		}
	}
}

// message is one decoded protocol line; values stay raw JSON.
type message map[string]json.RawMessage

func (m message) id() int64 {
	var id int64
	if json.Unmarshal(m["id"], &id) != nil {
		return -1
	}
	return id
}

// fault reads a fault line. Only a harness broken by its bot sends an
// unknown fault; that is the bot's error.
func (m message) fault() (fault.Kind, string) {
	var f, detail string
	_ = json.Unmarshal(m["fault"], &f)
	_ = json.Unmarshal(m["detail"], &detail)
	if k := fault.Kind(f); k.Class() == fault.CrashClass || k.Class() == fault.TimeoutClass || k == fault.Malformed {
		return k, detail
	}
	return fault.Error, fmt.Sprintf("the harness reported %q: %s", f, detail)
}

// line is one line of the harness's stdout. An oversized line keeps only
// its beginning, where the harness writes the id.
type line struct {
	text     []byte
	overflow int // the line's length when it was over the limit
}

var idPrefix = regexp.MustCompile(`^\{"id": ?(-?\d+)`)

func (ln line) message() message {
	if ln.overflow > 0 {
		match := idPrefix.FindSubmatch(ln.text)
		if match == nil {
			return nil
		}
		return message{
			"id":     match[1],
			"fault":  json.RawMessage(`"output"`),
			"detail": json.RawMessage(strconv.Quote(fmt.Sprintf("an answer line of more than %d bytes", ln.overflow))),
		}
	}
	var m message
	if json.Unmarshal(ln.text, &m) != nil {
		return nil
	}
	return m
}

// lineSink splits the harness's stdout into lines without ever holding more
// than max bytes of one; the rest of a longer line is discarded.
type lineSink struct {
	max   int
	buf   []byte
	size  int // of the current line so far
	lines chan line
}

// idRoom is how much of an oversized line is kept: enough for its id.
const idRoom = 64

func newLineSink(max int) *lineSink {
	return &lineSink{max: max, lines: make(chan line, queuedLines)}
}

func (s *lineSink) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		chunk, rest, complete := bytes.Cut(p, []byte{'\n'})
		s.size += len(chunk)
		if s.size <= s.max {
			s.buf = append(s.buf, chunk...)
		} else {
			s.buf = append(s.buf[:min(len(s.buf), idRoom)], chunk[:min(len(chunk), max(0, idRoom-len(s.buf)))]...)
		}
		if !complete {
			break
		}
		ln := line{text: bytes.Clone(s.buf)}
		if s.size > s.max {
			ln.overflow = s.size
		}
		s.push(ln)
		s.buf, s.size = s.buf[:0], 0
		p = rest
	}
	return n, nil
}

// push queues a line, dropping the oldest one when the queue is full: lines
// a bot forged on the harness's channel must not push out the harness's own
// line that comes after them (its ready line, or its answer).
func (s *lineSink) push(ln line) {
	for {
		select {
		case s.lines <- ln:
			return
		default:
		}
		select {
		case <-s.lines:
		default:
		}
	}
}

// counting passes bytes on to w and adds their count to n.
type counting struct {
	w io.Writer
	n *atomic.Int64
}

func (c counting) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return c.w.Write(p)
}

// boundedLog keeps the first max bytes a bot writes and counts the rest.
type boundedLog struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped int64
}

func (l *boundedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	keep := min(len(p), l.max-len(l.buf))
	l.buf = append(l.buf, p[:keep]...)
	l.dropped += int64(len(p) - keep)
	return len(p), nil
}

// drop counts bytes of log that were dropped before they reached the judge.
func (l *boundedLog) drop(n int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dropped += n
}

// note adds the judge's own remark to the log.
func (l *boundedLog) note(text string) { _, _ = l.Write([]byte(text)) }

func (l *boundedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.ToValidUTF8(string(l.buf), "\uFFFD")
	if l.dropped > 0 {
		s += fmt.Sprintf("\n[judge] %d more bytes of log were dropped\n", l.dropped)
	}
	return s
}
