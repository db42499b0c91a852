package contest

import (
	"fmt"
	"time"

	"botjudge/judge/eta"
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
		n, left, eta.Roughly(rr), pace.Round(100*time.Millisecond), how, rounds, sw, eta.Roughly(time.Duration(sw)*pace))
}
