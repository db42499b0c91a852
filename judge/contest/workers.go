package contest

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// gamesPerWorker is how many games the pool of playAll keeps alive per
// worker at most: one playing, one ready in the queue, one being started.
const gamesPerWorker = 3

// DefaultWorkers is how many games a tournament plays at once unless told:
// one per core the judge may use, because a move's limit is wall-clock time
// and two thinking bots sharing a core would each lose time through no fault
// of their own. Bots that mostly wait could share cores, but the judge
// cannot know that in advance: --workers says it. Fewer when the machine's
// available memory could not hold every bot the pool keeps alive, each at its
// memory limit (memory is per bot, in bytes).
func DefaultWorkers(seats int, memory int64) int {
	return workersFor(runtime.GOMAXPROCS(0), availableMemory(), seats, memory)
}

// workersFor is DefaultWorkers for a machine of cores and avail bytes of
// memory (0: unknown).
func workersFor(cores int, avail int64, seats int, memory int64) int {
	n := cores
	if avail > 0 && memory > 0 && seats > 0 {
		n = min(n, int(avail/(int64(gamesPerWorker*seats)*memory)))
	}
	return max(n, 1)
}

// availableMemory is the kernel's estimate of the memory that can be used
// without swapping, in bytes; 0 when unknown.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
