package contest

import (
	"fmt"
	"time"
)

// Lesson is how long a tournament may take in class: a round robin that
// would take longer gets a suggestion of swiss rounds.
const Lesson = 50 * time.Minute

// suggestSwiss is the one line that proposes swiss rounds when the games
// left of a round robin of n bots would take longer than a lesson at pace
// (the time between two games' ends with every worker busy), and "" when
// they fit, or swiss would not be shorter. how says where the pace comes
// from.
func suggestSwiss(n, left, legs int, pace time.Duration, how string) string {
	rr := time.Duration(left) * pace
	rounds := SwissRounds(n)
	sw := swissGames(n, rounds, legs)
	if rr <= Lesson || pace <= 0 || sw >= left {
		return ""
	}
	return fmt.Sprintf("%d bots: the round robin's %d games left take about %s (%s a game, %s); --format swiss plays %d rounds, %d games, in about %s",
		n, left, Roughly(rr), pace.Round(100*time.Millisecond), how, rounds, sw, Roughly(time.Duration(sw)*pace))
}

// Roughly says a duration the way a person would: 40s, 12 min, 3 h 05.
func Roughly(d time.Duration) string {
	switch {
	case d < 90*time.Second:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < 90*time.Minute:
		return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
	}
	m := int(d.Round(time.Minute).Minutes())
	return fmt.Sprintf("%d h %02d", m/60, m%60)
}
