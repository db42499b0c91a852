package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// runner is what both sandboxes offer.
type runner interface {
	Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error)
}

// eachRunner runs test against the local runner, against Docker, and
// against Docker whose containers are reused (each test's bots play once
// in a container that a bot of theirs already used), in parallel subtests.
func eachRunner(t *testing.T, test func(t *testing.T, r runner)) {
	t.Run("local", func(t *testing.T) {
		t.Parallel()
		test(t, sandbox.NewLocal())
	})
	t.Run("docker", func(t *testing.T) {
		t.Parallel()
		test(t, sandboxtest.Docker(t))
	})
	t.Run("reused", func(t *testing.T) {
		t.Parallel()
		test(t, sandboxtest.Pool(t))
	})
}

// writeBot writes a bot file (or, when name ends with "/", a folder of
// files) and returns it with the modes the judge stages bots with.
func writeBot(t testing.TB, name, protocol string, files map[string]string) sandbox.Bot {
	t.Helper()
	path := filepath.Join(t.TempDir(), strings.TrimSuffix(name, "/"))
	write := func(path, body string) {
		mode := os.FileMode(0o644)
		if strings.HasPrefix(body, "#!") {
			mode = 0o755
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	if strings.HasSuffix(name, "/") {
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, body := range files {
			write(filepath.Join(path, file), body)
		}
	} else {
		write(path, files[""])
	}
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return sandbox.Bot{Name: stem, Path: path, Protocol: protocol}
}

func virusBot(t testing.TB, source string) sandbox.Bot {
	return writeBot(t, "bot.py", sandbox.ProtocolIA, map[string]string{"": source})
}

// limits are short, so that the timeouts tests wait for stay short.
func limits(move time.Duration) sandbox.Limits {
	lim := sandbox.DefaultLimits()
	lim.Move = move
	lim.Startup = 5 * time.Second
	return lim
}

func start(t testing.TB, r runner, bot sandbox.Bot, lim sandbox.Limits) sandbox.Session {
	t.Helper()
	s, err := r.Start(context.Background(), bot, lim, map[string]string{"botjudge.test": t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(context.Background()); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("log of %s:\n%s", bot.Name, s.Log())
		}
	})
	return s
}

// closedLog closes s and returns its log, which is complete only then.
func closedLog(t testing.TB, s sandbox.Session) string {
	t.Helper()
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s.Log()
}

func ask(t testing.TB, s sandbox.Session, request string) sandbox.Reply {
	t.Helper()
	r, err := s.Ask(context.Background(), []byte(request))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// virusRequest is shaped like the virus rules' request; mode tells the test
// bots what to do.
func virusRequest(side, mode string) string {
	grid := make([][]int, 10)
	for i := range grid {
		grid[i] = make([]int, 10)
	}
	grid[0][0], grid[9][9], grid[0][9], grid[9][0] = 1, 1, 2, 2
	game := map[string]any{
		"player_1":   map[string]any{"start": true, "name": "one", "misc": map[string]any{}, "score": 2},
		"player_2":   map[string]any{"name": "two", "misc": map[string]any{}, "score": 2},
		"grid":       grid,
		"references": map[string]int{"player_1": 1, "player_2": 2, "neutral": 0},
		"history":    []any{},
		"mode":       mode,
	}
	b, _ := json.Marshal(map[string]any{"side": side, "game": game})
	return string(b)
}

func wantOK(t testing.TB, r sandbox.Reply, data string) {
	t.Helper()
	if r.Fault != fault.None || string(r.Data) != data {
		t.Fatalf("got %s %q (%s), want the answer %s", r.Data, r.Fault, r.Detail, data)
	}
}

func wantFault(t *testing.T, r sandbox.Reply, fault fault.Kind, detail string) {
	t.Helper()
	if r.Fault != fault || !strings.Contains(r.Detail, detail) || r.Data != nil {
		t.Fatalf("got %q %q data %s, want fault %q with %q", r.Fault, r.Detail, r.Data, fault, detail)
	}
}

const chattyBot = `
import os, subprocess, sys

def ia(game, side):
    other = "player_2" if side == "player_1" else "player_1"
    print("print goes to the log")
    os.write(1, b"os.write(1) goes to the log\n")
    sys.stdout.write("{\"id\": 1, \"value\": 666}\n")
    subprocess.run(["echo", "a child's stdout goes to the log"])
    misc = game[side]["misc"]
    n = misc.get("n", 0) + 1
    if n % 2 == 0:
        game[side]["misc"] = {"n": n}  # a new dict must persist too
    else:
        misc["n"] = n
    return {
        "n": n,
        "own_ia": game[side]["ia"] is ia,
        "other_ia": game[other]["ia"],
        "other_misc": game[other]["misc"],
        "stdin": sys.stdin.read(),
        "env": sorted(os.environ),
        "tuple": (game["grid"][0][0], True, 1.0),
    }
`

func TestVirusAnswersAndKeepsMisc(t *testing.T) {
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, chattyBot), limits(5*time.Second))
		if ready := s.Ready(); ready.Fault != fault.None {
			t.Fatalf("not ready: %+v", ready)
		}
		for n := 1; n <= 3; n++ {
			got := ask(t, s, virusRequest("player_2", ""))
			want := fmt.Sprintf(`{"n":%d,"own_ia":true,"other_ia":null,"other_misc":{},"stdin":"","env":["HOME","LANG","PATH"],"tuple":[1,true,1.0]}`, n)
			wantOK(t, got, want)
			// Measured for each request, not since the start: within
			// the move's limit however loaded the machine.
			if got.Elapsed <= 0 || got.Elapsed > 5*time.Second {
				t.Errorf("elapsed %v", got.Elapsed)
			}
		}
		log := closedLog(t, s)
		for _, want := range []string{"print goes to the log\n", "os.write(1) goes to the log\n", `{"id": 1, "value": 666}`, "a child's stdout goes to the log\n"} {
			if strings.Count(log, want) != 3 {
				t.Errorf("log has %d times %q, want 3:\n%s", strings.Count(log, want), want, log)
			}
		}
	})
}

func TestVirusFaults(t *testing.T) {
	const bot = `
import sys

def helper(x):
    return 1 / x

def deep(n):
    return deep(n + 1)

def ia(game, side):
    mode = game["mode"]
    if mode == "raise":
        return helper(0)
    if mode == "string":
        return "not a move"
    if mode == "set":
        return {1, 2}
    if mode == "nan":
        return float("nan")
    if mode == "huge":
        return "x" * 100000
    if mode == "exit":
        sys.exit(3)
    if mode == "interrupt":
        raise KeyboardInterrupt
    if mode == "base":
        raise BaseException("odd")
    if mode == "recursion":
        return deep(0)
    return [1, 2]
`
	cases := []struct {
		mode, data       string
		fault            fault.Kind
		detail, logLines string
	}{
		{mode: "raise", fault: fault.Error, detail: "ZeroDivisionError: division by zero (bot.py, line 5)", logLines: "Traceback (most recent call last):"},
		{mode: "string", data: `"not a move"`},
		{mode: "set", fault: fault.Malformed, detail: "ia returned {1, 2}, which is not JSON"},
		{mode: "nan", fault: fault.Malformed, detail: "ia returned nan"},
		{mode: "huge", fault: fault.Output, detail: "over the limit of 65536"},
		{mode: "exit", fault: fault.Error, detail: "sys.exit(3)"},
		{mode: "interrupt", fault: fault.Error, detail: "KeyboardInterrupt"},
		{mode: "base", fault: fault.Error, detail: "BaseException: odd"},
		{mode: "recursion", fault: fault.Error, detail: "RecursionError"},
	}
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(5*time.Second))
		for _, c := range cases {
			got := ask(t, s, virusRequest("player_1", c.mode))
			if c.fault == fault.None {
				wantOK(t, got, c.data)
			} else {
				wantFault(t, got, c.fault, c.detail)
			}
			if got.Restarted {
				t.Errorf("%s: restarted", c.mode)
			}
			// The harness survives all of them.
			wantOK(t, ask(t, s, virusRequest("player_1", "")), "[1,2]")
		}
		log := closedLog(t, s)
		if !strings.Contains(log, "ZeroDivisionError") || !strings.Contains(log, `line 5, in helper`) {
			t.Errorf("the traceback is not in the log:\n%s", log)
		}
		if strings.Contains(log, "harness.py") {
			t.Errorf("the harness's frames are in the log:\n%s", log)
		}
	})
}

func TestVirusWrongSignature(t *testing.T) {
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, "def ia(game):\n    return [0, 0]\n"), limits(5*time.Second))
		wantFault(t, ask(t, s, virusRequest("player_1", "")), fault.Error, "ia cannot be called as ia(game, side): ia() takes 1 positional argument but 2 were given")
	})
}

// A bot that sleeps is interrupted by the harness: the answer is a timeout
// and the bot goes on with its misc.
func TestVirusTimeoutInterrupted(t *testing.T) {
	const bot = `
import time

def ia(game, side):
    misc = game[side]["misc"]
    misc["n"] = misc.get("n", 0) + 1
    if game["mode"] == "sleep":
        time.sleep(30)
    return misc["n"]
`
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(2*time.Second))
		wantOK(t, ask(t, s, virusRequest("player_1", "")), "1")
		got := ask(t, s, virusRequest("player_1", "sleep"))
		// A bot that sleeps is charged no CPU: the wall-clock backstop,
		// twice the limit, ends its move.
		wantFault(t, got, fault.Timeout, "no answer within 4s of wall time (twice the limit)")
		// The harness stopped it, not the judge's own deadline, which
		// would have restarted it; how soon after 4s is the machine's load.
		if got.Elapsed < 4*time.Second || got.Restarted {
			t.Errorf("elapsed %v, restarted %v", got.Elapsed, got.Restarted)
		}
		wantOK(t, ask(t, s, virusRequest("player_1", "")), "3")
	})
}

// A bot that cannot be interrupted (it swallows the harness's timeouts, or
// runs C code that never checks for them) is stopped by the judge and
// restarted with a fresh misc.
func TestVirusTimeoutRestarts(t *testing.T) {
	const bot = `
import time

def ia(game, side):
    misc = game[side]["misc"]
    misc["n"] = misc.get("n", 0) + 1
    if game["mode"] == "stubborn":
        while True:
            try:
                time.sleep(30)
            except BaseException:
                pass
    if game["mode"] == "builtin":
        sum(range(10 ** 15))
    if game["mode"] == "late":
        try:
            time.sleep(30)
        except BaseException:
            return misc["n"]
    return misc["n"]
`
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(time.Second))
		wantOK(t, ask(t, s, virusRequest("player_1", "")), "1")
		for _, mode := range []string{"stubborn", "builtin"} {
			got := ask(t, s, virusRequest("player_1", mode))
			wantFault(t, got, fault.Timeout, "no answer within 2s of wall time (twice the limit), and the bot could not be interrupted; the bot was restarted and its misc was lost")
			if !got.Restarted || got.Elapsed < 3*time.Second || got.Elapsed > mostBackstop(time.Second) {
				t.Errorf("%s: elapsed %v, restarted %v", mode, got.Elapsed, got.Restarted)
			}
			wantOK(t, ask(t, s, virusRequest("player_1", "")), "1")
		}
		// Catching the timeout and answering right away is still late.
		got := ask(t, s, virusRequest("player_1", "late"))
		wantFault(t, got, fault.Timeout, "spent waiting for a CPU, over twice the limit of 1s")
		if got.Restarted {
			t.Error("restarted after a late answer")
		}
	})
}

func TestVirusCrashRestartsUpToTheCap(t *testing.T) {
	const bot = `
import os

def ia(game, side):
    if game["mode"] == "exit":
        os._exit(3)
    return "alive"
`
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(5*time.Second))
		for i := 1; i <= 3; i++ {
			got := ask(t, s, virusRequest("player_1", "exit"))
			wantFault(t, got, fault.Crash, "exited with status 3; the bot was restarted and its misc was lost")
			if !got.Restarted {
				t.Errorf("crash %d: not restarted", i)
			}
			wantOK(t, ask(t, s, virusRequest("player_1", "")), `"alive"`)
		}
		got := ask(t, s, virusRequest("player_1", "exit"))
		wantFault(t, got, fault.Crash, "not restarted again after 3 restarts")
		if got.Restarted {
			t.Error("restarted beyond the cap")
		}
		began := time.Now()
		again := ask(t, s, virusRequest("player_1", ""))
		wantFault(t, again, fault.Crash, got.Detail)
		if time.Since(began) > 50*time.Millisecond {
			t.Errorf("a broken bot took %v to answer", time.Since(began))
		}
	})
}

func TestVirusOOM(t *testing.T) {
	t.Parallel()
	s := start(t, sandboxtest.Docker(t), virusBot(t, `
def ia(game, side):
    if game["mode"] == "grow":
        hog = b"x" * (1 << 30)
    return 1
`), limits(5*time.Second))
	got := ask(t, s, virusRequest("player_1", "grow"))
	wantFault(t, got, fault.OOM, "out of memory; the bot was restarted")
	wantOK(t, ask(t, s, virusRequest("player_1", "")), "1")
}

func TestVirusNotReady(t *testing.T) {
	cases := []struct {
		name, source string
		fault        fault.Kind
		detail, log  string
	}{
		{"syntax", "def ia(game, side)\n    return 1\n", fault.Error, "SyntaxError: expected ':' (bot.py, line 1)", "SyntaxError"},
		{"import", "import no_such_module\n", fault.Error, "ModuleNotFoundError: No module named 'no_such_module' (bot.py, line 1)", "Traceback"},
		{"raise", "x = 1\nraise ValueError('bad config')\n", fault.Error, "ValueError: bad config (bot.py, line 2)", "bad config"},
		{"exit", "import sys\nsys.exit(2)\n", fault.Error, "sys.exit(2)", ""},
		{"no ia", "def play(game, side):\n    return 1\n", fault.Error, "the bot defines no function ia(game, side)", ""},
		{"not callable", "ia = 3\n", fault.Error, "ia is not a function (it is a int)", ""},
		{"empty", "", fault.Error, "the file is empty", ""},
		{"slow import", "while True:\n    pass\n", fault.Timeout, "importing the bot took more than 1s", ""},
	}
	eachRunner(t, func(t *testing.T, r runner) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				lim := limits(time.Second)
				lim.Startup = time.Second
				s := start(t, r, virusBot(t, c.source), lim)
				wantFault(t, s.Ready(), c.fault, c.detail)
				wantFault(t, ask(t, s, virusRequest("player_1", "")), c.fault, c.detail)
				if log := closedLog(t, s); !strings.Contains(log, c.log) {
					t.Errorf("log without %q:\n%s", c.log, log)
				}
			})
		}
		t.Run("not python", func(t *testing.T) {
			t.Parallel()
			s := start(t, r, writeBot(t, "bot.js", sandbox.ProtocolIA, map[string]string{"": "function ia() {}"}), limits(time.Second))
			wantFault(t, s.Ready(), fault.Error, "a bot of this game is one Python file")
		})
	})
}

// A bot that never lets the harness read blocks the judge's write; the
// write deadline turns that into a timeout.
func TestVirusNeverReads(t *testing.T) {
	const bot = `
import threading

def ia(game, side):
    # Soon after this answer, holds the interpreter in C code: the harness
    # never reads again.
    threading.Timer(0.2, sum, args=(range(10 ** 15),)).start()
    return 1
`
	big := virusRequest("player_1", strings.Repeat("x", 8<<20))
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(time.Second))
		wantOK(t, ask(t, s, virusRequest("player_1", "")), "1")
		time.Sleep(500 * time.Millisecond)
		got := ask(t, s, big)
		wantFault(t, got, fault.Timeout, "no answer within 2s of wall time")
		// The judge's deadline ended it: the backstop, as far as the
		// harness's reports of its wait could move it.
		if !got.Restarted || got.Elapsed > mostBackstop(time.Second) {
			t.Errorf("elapsed %v, restarted %v", got.Elapsed, got.Restarted)
		}
	})
}

func TestLogIsBounded(t *testing.T) {
	lim := limits(5 * time.Second)
	lim.Log = 1000
	s := start(t, sandbox.NewLocal(), virusBot(t, "def ia(game, side):\n    print('y' * 99999)\n    return 1\n"), lim)
	wantOK(t, ask(t, s, virusRequest("player_1", "")), "1")
	log := closedLog(t, s)
	if !strings.HasPrefix(log, strings.Repeat("y", 1000)+"\n[judge] 99000 more bytes of log were dropped") {
		t.Errorf("log of %d bytes: %q", len(log), log[900:])
	}
}

func TestNothingLeftAfterClose(t *testing.T) {
	t.Parallel()
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	a, err := d.Start(ctx, virusBot(t, "import os\ndef ia(game, side):\n    if game['mode']:\n        os._exit(1)\n    return 1\n"), limits(time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Start(ctx, writeBot(t, "bot.py", "program", map[string]string{"": "print(1)"}), limits(time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := sandboxtest.Leftovers(t, d); n != 2 {
		t.Errorf("%d containers for 2 sessions", n)
	}
	// A restart replaces the container.
	if got := ask(t, a, virusRequest("player_1", "exit")); !got.Restarted {
		t.Fatalf("not restarted: %+v", got)
	}
	wantOK(t, ask(t, a, virusRequest("player_1", "")), "1")
	if n := sandboxtest.Leftovers(t, d); n != 2 {
		t.Errorf("%d containers for 2 sessions after a restart", n)
	}
	for _, s := range []sandbox.Session{a, b} {
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := sandboxtest.Leftovers(t, d); n != 0 {
		t.Errorf("%d containers left after Close", n)
	}
}

func TestCloseAndCancel(t *testing.T) {
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, "import time\ndef ia(game, side):\n    time.sleep(30)\n"), limits(5*time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if _, err := s.Ask(ctx, []byte(virusRequest("player_1", ""))); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Ask after the judge gave up: %v", err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatalf("Close with a cancelled ctx: %v", err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if _, err := s.Ask(context.Background(), []byte(virusRequest("player_1", ""))); !errors.Is(err, sandbox.ErrClosed) {
			t.Fatalf("Ask after Close: %v", err)
		}
	})
}

const echoPy = `
import json, sys
request = json.loads(sys.argv[1])
assert json.loads(sys.stdin.read()) == request
print(json.dumps({"move": "12", "echo": request, "n": 1.0}, indent=2))
`

const echoJS = `
const request = JSON.parse(process.argv[2]);
let input = "";
process.stdin.on("data", (d) => input += d);
process.stdin.on("end", () => {
  if (JSON.stringify(JSON.parse(input)) !== JSON.stringify(request)) process.exit(5);
  console.log(JSON.stringify({move: "12", echo: request, n: 1}));
});
`

func TestProgramAnswers(t *testing.T) {
	request := `{"cmd":"move","moves":["0001","1113"],"you":1,"text":"é \u2028"}`
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		// Each answer is passed on as the bot wrote it.
		{"bot.py", map[string]string{"": echoPy}, `{"move":"12","echo":{"cmd":"move","moves":["0001","1113"],"you":1,"text":"\u00e9 \u2028"},"n":1.0}`},
		{"bot.js", map[string]string{"": echoJS}, `{"move":"12","echo":{"cmd":"move","moves":["0001","1113"],"you":1,"text":"é ` + "\u2028" + `"},"n":1}`},
		{"shebang", map[string]string{"": "#!/bin/sh\necho '{\"move\": \"00\"}'\n"}, `{"move":"00"}`},
		{"runsh/", map[string]string{"run.sh": "cd sub && python3 answer.py \"$1\"\n", "sub/answer.py": "print(1)"}, `1`},
		{"mainpy/", map[string]string{"main.py": "import helper\nprint(helper.ANSWER)\n", "helper.py": "ANSWER = '[true, 1, 1.5]'\n"}, `[true,1,1.5]`},
		{"mainjs/", map[string]string{"main.js": "console.log('\"js\"')\n"}, `"js"`},
	}
	eachRunner(t, func(t *testing.T, r runner) {
		for _, c := range cases {
			t.Run(strings.TrimSuffix(c.name, "/"), func(t *testing.T) {
				t.Parallel()
				s := start(t, r, writeBot(t, c.name, "program", c.files), limits(5*time.Second))
				wantOK(t, ask(t, s, request), c.want)
				wantOK(t, ask(t, s, request), c.want)
			})
		}
	})
}

// A request past the kernel's single-argument limit (a big Tron board)
// must reach the bot whole on stdin, and one just under it in argv too.
func TestProgramLongRequest(t *testing.T) {
	bot := "import json, sys\n" +
		"data = sys.stdin.read()\n" +
		"print(json.dumps({'args': len(sys.argv) - 1, 'argv_same': sys.argv[1:] == [data], 'len': len(data), 'trail': len(json.loads(data)['board'][0])}))\n"
	request := func(cells int) string {
		trail := make([][2]int, cells)
		for i := range trail {
			trail[i] = [2]int{i % 100, i / 100}
		}
		b, _ := json.Marshal(map[string]any{"board": [][][2]int{trail}})
		return string(b)
	}
	short, long := request(15000), request(40000)
	if len(short) >= 128<<10 || len(long) <= 256<<10 {
		t.Fatalf("requests of %d and %d bytes do not straddle the limit", len(short), len(long))
	}
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, writeBot(t, "bot.py", "program", map[string]string{"": bot}), limits(5*time.Second))
		wantOK(t, ask(t, s, short), fmt.Sprintf(`{"args":1,"argv_same":true,"len":%d,"trail":15000}`, len(short)))
		wantOK(t, ask(t, s, long), fmt.Sprintf(`{"args":0,"argv_same":false,"len":%d,"trail":40000}`, len(long)))
	})
}

func TestProgramFaults(t *testing.T) {
	const bot = `
import json, os, signal, sys, time
cmd = json.loads(sys.argv[1])["cmd"]
if cmd == "fail":
    print("first line", file=sys.stderr)
    print("it went wrong", file=sys.stderr)
    sys.exit(1)
if cmd == "garbage":
    print("move 12")
if cmd == "two":
    print('{"move": "12"} {"move": "13"}')
if cmd == "nothing":
    pass
if cmd == "nan":
    print("NaN")
if cmd == "latin1":
    sys.stdout.buffer.write(b'"\xe9"')
if cmd == "big":
    sys.stdout.write("[" + "1," * 100000 + "1]")
if cmd == "slow":
    time.sleep(30)
if cmd == "segv":
    os.kill(os.getpid(), signal.SIGSEGV)
if cmd == "ok":
    print('{"move": "12"}')
if cmd == "answer_then_fail":
    print('{"move": "34"}')
    sys.exit(3)
`
	cases := []struct {
		cmd    string
		fault  fault.Kind
		detail string
	}{
		{"fail", fault.Error, "exit status 1: it went wrong"},
		{"garbage", fault.Malformed, "not JSON"},
		{"two", fault.Malformed, "more than one JSON value"},
		{"nothing", fault.Malformed, "no output"},
		{"nan", fault.Malformed, "NaN is not valid JSON"},
		{"latin1", fault.Malformed, "not UTF-8"},
		{"big", fault.Output, "more than 65536 bytes on stdout"},
		{"slow", fault.Timeout, "no answer within 2s of wall time (twice the limit)"},
		{"segv", fault.Crash, "killed by SIGSEGV"},
		{"answer_then_fail", fault.Crash, `the answer {"move": "34"} was valid, but the program then exited with status 3: a bot must exit with status 0`},
	}
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, writeBot(t, "bot.py", "program", map[string]string{"": bot}), limits(time.Second))
		for _, c := range cases {
			began := time.Now()
			got := ask(t, s, fmt.Sprintf(`{"cmd":%q}`, c.cmd))
			wantFault(t, got, c.fault, c.detail)
			if got.Restarted {
				t.Errorf("%s: restarted", c.cmd)
			}
			// Not restarted: the harness stopped it, not the judge's own
			// deadline, and never later than that deadline can move.
			if c.cmd == "slow" && time.Since(began) > mostBackstop(time.Second) {
				t.Errorf("a timeout took %v", time.Since(began))
			}
			wantOK(t, ask(t, s, `{"cmd":"ok"}`), `{"move":"12"}`)
		}
		if log := closedLog(t, s); !strings.Contains(log, "first line\nit went wrong\n") {
			t.Errorf("stderr is not in the log:\n%s", log)
		}
	})
}

// Whatever a request starts dies with it, and is reaped.
func TestProgramLeftoversAreKilled(t *testing.T) {
	const bot = `
import json, os, subprocess, sys
cmd = json.loads(sys.argv[1])["cmd"]
pidfile = os.path.join(os.environ["HOME"], "pid")
if cmd == "spawn":
    child = subprocess.Popen(["sleep", "1000"], start_new_session=%s)
    open(pidfile, "w").write(str(child.pid))
    print('"spawned"')
else:
    try:
        state = open("/proc/%%s/stat" %% open(pidfile).read()).read().rsplit(")", 1)[1].split()[0]
        print('"zombie"' if state == "Z" else '"alive"')
    except FileNotFoundError:
        print('"gone"')
`
	for _, name := range []string{"local", "docker"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var r runner = sandbox.NewLocal()
			if name == "docker" {
				r = sandboxtest.Docker(t)
			}
			// Only a container can catch a process that left the group.
			escape := map[string]string{"local": "False", "docker": "True"}[name]
			s := start(t, r, writeBot(t, "bot.py", "program", map[string]string{"": fmt.Sprintf(bot, escape)}), limits(5*time.Second))
			wantOK(t, ask(t, s, `{"cmd":"spawn"}`), `"spawned"`)
			got := ask(t, s, `{"cmd":"check"}`)
			// Outside a container, orphans are reaped by the host's init,
			// whenever it likes.
			if name == "local" && string(got.Data) == `"zombie"` {
				return
			}
			wantOK(t, got, `"gone"`)
		})
	}
}

func TestProgramOOM(t *testing.T) {
	t.Parallel()
	s := start(t, sandboxtest.Docker(t), writeBot(t, "bot.py", "program", map[string]string{"": `
import json, sys
if json.loads(sys.argv[1])["cmd"] == "grow":
    hog = b"x" * (1 << 30)
print(1)
`}), limits(5*time.Second))
	got := ask(t, s, `{"cmd":"grow"}`)
	wantFault(t, got, fault.OOM, "out of memory")
	if got.Restarted {
		t.Error("restarted: the harness survives a bot's OOM")
	}
	wantOK(t, ask(t, s, `{"cmd":"ok"}`), "1")
}

func TestProgramNotReady(t *testing.T) {
	cases := []struct {
		name   string
		files  map[string]string
		detail string
	}{
		{"empty/", map[string]string{"README": "hi"}, "the folder has no run.sh, main.py, main.js, main.coffee, main.php or executable main.*"},
		{"bot.txt", map[string]string{"": "not a program"}, "the file is not executable"},
	}
	eachRunner(t, func(t *testing.T, r runner) {
		for _, c := range cases {
			s := start(t, r, writeBot(t, c.name, "program", c.files), limits(time.Second))
			wantFault(t, s.Ready(), fault.Error, c.detail)
		}
	})
}

func TestBadInput(t *testing.T) {
	r := sandbox.NewLocal()
	bot := virusBot(t, "def ia(game, side):\n    return 1\n")
	if _, err := r.Start(context.Background(), sandbox.Bot{Name: "x", Path: bot.Path, Protocol: "chess"}, limits(time.Second), nil); err == nil {
		t.Error("started a bot of an unknown protocol")
	}
	if _, err := r.Start(context.Background(), sandbox.Bot{Name: "x", Path: "/no/such/bot.py", Protocol: sandbox.ProtocolIA}, limits(time.Second), nil); err == nil {
		t.Error("started a bot that does not exist")
	}
	var zero sandbox.Limits
	if _, err := r.Start(context.Background(), bot, zero, nil); err == nil {
		t.Error("started a bot with zero limits")
	}
	s := start(t, r, bot, limits(time.Second))
	if _, err := s.Ask(context.Background(), []byte("{not json")); err == nil {
		t.Error("sent a request that is not JSON")
	}
}

// A fork bomb hits the process limit, and the harness still cleans up after
// it.
func TestProgramForkBomb(t *testing.T) {
	t.Parallel()
	s := start(t, sandboxtest.Docker(t), writeBot(t, "bot.py", "program", map[string]string{"": `
import json, os, sys
if json.loads(sys.argv[1])["cmd"] == "bomb":
    while True:
        try:
            os.fork()
        except OSError:
            pass
print('"calm"')
`}), limits(time.Second))
	// Its CPU limit, or the wall-clock backstop on a machine too loaded to
	// give the bomb its CPU.
	// Either is a timeout: the verdict is the same whatever the load.
	if r := ask(t, s, `{"cmd":"bomb"}`); r.Fault != fault.Timeout || !strings.Contains(r.Detail, "s of CPU") && !strings.Contains(r.Detail, "of wall time") {
		t.Errorf("a fork bomb: %q %q, want a timeout on CPU or wall time", r.Fault, r.Detail)
	}
	wantOK(t, ask(t, s, `{"cmd":"ok"}`), `"calm"`)
}

// mostBackstop is the latest the judge ends a move of limit: its backstop
// (twice the limit and a grace) moved as far as the harness's reports of
// the wait for a CPU may move it, on the most loaded machine.
func mostBackstop(limit time.Duration) time.Duration {
	return (1 + sandbox.MaxWaitCredit) * (2*limit + 2*time.Second)
}
