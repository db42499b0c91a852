"""What a move is charged (SPEC §5), and what the machine's load is not."""

import os
import resource
import time

from . import container

# The shortest wait between two looks at the charge near the limit.
METER_STEP = 0.005
# The share of the move limit the wait must grow by before the judge is told
# (a {"wait": s} line): the judge's own backstop moves by as much.
REPORT_STEP = 0.1
# The share of a move's wall time the machine must have spent with tasks
# waiting for a CPU (/proc/pressure/cpu's "some") for a wall timeout the
# harness could not measure the wait of to be the load's, not the bot's.
OVERSUBSCRIBED = 0.25


class Meter:
    """What a move is charged (SPEC §5): the CPU of every process and thread
    of the bot's container since the harness's previous answer, so that CPU
    used between two moves (a thread or a child left running) counts in the
    next one. A move ends when its charge passes the limit, or its wall time
    twice the limit (a bot that sleeps or waits), wall time minus the time
    the bot waited for a CPU: the machine's load is never the bot's (see
    Waits). Outside a container (the local runner) the charge is the
    harness's own CPU, its threads' (an ia bot's), its reaped children's,
    and that of the live process it waits for (`watch`): the processes' own
    accounting."""

    def __init__(self, limit, report=None):
        self.limit = limit
        self.report = report  # tells the judge how long the bot waited so far
        self.cgroup = container.cgroup_cpu() if container.contained else None
        self.watch = None  # the pid of a live process to count, outside a container
        self.mark = self.usage()
        self.waits = Waits()
        self.reported = 0.0
        self.began = time.monotonic()
        self.ended = None  # "cpu" or "wall" once a limit has passed

    def usage(self):
        if self.cgroup is not None:
            return self.cgroup()
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        used = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
        return used + (container.process_cpu(self.watch) if self.watch else 0.0)

    def begin(self, since=None):
        """A request arrived (or, since the harness's start, the bot
        starts): its wall clock starts; its charge started at the previous
        answer."""
        self.began = time.monotonic() if since is None else since
        self.ended = None
        self.reported = 0.0
        self.waits.begin(self.pids(), own=since is not None)

    def adopt(self, pid):
        """pid, started before the move, now answers it."""
        self.waits.adopt(pid)

    def pids(self):
        """The processes whose tasks may be the bot's: in a container all of
        them; outside, the harness and the process it waits for."""
        if container.contained:
            return container.all_pids()
        return [os.getpid()] + ([self.watch] if self.watch else [])

    def charge(self):
        return max(0.0, self.usage() - self.mark)

    def settle(self):
        """The charge of the answer about to be sent; the next one starts."""
        now = self.usage()
        charge = max(0.0, now - self.mark)
        self.mark = now
        return charge

    def waited(self):
        """The seconds of this move spent waiting for a CPU, as last seen."""
        return self.waits.most

    def busy(self):
        """The move's wall time so far, less its wait for a CPU."""
        return max(0.0, time.monotonic() - self.began - self.waits.look(self.pids()))

    def check(self):
        """0 when the move is over a limit (then `ended` says which), else
        how long to wait before looking again: the charge grows at most as
        fast as the CPUs the bot has, two on the judge's machines."""
        cpu_left = self.limit - self.charge()
        waited = self.waits.look(self.pids())
        wall_left = 2 * self.limit - (time.monotonic() - self.began - waited)
        if cpu_left <= 0:
            self.ended = "cpu"
        elif wall_left <= 0:
            self.ended = "wall"
        else:
            if self.report is not None and waited - self.reported >= REPORT_STEP * self.limit:
                self.reported = waited
                self.report(waited)
            return min(max(cpu_left / 2, METER_STEP), wall_left)
        return 0

    def unsure(self):
        """Whether a wall timeout may be the machine's load: the wait could
        not be measured while the machine was oversubscribed."""
        return self.ended == "wall" and self.waits.unsure and self.waits.stalled() > OVERSUBSCRIBED * (time.monotonic() - self.began)

    def detail(self, cpu=None, wall="no answer"):
        """Why the move (or the start: cpu and wall say it) timed out, in
        the author's words."""
        if self.ended == "wall":
            return ("%s within %gs of wall time (twice the limit), not counting %.2fs spent waiting for a CPU,"
                    " having used %.2fs of CPU: a bot that waits or sleeps is stopped there" % (
                        wall, 2 * self.limit, self.waited(), self.charge()))
        return cpu or "used more than %gs of CPU time (the move's limit); the bot's processes and threads all count, between its moves too" % self.limit


class Waits:
    """How long the bot waited for a CPU during a move (runnable, not
    running): the kernel's run delay of each of its tasks
    (/proc/PID/task/TID/schedstat, second field), the most any one task
    waited, since a bot that waits on several threads at once waited that
    long for its answer; a task that ended keeps the wait last read. Beside
    them, the container's cgroup v2 cpu.pressure where there is one; and
    `unsure` is set when neither can be read (a kernel without schedstats).
    A task that ended between two reads took a little of its wait with it:
    never enough to matter, since the reads are at most half the move's
    limit apart, and the wait the bot is credited is only ever less."""

    def __init__(self):
        self.cgroup = container.cgroup_pressure() if container.contained else None
        self.base = {}
        self.last = {}
        self.most = 0.0
        self.unsure = False
        self.stall = None
        self.group = None

    def begin(self, pids, own=False):
        """own: the harness's own wait since it started is the move's."""
        self.base = container.run_delays(pids)
        if own:
            self.base = {t: v for t, v in self.base.items() if t[0] != os.getpid()}
        self.last = dict(self.base)
        self.most = 0.0
        self.unsure = not self.base and self.cgroup is None
        self.stall = container.machine_stall()
        self.group = self.cgroup() if self.cgroup else None

    def adopt(self, pid):
        now = container.run_delays([pid])
        self.base.update(now)
        self.last.update(now)

    def look(self, pids):
        now = container.run_delays(pids)
        self.last.update(now)
        # A task first seen now began during the move: all its wait is in it.
        most = max([v - self.base.get(t, 0.0) for t, v in self.last.items()], default=0.0)
        if self.group is not None:
            most = max(most, self.cgroup() - self.group)
        self.most = max(self.most, most)
        return self.most

    def stalled(self):
        """The seconds the machine had tasks waiting for a CPU since the
        move began (0 where the kernel does not say)."""
        now = container.machine_stall()
        if now is None or self.stall is None:
            return 0.0
        return now - self.stall
