"""What the harness reads of the processes it runs: the CPU they used (the
container's cgroup, or /proc outside a container), the container's OOM
kills.

`contained` is set by main(): this harness owns every process of its
container but PID 1 (it is PID 1, or the warden's child)."""

import os

contained = False

# Where a container's CPU usage is read from inside it, by any user: cgroup
# v1's cpuacct.usage (nanoseconds), cgroup v2's cpu.stat (usage_usec).
CGROUP_CPU = (("/sys/fs/cgroup/cpuacct/cpuacct.usage", 1e-9, None),
              ("/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage", 1e-9, None),
              ("/sys/fs/cgroup/cpu.stat", 1e-6, b"usage_usec"))


def cgroup_cpu():
    """A function returning the container's CPU seconds so far, or None when
    no cgroup file can be read."""
    for path, unit, key in CGROUP_CPU:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue

        def read(fd=fd, unit=unit, key=key):
            data = os.pread(fd, 4096, 0)
            if key is not None:
                data = data[data.index(key) + len(key):].split(b"\n", 1)[0]
            return int(data) * unit
        try:
            read()
        except (OSError, ValueError):
            os.close(fd)
            continue
        return read
    return None


def process_cpu(pid):
    """The CPU seconds of a live process and of its reaped children, from
    /proc (0 once it is gone)."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def oom_kills():
    """The container's count of OOM kills, or None when it cannot be read."""
    if not contained:
        return None
    for name in ("/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/memory.events"):
        try:
            with open(name) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        except (OSError, ValueError):
            pass
    return None


def all_pids():
    """Every process the harness can see: in a container, the bot's and its
    own."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def run_delays(pids):
    """The seconds each task of pids waited for a CPU so far, by (pid, tid):
    the second field of its schedstat. Tasks that cannot be read are left
    out."""
    delays = {}
    for pid in pids:
        try:
            tids = os.listdir("/proc/%d/task" % pid)
        except OSError:
            continue
        for tid in tids:
            try:
                with open("/proc/%d/task/%s/schedstat" % (pid, tid), "rb") as f:
                    delays[(pid, tid)] = int(f.read().split()[1]) * 1e-9
            except (OSError, IndexError, ValueError):
                pass
    return delays


def pressure_total(path):
    """The "some" total of a pressure file, in seconds, or None."""
    try:
        with open(path, "rb") as f:
            for line in f:
                if line.startswith(b"some "):
                    return int(line.rsplit(b"total=", 1)[1]) * 1e-6
    except (OSError, IndexError, ValueError):
        pass
    return None


def machine_stall():
    """The seconds the machine had a task waiting for a CPU so far
    (/proc/pressure/cpu), or None where the kernel does not say."""
    return pressure_total("/proc/pressure/cpu")


def cgroup_pressure():
    """A function returning the seconds the container had a task waiting
    for a CPU (cgroup v2's cpu.pressure), or None where there is none."""
    path = "/sys/fs/cgroup/cpu.pressure"
    if pressure_total(path) is None:
        return None
    return lambda: pressure_total(path) or 0.0
