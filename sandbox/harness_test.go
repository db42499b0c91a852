package sandbox

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
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
