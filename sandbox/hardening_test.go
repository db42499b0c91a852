package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"
	"github.com/google/uuid"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

func dockerClient(t *testing.T) *client.Client {
	t.Helper()
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

// probe reports what a bot can see and do from inside its sandbox.
const probe = `
import json, os, socket

def attempt(fn):
    try:
        fn()
        return "allowed"
    except Exception as e:
        return "refused"

def first(*paths):
    for p in paths:
        try:
            return open(p).read().strip()
        except OSError:
            pass
    return None

def write(path):
    return lambda: open(path, "w").write("x")

def ia(game, side):
    status = dict(l.split(":\t", 1) for l in open("/proc/self/status").read().splitlines() if ":\t" in l)
    mounts = [l.split() for l in open("/proc/self/mounts").read().splitlines()]
    return {
        "uid": [os.getuid(), os.geteuid(), os.getgid(), os.getegid()],
        "pid": os.getpid(),
        "cap_eff": status["CapEff"],
        "cap_bnd": status["CapBnd"],
        "no_new_privs": status["NoNewPrivs"],
        "write_root": attempt(write("/escape")),
        "write_etc": attempt(write("/etc/passwd")),
        "write_bot": attempt(write("/bot/bot.py")),
        "write_tmp": attempt(write("/tmp/scratch")),
        "write_shm": attempt(write("/dev/shm/scratch")),
        "network": attempt(lambda: socket.create_connection(("1.1.1.1", 53), timeout=1)),
        "interfaces": sorted(os.listdir("/sys/class/net")),
        "tmp": [m[3] for m in mounts if m[1] == "/tmp"],
        "root": [m[3].split(",")[0] for m in mounts if m[1] == "/"],
        "bot": [m[3].split(",")[0] for m in mounts if m[1] in ("/bot", "/bot/bot.py")],
        "pids_max": first("/sys/fs/cgroup/pids/pids.max", "/sys/fs/cgroup/pids.max"),
        "memory": first("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory.max"),
        "memory_swap": first("/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes"),
        "swap_v2": first("/sys/fs/cgroup/memory.swap.max"),
        "env": sorted(os.environ),
        "cwd": os.getcwd(),
        "visible_bots": os.listdir("/bot"),
    }
`

func TestContainerIsHardened(t *testing.T) {
	t.Parallel()
	d := sandboxtest.Docker(t)
	tag := uuid.NewString()
	lim := limits(5 * time.Second)
	s, err := d.Start(context.Background(), virusBot(t, probe), lim, map[string]string{"botjudge.test": tag, "botjudge.tournament": "t1"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	r := ask(t, s, virusRequest("player_1", ""))
	var got struct {
		UID        []int    `json:"uid"`
		PID        int      `json:"pid"`
		CapEff     string   `json:"cap_eff"`
		CapBnd     string   `json:"cap_bnd"`
		NoNewPrivs string   `json:"no_new_privs"`
		WriteRoot  string   `json:"write_root"`
		WriteEtc   string   `json:"write_etc"`
		WriteBot   string   `json:"write_bot"`
		WriteTmp   string   `json:"write_tmp"`
		WriteShm   string   `json:"write_shm"`
		Network    string   `json:"network"`
		Interfaces []string `json:"interfaces"`
		Tmp        []string `json:"tmp"`
		Root       []string `json:"root"`
		Bot        []string `json:"bot"`
		Env        []string `json:"env"`
		Cwd        string   `json:"cwd"`
		Visible    []string `json:"visible_bots"`
		PidsMax    *string  `json:"pids_max"`
		Memory     *string  `json:"memory"`
		MemorySwap *string  `json:"memory_swap"`
		SwapV2     *string  `json:"swap_v2"`
	}
	if err := json.Unmarshal(r.Data, &got); err != nil {
		t.Fatalf("%v: %s (%s)", err, r.Data, r.Detail)
	}
	check := func(what string, ok bool) {
		t.Helper()
		if !ok {
			t.Errorf("%s: probe said %s", what, r.Data)
		}
	}
	check("unprivileged user", fmt.Sprint(got.UID) == "[65534 65534 65534 65534]")
	check("the harness is PID 1", got.PID == 1)
	check("no capabilities", got.CapEff == "0000000000000000" && got.CapBnd == "0000000000000000")
	check("no new privileges", got.NoNewPrivs == "1")
	check("read-only root", got.WriteRoot == "refused" && got.WriteEtc == "refused" && len(got.Root) == 1 && got.Root[0] == "ro")
	check("read-only bot", got.WriteBot == "refused" && len(got.Bot) == 1 && got.Bot[0] == "ro")
	check("writable /tmp", got.WriteTmp == "allowed" && len(got.Tmp) == 1 &&
		strings.Contains(got.Tmp[0], "rw,nosuid,nodev,noexec") && strings.Contains(got.Tmp[0], "size=16384k"))
	check("no /dev/shm", got.WriteShm == "refused")
	check("no network", got.Network == "refused" && strings.Join(got.Interfaces, ",") == "lo")
	check("only its own bot", strings.Join(got.Visible, ",") == "bot.py")
	check("works in /tmp", got.Cwd == "/tmp")
	check("a clean environment", strings.Join(got.Env, ",") == "HOME,LANG,PATH")
	check("64 processes", got.PidsMax != nil && *got.PidsMax == "64")
	check("256 MiB", got.Memory != nil && (*got.Memory == "268435456"))
	check("no swap", (got.MemorySwap != nil && *got.MemorySwap == "268435456") || (got.SwapV2 != nil && *got.SwapV2 == "0"))

	// And as the engine sees it.
	cli := dockerClient(t)
	list, err := cli.ContainerList(context.Background(), container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", "botjudge.test="+tag))})
	if err != nil || len(list) != 1 {
		t.Fatalf("containers labelled %s: %d, %v", tag, len(list), err)
	}
	info, err := cli.ContainerInspect(context.Background(), list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	hc, cfg := info.HostConfig, info.Config
	check("engine: user", cfg.User == "65534:65534")
	check("engine: read-only root", hc.ReadonlyRootfs)
	check("engine: network", string(hc.NetworkMode) == "none" && cfg.NetworkDisabled)
	check("engine: caps", strings.Join(hc.CapDrop, ",") == "ALL" && len(hc.CapAdd) == 0)
	check("engine: no-new-privileges", strings.Join(hc.SecurityOpt, ",") == "no-new-privileges")
	check("engine: memory", hc.Memory == lim.Memory && hc.MemorySwap == lim.Memory)
	check("engine: cpus", hc.NanoCPUs == 1e9)
	check("engine: pids", hc.PidsLimit != nil && *hc.PidsLimit == lim.Pids)
	check("engine: no logs on disk", hc.LogConfig.Type == "none")
	check("engine: not privileged", !hc.Privileged)
	l := cfg.Labels
	check("labels", l[sandbox.LabelJudge] == "1" && l[sandbox.LabelOwner] == d.Owner() &&
		l[sandbox.LabelPID] == strconv.Itoa(os.Getpid()) && l[sandbox.LabelStart] != "" &&
		l[sandbox.LabelBot] == "bot" && l["botjudge.tournament"] == "t1")
	t.Logf("probe: %s", r.Data)

	// Close removes it.
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.ContainerInspect(context.Background(), list[0].ID); !cerrdefs.IsNotFound(err) {
		t.Errorf("the container outlived Close: %v", err)
	}
}

// selfStart is this process's start time as /proc tells it.
func selfStart(t *testing.T) string {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal("Reap tells live judges from dead ones through /proc:", err)
	}
	s := string(stat)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])[19]
}

func TestReap(t *testing.T) {
	t.Parallel()
	d := sandboxtest.Docker(t)
	cli := dockerClient(t)
	ctx := context.Background()
	host, _ := os.Hostname()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(gone.Process.Pid)
	self := strconv.Itoa(os.Getpid())
	cases := []struct {
		name              string
		owner, pid, start string
		host              string
		kept              bool
	}{
		{name: "dead judge", owner: "other", pid: dead},
		{name: "reused pid", owner: "other", pid: self, start: "1"},
		{name: "no pid", owner: "other"},
		{name: "live judge", owner: "other", pid: self, start: selfStart(t), kept: true},
		{name: "this judge", owner: d.Owner(), pid: dead, kept: true},
		{name: "other machine", owner: "other", pid: dead, host: "elsewhere", kept: true},
	}
	ids := map[string]string{}
	for _, c := range cases {
		h := host
		if c.host != "" {
			h = c.host
		}
		labels := map[string]string{sandbox.LabelJudge: "1", sandbox.LabelOwner: c.owner, sandbox.LabelHost: h, "botjudge.test": t.Name()}
		if c.pid != "" {
			labels[sandbox.LabelPID] = c.pid
		}
		if c.start != "" {
			labels[sandbox.LabelStart] = c.start
		}
		created, err := cli.ContainerCreate(ctx, &container.Config{Image: d.Image(), Cmd: []string{"true"}, Labels: labels},
			&container.HostConfig{NetworkMode: "none"}, nil, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		ids[c.name] = created.ID
		t.Cleanup(func() {
			_ = cli.ContainerRemove(context.Background(), created.ID, container.RemoveOptions{Force: true})
		})
	}
	n, err := d.Reap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	removed := 0
	for _, c := range cases {
		_, err := cli.ContainerInspect(ctx, ids[c.name])
		switch {
		case err != nil && !cerrdefs.IsNotFound(err):
			t.Fatal(err)
		case c.kept && err != nil:
			t.Errorf("%s: removed", c.name)
		case !c.kept && err == nil:
			t.Errorf("%s: kept", c.name)
		case !c.kept:
			removed++
		}
	}
	// Other dead judges' leftovers may go too.
	if n < removed {
		t.Errorf("Reap says %d removed, at least %d were", n, removed)
	}
}
