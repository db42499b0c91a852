package sandbox_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"botjudge/games/fault"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// TestFloodStaysInContainer plays one move of bots that print without end
// until their time is up (their CPU, or the wall-clock backstop when the
// pipe keeps them waiting): only the log's cap may cross the attach stream.
// The CPU it cost the judge and the engine is logged, not asserted, since
// other work on the machine makes it vary; `go test -v` shows it.
func TestFloodStaysInContainer(t *testing.T) {
	d := sandboxtest.Docker(t)
	bots := []sandbox.Bot{
		virusBot(t, "def ia(game, side):\n    line = 'x' * 1000\n    while True:\n        print(line)\n"),
		writeBot(t, "flood.py", sandbox.ProtocolProgram, map[string]string{
			"": "import sys\nline = 'x' * 65536\nwhile True:\n    sys.stderr.write(line)\n",
		}),
	}
	// The ready line, and the fault line with its detail.
	const protocol = 4 << 10
	for _, bot := range bots {
		t.Run(bot.Protocol, func(t *testing.T) {
			lim := limits(2 * time.Second)
			judge, engine := judgeCPU(t), engineCPU(t)
			s := start(t, d, bot, lim)
			wantFault(t, ask(t, s, virusRequest("player_1", "")), fault.Timeout, "s of CPU")
			log := closedLog(t, s)
			t.Logf("CPU for one flooded move: judge %v, dockerd and containerd %v", judgeCPU(t)-judge, engineCPU(t)-engine)
			if got := sandbox.Received(s); got > int64(lim.Log+protocol) {
				t.Errorf("the judge received %d bytes, over the log's cap of %d and %d for the protocol", got, lim.Log, protocol)
			}
			if !strings.HasPrefix(log, "xxx") || !strings.Contains(log, "more bytes of log were dropped") {
				t.Errorf("the log does not begin with the bot's output and say that the rest was dropped: %q...", log[:min(len(log), 200)])
			}
		})
	}
}

// judgeCPU is the CPU time this process (the judge) used so far.
func judgeCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// engineCPU is the CPU time the Docker daemon and containerd used so far,
// when they run on this machine (zero elsewhere).
func engineCPU(t *testing.T) time.Duration {
	comms, err := filepath.Glob("/proc/[0-9]*/comm")
	if err != nil {
		t.Fatal(err)
	}
	var ticks int64
	for _, f := range comms {
		comm, err := os.ReadFile(f)
		if name := string(bytes.TrimSpace(comm)); err != nil || (name != "dockerd" && name != "containerd") {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(filepath.Dir(f), "stat"))
		if err != nil {
			continue
		}
		// utime and stime are fields 14 and 15, after the command name
		// that may hold spaces.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		for _, v := range fields[11:13] {
			n, _ := strconv.ParseInt(v, 10, 64)
			ticks += n
		}
	}
	// The kernel counts in USER_HZ, 100 on every Linux Go runs on.
	return time.Duration(ticks) * 10 * time.Millisecond
}
