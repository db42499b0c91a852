package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CPUCounter reads a cumulative CPU time: the bots' of one runner, so that
// the judge's own share of a tournament can be told apart from theirs.
type CPUCounter struct {
	Source string // how it is measured, for the report's notes
	Read   func() (time.Duration, error)
}

// ChildrenCPU counts the CPU of the judge's finished child processes: with
// the plain runner, every bot (a harness and what it started, once reaped).
func ChildrenCPU() CPUCounter {
	return CPUCounter{Source: "getrusage(RUSAGE_CHILDREN) of the judge: its reaped bot processes", Read: func() (time.Duration, error) {
		return rusage(syscall.RUSAGE_CHILDREN)
	}}
}

// containerCgroups are where engines commonly put the cgroup holding every
// container: cgroup v1 and v2 with the cgroupfs driver. Under systemd the
// containers sit in system.slice beside everything else, which this cannot
// tell apart.
var containerCgroups = []struct{ path, kind string }{
	{"/sys/fs/cgroup/cpuacct/docker/cpuacct.usage", "ns"},
	{"/sys/fs/cgroup/cpu,cpuacct/docker/cpuacct.usage", "ns"},
	{"/sys/fs/cgroup/docker/cpu.stat", "usage_usec"},
}

// ContainersCPU counts the CPU of every container of the local Docker engine
// from the parent cgroup of all containers, read once at each end of a
// measure: nothing per move or per container goes through the engine. A
// parent cgroup keeps the time of removed children, so containers gone by the
// end still count. Containers of other programs running meanwhile count too.
func ContainersCPU() (CPUCounter, error) {
	for _, c := range containerCgroups {
		read := func() (time.Duration, error) { return readCgroupCPU(c.path, c.kind) }
		if _, err := read(); err == nil {
			return CPUCounter{Source: "the engine's parent cgroup of all containers (" + c.path + "): other containers running meanwhile count too", Read: read}, nil
		}
	}
	return CPUCounter{}, errors.New("bench: no cgroup holding the Docker containers was found")
}

// MachineMinusJudge estimates the bots' CPU as everything the machine did
// but the judge: an overestimate that includes the engine and any other load.
func MachineMinusJudge() CPUCounter {
	return CPUCounter{Source: "estimated: the whole machine's CPU (/proc/stat) minus the judge's", Read: func() (time.Duration, error) {
		all, err := machineCPU()
		if err != nil {
			return 0, err
		}
		self, err := rusage(syscall.RUSAGE_SELF)
		return all - self, err
	}}
}

func readCgroupCPU(path, kind string) (time.Duration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if kind == "ns" {
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		return time.Duration(n), err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), kind+" "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return time.Duration(n) * time.Microsecond, err
		}
	}
	return 0, fmt.Errorf("bench: no %s in %s", kind, path)
}

func rusage(who int) (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// userHZ is the unit of /proc/stat, fixed at 100 by the kernel's ABI.
const userHZ = 100

// machineCPU is the busy time of every core since boot (idle and iowait
// excluded; guest time is already inside user).
func machineCPU() (time.Duration, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	first, _, _ := bytes.Cut(b, []byte{'\n'})
	f := strings.Fields(string(first))
	if len(f) < 9 || f[0] != "cpu" {
		return 0, errors.New("bench: unexpected /proc/stat")
	}
	var busy int64
	for i, v := range f[1:9] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, err
		}
		busy += n
	}
	return time.Duration(busy) * time.Second / userHZ, nil
}

// usage is a snapshot of the counters a tournament is measured with.
type usage struct {
	at      time.Time
	judge   time.Duration
	bots    time.Duration
	machine time.Duration
	err     error
}

func snapshot(bots CPUCounter) usage {
	u := usage{at: time.Now()}
	var e1, e2, e3 error
	u.judge, e1 = rusage(syscall.RUSAGE_SELF)
	u.bots, e2 = bots.Read()
	u.machine, e3 = machineCPU()
	u.err = errors.Join(e1, e2, e3)
	return u
}

// spent is what happened between two snapshots.
type spent struct {
	wall, judge, bots, machine time.Duration
}

func (u usage) until(v usage) (spent, error) {
	if err := errors.Join(u.err, v.err); err != nil {
		return spent{}, err
	}
	return spent{wall: v.at.Sub(u.at), judge: v.judge - u.judge, bots: v.bots - u.bots, machine: v.machine - u.machine}, nil
}

// judgeShare is the judge's part of the CPU the tournament used: the judge
// and its bots.
func (s spent) judgeShare() float64 {
	return float64(s.judge) / float64(s.judge+s.bots)
}

// resetPeak makes the process's peak resident memory start again from what
// it holds now, after giving back what earlier measures left, so that a peak
// read later is that of what ran in between. It reports whether the kernel
// allowed it; without it the peak is that of the whole process so far.
func resetPeak() bool {
	runtime.GC()
	debug.FreeOSMemory()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakMemory is the process's peak resident memory (VmHWM) in bytes.
func peakMemory() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("bench: no VmHWM in /proc/self/status")
}
