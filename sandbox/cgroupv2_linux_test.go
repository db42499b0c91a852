package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCgroupV2Charge runs the harness as it runs in a container on a cgroup
// v2 machine, which this project's own machines are not: in a cgroup of its
// own, seen through a cgroup namespace as /sys/fs/cgroup, as an
// unprivileged user. Another process of that cgroup, not the harness's
// child, spins between two moves and then during one: only the cgroup's
// cpu.stat sees it, so the second move is charged its CPU and the third
// times out on CPU. Read from the processes' own accounting instead, both
// would pass unnoticed.
func TestCgroupV2Charge(t *testing.T) {
	dir := cgroupV2(t)
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	into := &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}

	// Not t.TempDir(), whose parent only root may enter.
	botDir, err := os.MkdirTemp("", "botjudge-v2-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(botDir) })
	if err := os.Chmod(botDir, 0o755); err != nil {
		t.Fatal(err)
	}
	opt := filepath.Join(botDir, "opt")
	if err := writeJudge(opt); err != nil {
		t.Fatal(err)
	}
	bot := filepath.Join(botDir, "calm.py")
	if err := os.WriteFile(bot, []byte("def ia(game, side):\n    return 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The mount is private to the namespace: the host's /sys/fs/cgroup is
	// left alone. The system's Python, as a user's may live in root's home.
	script := `mount -t cgroup2 none /sys/fs/cgroup && exec setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -I "$0" --contained --move 1 ia "$1"`
	cmd := exec.Command("unshare", "--mount", "--cgroup", "--propagation", "private", "sh", "-c", script, filepath.Join(opt, "harness.py"), bot)
	cmd.SysProcAttr = into
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	ask := func(id int) map[string]any {
		t.Helper()
		if id > 0 {
			req := `{"id":` + strconv.Itoa(id) + `,"request":{"side":"player_1","game":{"player_1":{},"player_2":{}}}}` + "\n"
			if _, err := io.WriteString(stdin, req); err != nil {
				t.Fatal(err)
			}
		}
		for {
			if !lines.Scan() {
				t.Fatalf("the harness said nothing more (%v)", lines.Err())
			}
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("%q: %v", lines.Bytes(), err)
			}
			// The harness says how long the bot has waited for a CPU as
			// it goes; the answer is the line that says more.
			if _, waiting := m["wait"]; !waiting || len(m) > 1 {
				return m
			}
		}
	}
	if ready := ask(0); ready["ready"] != true {
		t.Fatalf("not ready: %v", ready)
	}
	if first := ask(1); first["value"] != 0.0 || first["cpu"].(float64) > 0.2 {
		t.Fatalf("first move: %v, want 0 charged well under 0.2 s", first)
	}

	// 0.4 s of CPU between the moves.
	spin := exec.Command("python3", "-c", "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass")
	spin.SysProcAttr = into
	if out, err := spin.CombinedOutput(); err != nil {
		t.Fatalf("spinner: %v %s", err, out)
	}
	if second := ask(2); second["cpu"].(float64) < 0.35 {
		t.Errorf("second move charged %v: want the 0.4 s its cgroup used since the first", second)
	}

	// Off-turn again, past the limit: the bot is not even asked.
	used := usage(t, dir)
	forever := exec.Command("python3", "-c", "while True: pass")
	forever.SysProcAttr = into
	if err := forever.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = forever.Process.Kill(); _ = forever.Wait() }()
	for deadline := time.Now().Add(time.Minute); usage(t, dir)-used < 1.2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the spinner did not get 1.2 s of CPU in a minute")
		}
	}
	if third := ask(3); third["fault"] != "timeout" || !strings.Contains(third["detail"].(string), "of CPU time") {
		t.Errorf("third move: %v, want a timeout on CPU", third)
	}
}

// usage is a cgroup's CPU seconds so far, read from outside.
func usage(t *testing.T, dir string) float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "cpu.stat"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return float64(n) / 1e6
		}
	}
	t.Fatalf("no usage_usec in %s", data)
	return 0
}

// cgroupV2 is a new cgroup of a cgroup v2 hierarchy, removed after the test:
// the machine's own when it has one, else a hierarchy mounted beside cgroup
// v1's, which has no controllers but keeps cpu.stat all the same.
func cgroupV2(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("cgroup v2 is tried in a cgroup and a namespace of the test's own, which needs root under CI=true")
		}
		t.Skip("cgroup v2 is tried in a cgroup and a namespace of the test's own, which needs root")
	}
	root := "/sys/fs/cgroup"
	var st syscall.Statfs_t
	if err := syscall.Statfs(root, &st); err != nil || st.Type != 0x63677270 { // CGROUP2_SUPER_MAGIC
		root = t.TempDir()
		if err := syscall.Mount("none", root, "cgroup2", 0, ""); err != nil {
			t.Fatalf("mount cgroup2: %v", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(root, syscall.MNT_DETACH) })
	}
	dir := filepath.Join(root, "botjudge-test-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The processes are gone by now; rmdir waits for the kernel to
		// notice.
		deadline := time.Now().Add(5 * time.Second)
		for err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist); err = os.Remove(dir) {
			if time.Now().After(deadline) {
				t.Errorf("remove %s: %v", dir, err)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return dir
}
