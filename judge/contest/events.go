package contest

import (
	"time"

	"botjudge/judge/eta"
	"botjudge/results"
)

// Event reports progress to whoever shows it (terminal, tests).
type Event struct {
	// "waiting" says, when no game ended for a while, how the games in
	// progress stand and the time left.
	Kind    string // "notice", "build", "check", "suggest", "game", "waiting", "failure", "start", "done"
	Text    string
	Done    int // games recorded so far in this tournament
	Total   int
	Game    *results.Game
	Check   *results.Check
	Name    string
	Elapsed time.Duration
	// Left estimates the time to the end of the run ("game"), from the
	// games this run finished and the moves of those in progress. Worst is
	// how long the games to play could last at most ("start"); 0 when the
	// rules do not bound them.
	Left  eta.Estimate
	Worst time.Duration
}

// Summary is what a run did.
type Summary struct {
	Tournament results.Tournament
	Played     int // games played by this run
	Skipped    int // already recorded
	Failed     int // not played because the judge failed; run again
	Notices    []Notice
}
