package contest

import (
	"path/filepath"

	"botjudge/games"
	"botjudge/results"
	"botjudge/sandbox"
)

// DefaultSubmissions is the folder of game folders the commands read when
// none is given.
const DefaultSubmissions = "submissions"

// StageRootOf is where the bots of a database's tournaments are staged:
// beside it, in _bots, shared by every judge process on the same folder
// (the leases say what each still uses).
func StageRootOf(db string) string { return filepath.Join(filepath.Dir(db), "_bots") }

// DefaultConfig is a tournament's settings where nobody says otherwise, kept
// in this one place: the flags of the judge's commands default to it,
// docs/commands.md says it, and Run fills a Config's zero Format,
// Build and Retries from it. Rules, Dir and StageRoot have no default.
// Rounds 0 stands for DefaultRounds and Workers 0 for DefaultWorkers: both
// are known only once the game, its bots and the machines are.
func DefaultConfig() Config {
	return Config{
		Format:  Duels,
		Seed:    1,
		Scheme:  results.SchemeDefault,
		Limits:  sandbox.DefaultLimits(),
		Build:   sandbox.DefaultBuildLimits(),
		Policy:  Policy{GiveUp: 3},
		Retries: 2,
	}
}

// DefaultRounds is how many rounds a tournament of bots bots of a game plays
// in format f when not told: in swiss enough rounds to rank them
// (SwissRounds), otherwise the game's own (games.DefaultRounds).
func DefaultRounds(r games.Rules, f Format, bots int) int {
	if f == Swiss {
		return SwissRounds(bots)
	}
	return games.DefaultRounds(r)
}

// ForGame is c for the tournament of one game folder: a free-for-all of a
// game of two seats at most is a duel.
func (c Config) ForGame(r games.Rules, dir string) Config {
	c.Rules, c.Dir = r, dir
	if _, hi := r.Seats(); hi <= 2 && c.Format == FreeForAll {
		c.Format = Duels
	}
	return c
}

// withDefaults fills the zero fields whose zero no one would mean: a Config
// written by hand (a test, the benchmark) may leave them out.
func (c Config) withDefaults() Config {
	def := DefaultConfig()
	if c.Format == "" {
		c.Format = def.Format
	}
	if c.Build == (sandbox.BuildLimits{}) {
		c.Build = def.Build
	}
	if c.Retries <= 0 {
		c.Retries = def.Retries
	}
	return c
}
