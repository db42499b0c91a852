package contest

import (
	"runtime"
	"testing"
)

func TestDefaultWorkers(t *testing.T) {
	if availableMemory() <= 0 {
		t.Error("no MemAvailable in /proc/meminfo")
	}
	if n := DefaultWorkers(2, 256<<20); n < 1 || n > runtime.GOMAXPROCS(0) {
		t.Errorf("%d workers on %d cores", n, runtime.GOMAXPROCS(0))
	}
	const gib = 1 << 30
	for _, c := range []struct {
		cores int
		avail int64
		seats int
		bot   int64
		want  int
	}{
		{8, 64 * gib, 2, 256 << 20, 8}, // the memory holds one game per core
		{8, 6 * gib, 2, 256 << 20, 4},  // 3 games of 2 bots per worker: 1.5 GiB each
		{8, 1 * gib, 2, 256 << 20, 1},  // never less than one
		{8, 0, 2, 256 << 20, 8},        // unknown memory: the cores
		{2, 64 * gib, 4, 1 * gib, 2},   // four seats
		{16, 24 * gib, 4, 1 * gib, 2},  // 12 GiB per worker
	} {
		if got := workersFor(c.cores, c.avail, c.seats, c.bot); got != c.want {
			t.Errorf("workersFor(%d cores, %d B, %d seats, %d B) = %d, want %d", c.cores, c.avail, c.seats, c.bot, got, c.want)
		}
	}
}
