package sandbox_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// The machine's load is never the bot's (SPEC §5, load): a bot that thinks
// 0.6 s of CPU under a 1 s limit, on a CPU it shares with four busy
// processes, takes 3 s of wall time or more, past the wall backstop of
// twice the limit; the time it waited for the CPU is not counted, so it
// answers. Bot and hog are pinned to CPU 0, so the wait is certain.
func TestWaitingForACPUIsNotCharged(t *testing.T) {
	const think = `
    os.sched_setaffinity(0, {0})
    end = time.thread_time() + 0.6
    while time.thread_time() < end:
        pass
`
	ia := virusBot(t, "import os, time\n\ndef ia(game, side):"+think+"    return 1\n")
	program := writeBot(t, "think.py", sandbox.ProtocolProgram, map[string]string{"": "import os, time\nif True:" + think + "print(1)\n"})
	sandboxtest.Hog(t, 4, time.Minute, 0)
	eachRunner(t, func(t *testing.T, r runner) {
		for _, bot := range []sandbox.Bot{ia, program} {
			s := start(t, r, bot, limits(time.Second))
			got := ask(t, s, virusRequest("player_1", ""))
			wantOK(t, got, "1")
			if got.Waited <= 0 {
				t.Errorf("%s: waited %v for a CPU, in %v of wall time", bot.Name, got.Waited, got.Elapsed)
			}
		}
	})
}

// Starting is charged like a move (SPEC §5, load): an import that sleeps
// past the start-up limit, but not past twice it, is ready; one that sleeps
// on is not, in the author's words.
func TestStartupChargedLikeAMove(t *testing.T) {
	slow := virusBot(t, "import time\ntime.sleep(1.5)\n\ndef ia(game, side):\n    return 1\n")
	never := virusBot(t, "import time\ntime.sleep(30)\n\ndef ia(game, side):\n    return 1\n")
	eachRunner(t, func(t *testing.T, r runner) {
		lim := limits(time.Second)
		lim.Startup = time.Second
		wantOK(t, ask(t, start(t, r, slow, lim), virusRequest("player_1", "")), "1")
		got := ask(t, start(t, r, never, lim), virusRequest("player_1", ""))
		wantFault(t, got, fault.Timeout, "not imported within 2s of wall time")
	})
}

// The plain runner starts the harness, and Python bots, with the system's
// python3, not the PATH's first (a version manager's shim that starts
// shells on every call).
func TestLocalUsesSystemPython(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 on this machine")
	}
	shims := t.TempDir()
	used := filepath.Join(shims, "used")
	shim := "#!/bin/sh\ntouch " + used + "\nexec /usr/bin/python3 \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shims, "python3"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shims+string(filepath.ListSeparator)+os.Getenv("PATH"))
	if p, _ := exec.LookPath("python3"); p != filepath.Join(shims, "python3") {
		t.Fatalf("the shim is not first on the PATH: %s", p)
	}
	bot := writeBot(t, "exe.py", sandbox.ProtocolProgram, map[string]string{"": "import json, sys\nprint(json.dumps(sys.executable))\n"})
	s := start(t, sandbox.NewLocal(), bot, limits(5*time.Second))
	wantOK(t, ask(t, s, `{}`), `"/usr/bin/python3"`)
	if _, err := os.Stat(used); err == nil {
		t.Error("the PATH's python3 ran")
	}
}

// Background games (hand-in checks, sparring) run at a lower CPU weight
// than a tournament's: their containers' CPU shares, or the plain
// processes' niceness.
func TestBackgroundGamesWeighLess(t *testing.T) {
	const weight = `import json, os
shares = None
for path in ("/sys/fs/cgroup/cpu/cpu.shares", "/sys/fs/cgroup/cpu,cpuacct/cpu.shares", "/sys/fs/cgroup/cpu.weight"):
    if os.path.exists(path):
        shares = int(open(path).read())
        break
print(json.dumps([os.getpriority(os.PRIO_PROCESS, 0), shares]))
`
	bot := writeBot(t, "weight.py", sandbox.ProtocolProgram, map[string]string{"": weight})
	eachRunner(t, func(t *testing.T, r runner) {
		var got [2][2]*int
		for i, background := range []bool{false, true} {
			lim := limits(5 * time.Second)
			lim.Background = background
			reply := ask(t, start(t, r, bot, lim), `{}`)
			if reply.Fault != fault.None || json.Unmarshal(reply.Data, &got[i]) != nil || got[i][0] == nil {
				t.Fatalf("got %s %q (%s)", reply.Data, reply.Fault, reply.Detail)
			}
		}
		tournament, background := got[0], got[1]
		if _, local := r.(*sandbox.Local); local {
			if *background[0] <= *tournament[0] {
				t.Errorf("niceness %d in the background, %d in a tournament", *background[0], *tournament[0])
			}
		} else if background[1] == nil || tournament[1] == nil || *background[1] >= *tournament[1] {
			t.Errorf("CPU weight %v in the background, %v in a tournament", background[1], tournament[1])
		}
	})
}
