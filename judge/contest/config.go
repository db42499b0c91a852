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

// Config is one tournament: a game folder and its settings.
type Config struct {
	Rules     games.Rules
	Dir       string // submissions/<game>
	StageRoot string // where bots are copied before they run
	Rounds    int
	Format    Format // "" is DefaultConfig's
	Seed      int64
	Scheme    results.Scheme
	Limits    sandbox.Limits
	// Build bounds each compiled bot's build; zero means DefaultConfig's.
	Build   sandbox.BuildLimits
	Policy  Policy // the time a broken bot may cost
	Workers int    // games at once; 0 means DefaultWorkers
	// Share, when set, is the workers this tournament shares with others
	// run at the same time; Workers then bounds its own part of them. Its
	// owner drains the runner at the end, as the other tournaments may
	// still use the containers kept waiting.
	Share   *Share
	Image   string // runtime image digest, recorded with every game
	Labels  map[string]string
	Retries int // attempts of a game that failed for the judge's own reasons; 0 means DefaultConfig's
	// URLBots lets bots reached by URL (name.url) play: they are not
	// sandboxed, so only the organiser can allow them.
	URLBots bool
}

// settings is what makes two runs the same tournament: change any of these
// and the games are played again. The rounds and the point scheme are not
// here: more rounds only add games, and another scheme only recomputes the
// standings.
type settings struct {
	Limits   limitsJSON `json:"limits"`
	GiveUp   int        `json:"give_up"`
	BudgetMS int64      `json:"budget_ms,omitempty"`
	Format   Format     `json:"format"`
	Version  string     `json:"version,omitempty"` // of the rules
}

type limitsJSON struct {
	MoveMS    int64   `json:"move_ms"`
	StartupMS int64   `json:"startup_ms"`
	Memory    int64   `json:"memory"`
	CPUs      float64 `json:"cpus"`
	Pids      int64   `json:"pids"`
	Answer    int     `json:"answer"`
	Log       int     `json:"log"`
	Tmp       int64   `json:"tmp"`
}

func limitsOf(l sandbox.Limits) limitsJSON {
	return limitsJSON{l.Move.Milliseconds(), l.Startup.Milliseconds(), l.Memory, l.CPUs, l.Pids, l.Answer, l.Log, l.Tmp}
}

// Pipeline is how the tournament's games are played, by run.
func (c Config) Pipeline(run Runner) Pipeline {
	return Pipeline{Run: run, Rules: c.Rules, StageRoot: c.StageRoot, Build: c.Build, Limits: c.Limits, Policy: c.Policy, Image: c.Image}
}
