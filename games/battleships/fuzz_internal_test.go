package battleships

import (
	"testing"

	"botjudge/games/fault"
)

// FuzzParseFleet checks any init answer: it never panics, and a fleet it
// accepts is one ship of each size, on the grid, without overlap.
func FuzzParseFleet(f *testing.F) {
	for _, s := range []string{
		`{"2":{"point":"00","orientation":"vertical"},"3":{"point":"22","orientation":"vertical"},"4":{"point":"42","orientation":"vertical"},"5":{"point":"37","orientation":"horizontal"}}`,
		`{"2":{"point":"77","orientation":"vertical"}}`, `{}`, `null`, `[]`, `{"2":"00"}`, `{"2":{"point":80}}`, "\x80",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fleet, v, why := parseFleet(data)
		if v != fault.None {
			if fleet != nil || why == "" {
				t.Fatalf("%q refused (%s %q) with %v", data, v, why, fleet)
			}
			return
		}
		var cells [side][side]bool
		for i, s := range fleet {
			if s.size != sizes[i] {
				t.Fatalf("%q accepted with ships %v", data, fleet)
			}
			for _, p := range s.cells() {
				if !onGrid(p[0], p[1]) || cells[p[0]][p[1]] {
					t.Fatalf("%q accepted with ship %v off the grid or overlapping", data, s)
				}
				cells[p[0]][p[1]] = true
			}
		}
	})
}

// FuzzParseShot checks any move answer of a game where seat 0 shot 00: it
// never panics, and a shot it accepts is on the grid and new.
func FuzzParseShot(f *testing.F) {
	for _, s := range []string{`{"move":"34"}`, `{"move":"00"}`, `{"move":"88"}`, `{"move":34}`, `{"move":"3 4"}`, `{}`, `"34"`, "\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &game{shots: []shot{{seat: 0, c: 0, r: 0, result: miss}}}
		c, r, v, why := g.parseShot(0, data)
		if v != fault.None {
			if why == "" {
				t.Fatalf("%q refused without a reason", data)
			}
			return
		}
		if !onGrid(c, r) || c == 0 && r == 0 {
			t.Fatalf("%q accepted as %d%d", data, c, r)
		}
	})
}
