package sandbox

import (
	"botjudge/games/fault"

	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Local runs the same harness as Docker, with the host's python3 (see
// HostPython), as a plain process: no isolation at all. It is for tests without Docker,
// --sandbox=none and benchmark baselines, never for untrusted bots.
type Local struct {
	StartOnly      // the host's compilers are not the image's, and the host is the judge's
	cold      bool // as Docker's
}

// NewLocal returns the unsafe runner.
func NewLocal() *Local { return &Local{} }

// Start runs bot with HostPython and waits until it is ready.
// labels are ignored.
func (l *Local) Start(ctx context.Context, bot Bot, lim Limits, labels map[string]string) (Session, error) {
	return start(ctx, l, bot, lim, labels)
}

func (l *Local) launch(ctx context.Context, spec launchSpec) (proc, error) {
	src, err := filepath.Abs(spec.bot.Path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(src); err != nil {
		return nil, fmt.Errorf("sandbox: bot %s: %w", spec.bot.Name, err)
	}
	home, err := os.MkdirTemp("", "botjudge-local-")
	if err != nil {
		return nil, err
	}
	// The harness and the warm start's hooks, beside the bot's home rather
	// than in it, where the bot would see them.
	opt := home + "-opt"
	if err := writeJudge(opt); err != nil {
		os.RemoveAll(home)
		os.RemoveAll(opt)
		return nil, err
	}
	stdin, feed, err := os.Pipe()
	if err != nil {
		os.RemoveAll(home)
		os.RemoveAll(opt)
		return nil, err
	}
	args := spec.harnessArgs(src, home)
	if !l.cold {
		args = append(args, "--warm", filepath.Join(opt, "warm"))
	}
	// Python bots run with the harness's own binary (sys.executable).
	cmd := exec.Command(HostPython(), append([]string{"-I", filepath.Join(opt, "harness.py")}, args...)...)
	cmd.Dir = home
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, spec.out, spec.log
	// Its own group, so that killing it kills what it started; and a bound
	// on waiting for output a leftover child keeps open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	stdin.Close()
	if err != nil {
		feed.Close()
		os.RemoveAll(home)
		os.RemoveAll(opt)
		return nil, fmt.Errorf("sandbox: starting python3: %w", err)
	}
	if spec.lim.Background {
		// Before the harness starts the bot, whose processes inherit it;
		// a failure leaves the game at the tournament's weight, no worse.
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, cmd.Process.Pid, backgroundNice)
	}
	p := &process{cmd: cmd, feed: feed, home: home, ended: make(chan struct{})}
	go func() {
		// Its outcome is in cmd.ProcessState.
		_ = cmd.Wait()
		close(p.ended)
	}()
	return p, nil
}

// backgroundNice is the niceness of Background games' processes: the
// kernel weighs them about a quarter of a tournament bot, as Docker's
// shares do (backgroundShares).
const backgroundNice = 6

// systemPython is where Debian-like systems keep their python3.
const systemPython = "/usr/bin/python3"

// HostPython is the python3 Local runs the harness and Python bots with:
// the system's where it exists, else the first on the PATH. A PATH's
// python3 may be a version manager's shim (pyenv) that starts a dozen shell
// processes on every call, a cost each of a bot's moves would pay.
func HostPython() string {
	if fi, err := os.Stat(systemPython); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return systemPython
	}
	if path, err := exec.LookPath(selfInterpreter); err == nil {
		return path
	}
	return selfInterpreter
}

// HostInterpreter is the program Local runs l's bots with: its path, or ""
// when the host has none (then its bots fail with the harness's words).
func HostInterpreter(l Language) string {
	if l.Interpreter == selfInterpreter {
		return HostPython()
	}
	path, _ := exec.LookPath(l.Interpreter)
	return path
}

// process is one harness run by Local.
type process struct {
	cmd   *exec.Cmd
	feed  *os.File // the harness's stdin
	home  string
	ended chan struct{}
}

func (p *process) write(b []byte, deadline time.Time) error {
	if err := p.feed.SetWriteDeadline(deadline); err != nil {
		return err
	}
	_, err := p.feed.Write(b)
	return err
}

func (p *process) done() <-chan struct{} { return p.ended }

func (p *process) hangUp() error { return p.feed.Close() }

func (p *process) exit(ctx context.Context) (fault.Kind, string, error) {
	st := p.cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fault.Crash, fmt.Sprintf("killed by signal %d (%v)", int(ws.Signal()), ws.Signal()), nil
	}
	return fault.Crash, fmt.Sprintf("the bot's process exited with status %d", st.ExitCode()), nil
}

func (p *process) kill(ctx context.Context) error {
	err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		err = nil
	}
	p.feed.Close()
	select {
	case <-p.ended:
	case <-ctx.Done():
		return errors.Join(err, ctx.Err())
	}
	return errors.Join(err, os.RemoveAll(p.home), os.RemoveAll(p.home+"-opt"))
}
