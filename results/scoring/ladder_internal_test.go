package scoring

import "testing"

// botsArena's K by rating, at each of its bounds.
func TestBotsArenaK(t *testing.T) {
	for r, want := range map[float64]float64{999: 80, 1000: 50, 1999: 50, 2000: 30, 2400: 30, 2401: 20} {
		if got := botsArenaK(r); got != want {
			t.Errorf("K at %.0f: %.0f, want %.0f", r, got, want)
		}
	}
}
