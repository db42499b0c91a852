package sandbox_test

import (
	"encoding/json"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// What a move is charged is CPU time (SPEC §5): a bot that waits is not
// charged for waiting, and is not timed out at the limit but at twice it.
// The bots measure their own CPU, so that a loaded machine changes
// nothing to what the tests expect.
func TestChargedCPUNotWaiting(t *testing.T) {
	const bot = `
import time

def ia(game, side):
    if game["mode"] == "wait":
        time.sleep(1.2)
    else:
        end = time.process_time() + 0.5
        while time.process_time() < end:
            pass
    return game["mode"]
`
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(time.Second))
		// Past the limit in wall time, under it in CPU: an answer.
		got := ask(t, s, virusRequest("player_1", "wait"))
		wantOK(t, got, `"wait"`)
		if !got.Metered || got.CPU > 300*time.Millisecond || got.Elapsed < 1200*time.Millisecond {
			t.Errorf("waiting 1.2 s: metered %v, charged %v of CPU, %v of wall time", got.Metered, got.CPU, got.Elapsed)
		}
		s = start(t, r, virusBot(t, bot), limits(10*time.Second))
		got = ask(t, s, virusRequest("player_1", "work"))
		wantOK(t, got, `"work"`)
		if !got.Metered || got.CPU < 500*time.Millisecond || got.Charged() != got.CPU {
			t.Errorf("0.5 s of work: metered %v, charged %v of CPU, %v of wall time", got.Metered, got.CPU, got.Elapsed)
		}
	})
}

// spent reads the CPU seconds a test bot says it used.
func spent(t *testing.T, r sandbox.Reply) time.Duration {
	t.Helper()
	var secs float64
	if r.Fault != fault.None || json.Unmarshal(r.Data, &secs) != nil {
		t.Fatalf("got %s %q (%s), want a number of seconds", r.Data, r.Fault, r.Detail)
	}
	return time.Duration(secs * float64(time.Second))
}

// A bot that spreads its work on several threads is charged the sum.
func TestChargedAllThreads(t *testing.T) {
	const bot = `
import threading, time

used = []

def spin():
    end = time.thread_time() + 0.2
    while time.thread_time() < end:
        pass
    used.append(time.thread_time())

def ia(game, side):
    threads = [threading.Thread(target=spin) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return sum(used)
`
	eachRunner(t, func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(10*time.Second))
		got := ask(t, s, virusRequest("player_1", ""))
		if used := spent(t, got); used < 800*time.Millisecond || got.CPU < used {
			t.Errorf("4 threads that used %v were charged %v of CPU (%v of wall time)", used, got.CPU, got.Elapsed)
		}
	})
}

// A thread that keeps computing between the bot's moves (pondering on the
// opponent's time) gains nothing: its CPU is charged to the next move, and
// once that passes the limit the move times out at once, saying why.
func TestPonderingThreadIsCharged(t *testing.T) {
	const bot = `
import threading, time

pondered = 0.0

def ponder():
    global pondered
    while True:
        pondered = time.thread_time()

threading.Thread(target=ponder, daemon=True).start()
told = 0.0

def ia(game, side):
    global told
    now = pondered
    since, told = now - told, now
    return since
`
	eachRunner(t, func(t *testing.T, r runner) {
		lim := limits(300 * time.Millisecond)
		s := start(t, r, virusBot(t, bot), lim)
		// The bot's count starts with its thread, the charge with its
		// first move.
		spent(t, ask(t, s, virusRequest("player_1", "")))
		for wait := time.Second; ; wait += time.Second {
			time.Sleep(wait) // the opponent's turn
			got := ask(t, s, virusRequest("player_1", ""))
			if got.Fault == fault.Timeout {
				// How soon the answer came is the machine's load; what
				// was charged is not.
				wantFault(t, got, fault.Timeout, "used more than 0.3s of CPU time")
				if got.CPU < lim.Move {
					t.Errorf("a move that timed out was charged %v of CPU, under its limit", got.CPU)
				}
				return
			}
			// The bot counts from its previous answer, the charge from a
			// moment later: a millisecond apart.
			if used := spent(t, got); used < 10*time.Millisecond || got.CPU < used-5*time.Millisecond {
				t.Fatalf("pondering for %v used %v, and was charged %v of CPU", wait, used, got.CPU)
			}
			if wait > 20*time.Second {
				t.Fatal("pondering never made a move time out")
			}
		}
	})
}

// A child process left spinning between requests is charged too. The
// local runner counts only the processes it waits for: this needs the
// container's accounting.
func TestForkedChildIsCharged(t *testing.T) {
	const bot = `
import os, time

def ia(game, side):
    if game["mode"] == "fork" and os.fork() == 0:
        while True:
            with open("/tmp/spent.new", "w") as f:
                f.write(str(time.process_time()))
            os.replace("/tmp/spent.new", "/tmp/spent")
    time.sleep(0.1)
    with open("/tmp/spent") as f:
        return float(f.read())
`
	test := func(t *testing.T, r runner) {
		s := start(t, r, virusBot(t, bot), limits(10*time.Second))
		before := spent(t, ask(t, s, virusRequest("player_1", "fork")))
		time.Sleep(time.Second)
		got := ask(t, s, virusRequest("player_1", "calm"))
		if used := spent(t, got) - before; used < 10*time.Millisecond || got.CPU < used-5*time.Millisecond {
			t.Errorf("a child that used %v between moves was charged %v of CPU (%v of wall time)", used, got.CPU, got.Elapsed)
		}
	}
	t.Run("docker", func(t *testing.T) {
		t.Parallel()
		test(t, sandboxtest.Docker(t))
	})
	t.Run("reused", func(t *testing.T) {
		t.Parallel()
		test(t, sandboxtest.Pool(t))
	})
}

// A program bot's moves are charged its process's CPU; a server bot's, the
// server's.
func TestChargedProgramAndServer(t *testing.T) {
	const work = "import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end:\n    pass\n"
	const server = `
import http.server, os, time

class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        end = time.process_time() + 0.5
        while time.process_time() < end:
            pass
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"1")

http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()
`
	bots := map[string]sandbox.Bot{
		"program": writeBot(t, "bot.py", sandbox.ProtocolProgram, map[string]string{"": work + "print(1)\n"}),
		"server":  writeBot(t, "srv/", sandbox.ProtocolProgram, map[string]string{"serve.sh": "exec python3 server.py\n", "server.py": server}),
	}
	eachRunner(t, func(t *testing.T, r runner) {
		for name, bot := range bots {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				s := start(t, r, bot, limits(5*time.Second))
				got := ask(t, s, `{"n":1}`)
				wantOK(t, got, "1")
				if !got.Metered || got.CPU < 450*time.Millisecond {
					t.Errorf("0.5 s of work: metered %v, charged %v of CPU, %v of wall time", got.Metered, got.CPU, got.Elapsed)
				}
			})
		}
	})
}
