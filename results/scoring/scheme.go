// Package scoring turns the results of finished games into standings: the
// points of a scheme, pairwise records, the tie-breaks (head-to-head, wins,
// Sonneborn–Berger, Buchholz in a swiss tournament) and a Bradley–Terry
// rating. It is pure arithmetic over what results loads from the database,
// so that the rules of SPEC §4 can be read and tested without one.
package scoring

import "fmt"

// Scheme is how many points a win and a draw are worth; a loss is 0.
type Scheme string

const (
	SchemeDefault Scheme = "1-0.5-0" // SPEC §4's default
	Scheme310     Scheme = "3-1-0"
)

// Win is the points of a win in s (a bye's game counts as one).
func (s Scheme) Win() float64 {
	win, _ := s.values()
	return win
}

// ParseScheme accepts the two schemes of SPEC §4; "" is the default.
func ParseScheme(s string) (Scheme, error) {
	switch Scheme(s) {
	case "", SchemeDefault:
		return SchemeDefault, nil
	case Scheme310:
		return Scheme310, nil
	}
	return "", fmt.Errorf("unknown point scheme %q (want %s or %s)", s, SchemeDefault, Scheme310)
}

// values are the points of a win and of a draw; an unknown scheme counts as
// the default (ParseScheme is where schemes are checked).
func (s Scheme) values() (win, draw float64) {
	if s == Scheme310 {
		return 3, 1
	}
	return 1, 0.5
}
