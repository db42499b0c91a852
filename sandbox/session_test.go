package sandbox

import (
	"botjudge/games/fault"
	"botjudge/games/phrase"
	"strings"
	"testing"
	"time"
)

func TestLineSink(t *testing.T) {
	s := newLineSink(100)
	write := func(p string) {
		if n, err := s.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write: %d, %v", n, err)
		}
	}
	next := func() line {
		select {
		case ln := <-s.lines:
			return ln
		default:
			t.Fatal("no line")
			return line{}
		}
	}
	write(`{"id": 1, "va`)
	write(`lue": 1}` + "\n" + `{"id": 2, "value": 2}` + "\njunk\n")
	if got := next().message().id(); got != 1 {
		t.Errorf("first line: id %d", got)
	}
	if got := next().message().id(); got != 2 {
		t.Errorf("second line: id %d", got)
	}
	if got := next().message(); got != nil {
		t.Errorf("junk decoded as %v", got)
	}

	// An oversized line is never held whole, and becomes an output fault
	// for its id.
	write(`{"id": 3, "value": "`)
	for range 1000 {
		write(strings.Repeat("x", 1000))
		if len(s.buf) > idRoom {
			t.Fatalf("holding %d bytes of an oversized line", len(s.buf))
		}
	}
	write(`"}` + "\n" + `{"id": 4, "value": 4}` + "\n")
	m := next().message()
	if f, detail := m.fault(); m.id() != 3 || f != fault.Output || !strings.Contains(detail, "more than 1000022 bytes") {
		t.Errorf("oversized line: id %d, %q %q", m.id(), f, detail)
	}
	if got := next().message().id(); got != 4 {
		t.Errorf("line after the oversized one: id %d", got)
	}
	write(strings.Repeat("y", 500) + "\n")
	if m := next().message(); m != nil {
		t.Errorf("oversized junk decoded as %v", m)
	}

	// Nobody reading must not block the writer, and the newest line is
	// kept: a flood of forged lines cannot hide the harness's next one.
	write(strings.Repeat("{}\n", 10*queuedLines) + `{"ready": true}` + "\n")
	if len(s.lines) != queuedLines {
		t.Errorf("%d lines queued", len(s.lines))
	}
	var last line
	for len(s.lines) > 0 {
		last = next()
	}
	if last.message()["ready"] == nil {
		t.Errorf("the newest line was dropped: last queued %q", last.text)
	}
}

func TestBoundedLog(t *testing.T) {
	l := boundedLog{max: 10}
	l.Write([]byte("héllo"))
	l.Write([]byte(" world, and more"))
	l.note("[judge] a note\n")
	want := "héllo wor\n[judge] 27 more bytes of log were dropped\n"
	if got := l.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A cut inside a character does not make the log invalid UTF-8.
	l = boundedLog{max: 1}
	l.Write([]byte("é"))
	if got := l.String(); got != "\uFFFD\n[judge] 1 more bytes of log were dropped\n" {
		t.Errorf("got %q", got)
	}
}

func TestExitStatus(t *testing.T) {
	for code, want := range map[int]string{
		137: "killed by signal 9 (killed)",
		139: "killed by signal 11 (segmentation fault)",
		3:   "the bot's process exited with status 3",
		0:   "the bot's process exited with status 0",
	} {
		if got := exitStatus(code); got != want {
			t.Errorf("exitStatus(%d) = %q, want %q", code, got, want)
		}
	}
}

// The harness's "cpu" is what a move is charged: past the limit the answer
// is a timeout, whatever the wall time; past twice the limit of wall time
// too. A line without it (no harness sends one) is charged its wall time.
func TestAnswerCharged(t *testing.T) {
	s := &session{lim: Limits{Move: time.Second}}
	cases := []struct {
		line    string
		wall    time.Duration
		fault   fault.Kind
		cpu     time.Duration
		metered bool
	}{
		{`{"id":1,"cpu":0.25,"value":1}`, 1500 * time.Millisecond, fault.None, 250 * time.Millisecond, true},
		{`{"id":1,"cpu":1.003,"value":1}`, 1100 * time.Millisecond, fault.Timeout, 1003 * time.Millisecond, true},
		{`{"id":1,"cpu":0.01,"value":1}`, 2100 * time.Millisecond, fault.Timeout, 10 * time.Millisecond, true},
		{`{"id":1,"cpu":0.4,"fault":"timeout","detail":"no answer within 2s of wall time"}`, 2 * time.Second, fault.Timeout, 400 * time.Millisecond, true},
		{`{"id":1,"value":1}`, 1100 * time.Millisecond, fault.Timeout, 0, false},
		{`{"id":1,"value":1}`, 900 * time.Millisecond, fault.None, 0, false},
	}
	for _, c := range cases {
		r := s.answer(line{text: []byte(c.line)}.message(), Reply{Elapsed: c.wall})
		if r.Fault != c.fault || r.CPU != c.cpu || r.Metered != c.metered {
			t.Errorf("%s after %v: got %q (%s), CPU %v metered %v; want %q, CPU %v metered %v",
				c.line, c.wall, r.Fault, r.Detail, r.CPU, r.Metered, c.fault, c.cpu, c.metered)
		}
	}
}

// Why the harness could not start a bot is said in French on French pages,
// whichever program is missing.
func TestCannotStartInFrench(t *testing.T) {
	noName := func(string) (string, bool) { return "", false }
	for en, fr := range map[string]string{
		"cannot start the bot: php is not installed here":                                    "impossible de lancer le bot : php n'est pas installé ici",
		"cannot start the bot: its #! line names /usr/bin/ruby, which is not installed here": "impossible de lancer le bot : sa ligne #! nomme /usr/bin/ruby, qui n'est pas installé ici",
		"cannot start the bot: bot.sh cannot be run":                                         "impossible de lancer le bot : bot.sh ne peut pas être lancé",
	} {
		if got := phrase.French(en, noName); got != fr {
			t.Errorf("French(%q) = %q, want %q", en, got, fr)
		}
	}
}
