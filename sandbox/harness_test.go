package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHarnessIdleBackstop runs the harness with a bot that holds the Python
// interpreter, so that nothing but a C-level timer can end it, and a judge
// that neither asks anything more nor hangs up: it must end by itself once
// --idle has passed.
func TestHarnessIdleBackstop(t *testing.T) {
	bot := filepath.Join(t.TempDir(), "hog.py")
	// A big power runs in C without releasing the interpreter: minutes here.
	if err := os.WriteFile(bot, []byte("def ia(game, side):\n    return 7 ** (3 * 10 ** 7)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", "-I", harness(t), "--idle", "3", "--move", "600", "ia", bot)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	if !bufio.NewScanner(stdout).Scan() {
		t.Fatal("no ready line")
	}
	if _, err := stdin.Write([]byte(`{"id":1,"request":{"side":"player_1","game":{"player_1":{},"player_2":{}}}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	select {
	case err := <-ended:
		if cmd.ProcessState.ExitCode() != 1 {
			t.Errorf("the harness ended with %v, want the backstop's status 1", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the harness still runs 30s after the judge went quiet, with --idle 3")
	}
}

// harness writes the judge's files into a folder of the test's and returns
// the path of harness.py.
func harness(t *testing.T) string {
	t.Helper()
	opt := filepath.Join(t.TempDir(), "opt")
	if err := writeJudge(opt); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(opt, "harness.py")
}

// TestHarnessTellsLoad: a move that ran out of wall time on a machine where
// the bot's wait for a CPU cannot be read (a kernel without schedstats) is
// the judge's failure when the machine was oversubscribed meanwhile (the
// answer says "load", and the game is played again), and the bot's timeout
// when it was not. The kernel is played by the harness's own readers.
func TestHarnessTellsLoad(t *testing.T) {
	bot := filepath.Join(t.TempDir(), "sleeper.py")
	if err := os.WriteFile(bot, []byte("import time\n\ndef ia(game, side):\n    time.sleep(5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := harness(t)
	for _, tc := range []struct {
		name  string
		stall string // /proc/pressure/cpu's total, as the harness reads it
		load  bool
	}{
		{"oversubscribed", "time.monotonic()", true},
		{"quiet", "0.0", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The package is imported from the harness's folder, as
			// harness.py does, and its readers replaced before it runs.
			driver := fmt.Sprintf(`import runpy, sys, time
sys.path.insert(0, %q)
from harness import container
container.run_delays = lambda pids: {}
container.cgroup_pressure = lambda: None
container.machine_stall = lambda: %s
sys.argv = [%q] + sys.argv[1:]
runpy.run_path(%q, run_name="__main__")
`, filepath.Dir(main), tc.stall, main, main)
			cmd := exec.Command(HostPython(), "-I", "-c", driver, "--move", "0.2", "ia", bot)
			cmd.Stdin = strings.NewReader(`{"id":1,"request":{"side":"player_1","game":{"player_1":{},"player_2":{}}}}` + "\n")
			out, _ := cmd.Output()
			var answer map[string]any
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var m map[string]any
				if json.Unmarshal([]byte(line), &m) == nil && m["id"] == 1.0 {
					answer = m
				}
			}
			if answer == nil {
				t.Fatalf("no answer to the move:\n%s", out)
			}
			if answer["fault"] != "timeout" || (answer["load"] == true) != tc.load {
				t.Errorf("the answer: %v, want a timeout with load %v", answer, tc.load)
			}
		})
	}
}
