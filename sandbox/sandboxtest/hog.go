package sandboxtest

import (
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// hogScript keeps one CPU busy until its deadline, pinned to the CPUs of
// its arguments (all when none), at the same priority as everything else.
const hogScript = `
import os, sys, time
if sys.argv[2:]:
    os.sched_setaffinity(0, {int(c) for c in sys.argv[2:]})
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    pass
`

// Hog starts n busy processes, pinned to cpus (to every CPU when none), for
// at most most: the load of a machine running other things beside the
// judge. Stop ends them; the test's cleanup does too.
func Hog(tb testing.TB, n int, most time.Duration, cpus ...int) (stop func()) {
	tb.Helper()
	args := []string{"-c", hogScript, strconv.FormatFloat(most.Seconds(), 'f', 3, 64)}
	for _, c := range cpus {
		args = append(args, strconv.Itoa(c))
	}
	var cmds []*exec.Cmd
	stop = func() {
		for _, cmd := range cmds {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		cmds = nil
	}
	tb.Cleanup(stop)
	for range n {
		cmd := exec.Command("/usr/bin/python3", args...)
		if err := cmd.Start(); err != nil {
			tb.Fatalf("starting the hog: %v", err)
		}
		cmds = append(cmds, cmd)
	}
	return stop
}
