package sandbox

import (
	"botjudge/games/fault"

	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"
	"github.com/google/uuid"
)

// ErrEngine means the Docker engine cannot be reached.
var ErrEngine = errors.New("sandbox: the Docker engine is unreachable")

// Labels on every container, so that a later judge can tell whose it is.
const (
	LabelJudge = "botjudge"          // always "1"
	LabelOwner = "botjudge.owner"    // Options.Owner of the Docker that started it
	LabelPID   = "botjudge.pid"      // the judge process...
	LabelStart = "botjudge.pidstart" // ...and its start time, against pid reuse
	LabelHost  = "botjudge.host"     // the judge's machine: its pids mean nothing elsewhere
	LabelBot   = "botjudge.bot"      // the bot's name
	// LabelGameKey names the game a container serves; a container reused
	// across games (Pool) does not carry it.
	LabelGameKey = "botjudge.key"
)

// Options configure NewDocker.
type Options struct {
	// Image is the runtime image; empty means this build's own
	// botjudge-runtime:<hash of the harness and the recipe>.
	Image string
	// Owner names this judge in the containers' labels; empty means a new
	// random id.
	Owner string
	// Host is the engine's address (unix:///..., tcp://...); empty means
	// DOCKER_HOST or the default socket.
	Host string
	// Cold starts every program bot's process with its request, without
	// the warm start (see harness.py's Warm): measures compare the two.
	Cold bool
}

// Docker runs each bot in a hardened container of the runtime image.
type Docker struct {
	cli    *client.Client
	image  string
	owner  string
	host   string
	labels map[string]string // the judge's own labels, on every container
	vols   volumes           // the bots' volumes, filled once each

	usrMu   sync.Mutex
	usrName string // the volume of the image's /usr, once filled

	cold bool // Options.Cold
}

// NewDocker connects to the engine named by the environment (DOCKER_HOST...)
// or the default socket. An unreachable engine is an error wrapping ErrEngine.
func NewDocker(ctx context.Context, opts Options) (*Docker, error) {
	cli, err := client.NewClientWithOpts(client.FromEnv, withHost(opts.Host), client.WithAPIVersionNegotiation())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEngine, err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := cli.Ping(pctx); err != nil {
		cli.Close()
		return nil, fmt.Errorf("%w: %v (start Docker, or point DOCKER_HOST at a running engine)", ErrEngine, err)
	}
	d := &Docker{cli: cli, image: opts.Image, owner: opts.Owner, cold: opts.Cold}
	if d.image == "" {
		d.image = RuntimeImage()
	}
	if d.owner == "" {
		d.owner = uuid.NewString()
	}
	d.host, _ = os.Hostname()
	pid := os.Getpid()
	started, _ := processStart(pid)
	d.labels = map[string]string{
		LabelJudge: "1",
		LabelOwner: d.owner,
		LabelPID:   strconv.Itoa(pid),
		LabelStart: started,
		LabelHost:  d.host,
	}
	return d, nil
}

// Image is the runtime image this Docker starts bots in.
func (d *Docker) Image() string { return d.image }

// Owner is the id in the owner label of this Docker's containers.
func (d *Docker) Owner() string { return d.owner }

// Close releases the connection to the engine.
func (d *Docker) Close() error { return d.cli.Close() }

// Start runs bot in a fresh container and waits until it is ready. labels
// (tournament, game...) are added to the judge's own on the container.
func (d *Docker) Start(ctx context.Context, bot Bot, lim Limits, labels map[string]string) (Session, error) {
	return start(ctx, d, bot, lim, labels)
}

func (d *Docker) launch(ctx context.Context, spec launchSpec) (proc, error) {
	c, err := d.create(ctx, spec, false)
	if err != nil {
		return nil, err
	}
	if err := c.attachAndStart(ctx, spec.out, spec.log); err != nil {
		return nil, errors.Join(fmt.Errorf("sandbox: starting the container of %s: %w", spec.bot.Name, err), kill(ctx, c))
	}
	return c, nil
}

// create makes the container of spec's bot, not started yet. A reused
// container runs the warden rather than the harness, and does not carry
// LabelGameKey: it serves more than one game.
func (d *Docker) create(ctx context.Context, spec launchSpec, reused bool) (*box, error) {
	bot, err := d.botMount(ctx, spec.bot.Name, spec.bot.Path, "/bot")
	if err != nil {
		return nil, err
	}
	target := "/bot/" + filepath.Base(spec.bot.Path)
	labels := d.containerLabels(spec.bot.Name, spec.labels)
	cmd := append([]string{"/usr/bin/python3", "-I", harnessPath}, spec.harnessArgs(target, "/tmp")...)
	if !d.cold {
		cmd = append(cmd, "--warm", warmDir)
	}
	if reused {
		delete(labels, LabelGameKey)
		cmd = slices.Insert(cmd, 3, "--warden")
	}
	pids := spec.lim.Pids
	cfg := &container.Config{
		Image: d.image,
		// The harness (or the warden) is PID 1 on purpose (no init): it
		// kills and reaps whatever a request leaves behind.
		Cmd:        cmd,
		User:       "65534:65534",
		Env:        []string{},
		WorkingDir: "/tmp",
		Hostname:   "bot",
		OpenStdin:  true,
		// Stdin closes when the judge hangs up or dies: the harness then
		// exits and the container stops by itself.
		StdinOnce:       true,
		AttachStdin:     true,
		AttachStdout:    true,
		AttachStderr:    true,
		Labels:          labels,
		NetworkDisabled: true,
	}
	host := hardened(bot, fmt.Sprintf("rw,noexec,nosuid,nodev,size=%d,mode=1777", spec.lim.Tmp), container.Resources{
		Memory:    spec.lim.Memory,
		NanoCPUs:  int64(spec.lim.CPUs * 1e9),
		CPUShares: spec.lim.shares(),
		PidsLimit: &pids,
	})
	return d.newBox(ctx, cfg, host, "the container of "+spec.bot.Name)
}

// containerLabels are a container's labels: its bot's, extra, and the
// judge's own.
func (d *Docker) containerLabels(bot string, extra map[string]string) map[string]string {
	labels := map[string]string{LabelBot: bot}
	for k, v := range extra {
		labels[k] = v
	}
	for k, v := range d.labels {
		labels[k] = v
	}
	return labels
}

// newBox creates a container of cfg and host, the image's /usr mounted in
// it, not started yet; what names it in an error.
func (d *Docker) newBox(ctx context.Context, cfg *container.Config, host *container.HostConfig, what string) (*box, error) {
	usr, err := d.usr(ctx)
	if err != nil {
		return nil, err
	}
	host.Mounts = append(host.Mounts, usrMount(usr))
	// A create cancelled half-way may still happen in the engine, leaving a
	// container nobody knows the id of: let it finish, then give up.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	created, err := d.cli.ContainerCreate(cctx, cfg, host, nil, nil, "")
	cancel()
	c := &box{cli: d.cli, id: created.ID, ended: make(chan struct{})}
	if err == nil && ctx.Err() != nil {
		return nil, errors.Join(ctx.Err(), kill(ctx, c))
	}
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return nil, fmt.Errorf("%w: %s: run `make image` (%v)", ErrImageMissing, d.image, err)
		}
		return nil, fmt.Errorf("sandbox: creating %s: %w", what, err)
	}
	return c, nil
}

// hardened is the host side of every container: no network, read-only
// root, no capabilities, the bot's read-only mount, and a tmpfs /tmp with
// tmpfs's options as the only writable place.
func hardened(bot mount.Mount, tmpfs string, res container.Resources) *container.HostConfig {
	res.MemorySwap = res.Memory
	// A crashing bot must not hand a core dump to the host's core_pattern
	// handler.
	res.Ulimits = []*container.Ulimit{{Name: "core", Soft: 0, Hard: 0}}
	return &container.HostConfig{
		NetworkMode:    "none",
		ReadonlyRootfs: true,
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		// No /dev/shm: the tmpfs /tmp is the only writable place.
		IpcMode: container.IPCModeNone,
		// The attach stream is the only way out; a logging driver would
		// copy a chatty bot's output onto the host's disk.
		LogConfig: container.LogConfig{Type: "none"},
		Tmpfs:     map[string]string{"/tmp": tmpfs},
		Mounts:    []mount.Mount{bot},
		Resources: res,
	}
}

// box is one bot's container.
type box struct {
	cli    *client.Client
	id     string
	stream types.HijackedResponse
	ended  chan struct{}

	once    sync.Once
	killErr error
}

// attachAndStart starts the container with its stdin attached, its stdout
// copied to out and its stderr to log.
func (c *box) attachAndStart(ctx context.Context, out, log io.Writer) error {
	return c.start(ctx, container.AttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true}, out, log)
}

// start attaches to the container as opts says, then starts it: attached
// before start, or the first lines could be lost. done is closed once the
// output has ended.
func (c *box) start(ctx context.Context, opts container.AttachOptions, out, log io.Writer) error {
	stream, err := c.cli.ContainerAttach(ctx, c.id, opts)
	if err != nil {
		close(c.ended)
		return err
	}
	c.stream = stream
	go func() {
		defer close(c.ended)
		// The stream ends when the container does; an error only means
		// the same, seen from a closed connection.
		_, _ = stdcopy.StdCopy(out, log, stream.Reader)
	}()
	return c.cli.ContainerStart(ctx, c.id, container.StartOptions{})
}

func (c *box) write(p []byte, deadline time.Time) error {
	if err := c.stream.Conn.SetWriteDeadline(deadline); err != nil {
		return err
	}
	_, err := c.stream.Conn.Write(p)
	return err
}

func (c *box) done() <-chan struct{} { return c.ended }

func (c *box) hangUp() error { return c.stream.CloseWrite() }

func (c *box) exit(ctx context.Context) (fault.Kind, string, error) {
	// The output can end shortly before the engine records the exit. If
	// the container still runs, the bot closed the harness's output.
	code, err := c.wait(ctx, 3*time.Second)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return fault.Crash, "the bot closed the harness's output", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("sandbox: waiting for container %.12s: %w", c.id, err)
	}
	oom, err := c.oomKilled(ctx)
	if err != nil {
		return "", "", fmt.Errorf("sandbox: inspecting container %.12s: %w", c.id, err)
	}
	if oom {
		return fault.OOM, "killed: out of memory", nil
	}
	return fault.Crash, exitStatus(int(code)), nil
}

// wait waits at most timeout for the container to stop and returns its exit
// code; the error wraps context.DeadlineExceeded when it still runs.
func (c *box) wait(ctx context.Context, timeout time.Duration) (int64, error) {
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	waited, errs := c.cli.ContainerWait(wctx, c.id, container.WaitConditionNotRunning)
	select {
	case w := <-waited:
		return w.StatusCode, nil
	case err := <-errs:
		return 0, err
	}
}

// oomKilled tells whether the engine killed the stopped container for its
// memory.
func (c *box) oomKilled(ctx context.Context) (bool, error) {
	info, err := c.cli.ContainerInspect(ctx, c.id)
	if err != nil {
		return false, err
	}
	return info.State != nil && info.State.OOMKilled, nil
}

// exitStatus describes a container's exit code, where 128+n means signal n.
func exitStatus(code int) string {
	if code > 128 && code < 128+65 {
		sig := syscall.Signal(code - 128)
		return fmt.Sprintf("killed by signal %d (%v)", int(sig), sig)
	}
	return fmt.Sprintf("the bot's process exited with status %d", code)
}

func (c *box) kill(ctx context.Context) error {
	c.once.Do(func() {
		if c.stream.Conn != nil {
			c.stream.Close()
		}
		err := c.cli.ContainerRemove(ctx, c.id, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err != nil && !cerrdefs.IsNotFound(err) {
			c.killErr = fmt.Errorf("sandbox: removing container %.12s: %w", c.id, err)
		}
	})
	return c.killErr
}

// Containers lists the IDs of the containers this Docker started that
// still exist.
func (d *Docker) Containers(ctx context.Context) ([]string, error) {
	return d.ContainersLabelled(ctx, LabelOwner, d.owner)
}

// ContainersLabelled lists the IDs of every existing container that carries
// label=value, whichever judge started it: how a test sees what a judge in
// another process (LabelPID) left behind.
func (d *Docker) ContainersLabelled(ctx context.Context, label, value string) ([]string, error) {
	list, err := d.cli.ContainerList(ctx, container.ListOptions{
		All:     true,
		Filters: filters.NewArgs(filters.Arg("label", label+"="+value)),
	})
	if err != nil {
		return nil, fmt.Errorf("sandbox: listing containers: %w", err)
	}
	ids := make([]string, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	return ids, nil
}

// Reap removes the containers left by judges that died: those labelled by
// a judge on this machine whose process is gone (or whose pid now belongs
// to another process). Containers of live judges, this one included, stay.
func (d *Docker) Reap(ctx context.Context) (int, error) {
	list, err := d.cli.ContainerList(ctx, container.ListOptions{
		All:     true,
		Filters: filters.NewArgs(filters.Arg("label", LabelJudge+"=1")),
	})
	if err != nil {
		return 0, fmt.Errorf("sandbox: listing containers: %w", err)
	}
	removed := 0
	var errs []error
	for _, c := range list {
		l := c.Labels
		if l[LabelOwner] == d.owner || l[LabelHost] != d.host || ownerAlive(l[LabelPID], l[LabelStart]) {
			continue
		}
		err := d.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
		switch {
		case err == nil:
			removed++
		case !cerrdefs.IsNotFound(err):
			errs = append(errs, fmt.Errorf("sandbox: removing container %.12s: %w", c.ID, err))
		}
	}
	// The dead judges' volumes, once their containers are gone.
	errs = append(errs, d.reapVolumes(ctx))
	return removed, errors.Join(errs...)
}

// ownerAlive tells whether the judge process that labelled a container
// still runs. A missing or garbled pid cannot belong to a live judge.
func ownerAlive(pidLabel, startLabel string) bool {
	pid, err := strconv.Atoi(pidLabel)
	if err != nil || pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	now, err := processStart(pid)
	return err != nil || startLabel == "" || now == startLabel
}

// processStart is a process's start time (clock ticks since boot) from
// /proc, which together with its pid names it uniquely.
func processStart(pid int) (string, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", err
	}
	// The command name (field 2) may hold spaces and parentheses.
	i := strings.LastIndexByte(string(stat), ')')
	fields := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(fields) < 20 {
		return "", fmt.Errorf("sandbox: unexpected /proc/%d/stat", pid)
	}
	return fields[19], nil
}
