"""What a move is charged (SPEC §5)."""

import resource
import time

from . import container

# The shortest wait between two looks at the charge near the limit.
METER_STEP = 0.005


class Meter:
    """What a move is charged (SPEC §5): the CPU of every process and thread
    of the bot's container since the harness's previous answer, so that CPU
    used between two moves (a thread or a child left running) counts in the
    next one. A move ends when its charge passes the limit, or its wall time
    twice the limit (a bot that sleeps or waits). Outside a container (the
    local runner) the charge is the harness's own CPU, its threads' (an ia
    bot's), its reaped children's, and that of the live process it waits
    for (`watch`): the processes' own accounting."""

    def __init__(self, limit):
        self.limit = limit
        self.cgroup = container.cgroup_cpu() if container.contained else None
        self.watch = None  # the pid of a live process to count, outside a container
        self.mark = self.usage()
        self.began = time.monotonic()
        self.ended = None  # "cpu" or "wall" once a limit has passed

    def usage(self):
        if self.cgroup is not None:
            return self.cgroup()
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        used = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
        return used + (container.process_cpu(self.watch) if self.watch else 0.0)

    def begin(self):
        """A request arrived: its wall clock starts; its charge started at
        the previous answer."""
        self.began = time.monotonic()
        self.ended = None

    def charge(self):
        return max(0.0, self.usage() - self.mark)

    def settle(self):
        """The charge of the answer about to be sent; the next one starts."""
        now = self.usage()
        charge = max(0.0, now - self.mark)
        self.mark = now
        return charge

    def check(self):
        """0 when the move is over a limit (then `ended` says which), else
        how long to wait before looking again: the charge grows at most as
        fast as the CPUs the bot has, two on the judge's machines."""
        cpu_left = self.limit - self.charge()
        wall_left = 2 * self.limit - (time.monotonic() - self.began)
        if cpu_left <= 0:
            self.ended = "cpu"
        elif wall_left <= 0:
            self.ended = "wall"
        else:
            return min(max(cpu_left / 2, METER_STEP), wall_left)
        return 0

    def detail(self):
        """Why the move timed out, in the author's words."""
        if self.ended == "wall":
            return ("no answer within %gs of wall time (twice the limit), having used %.2fs of CPU:"
                    " a bot that waits or sleeps is stopped there" % (2 * self.limit, self.charge()))
        return "used more than %gs of CPU time (the move's limit); the bot's processes and threads all count, between its moves too" % self.limit

