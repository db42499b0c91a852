package contest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"time"

	"botjudge/games"
	"botjudge/results"
	"botjudge/sandbox"
)

// Pipeline is the one way a game is played, whoever asks for it: a
// tournament (Run), a hand-in's sparring games, the arena, `judge play` and
// the bench. Its fields are every setting a game depends on, so that two
// callers given the same ones play the same game move for move: a bot is
// staged and built once (Seat), its container started (Start), the game
// played under the policy (PlayStarted) and turned into its record, which
// the caller stores (Save) where it belongs.
type Pipeline struct {
	Run   Runner
	Rules games.Rules
	// StageRoot is where bots are copied before they run; Seat stages there.
	StageRoot string
	Build     sandbox.BuildLimits // zero is DefaultConfig's
	Limits    sandbox.Limits
	Policy    Policy
	Image     string // runtime image digest, recorded with every game
}

// Fixture is one game for the pipeline: where it is recorded, under which
// key and seed, and who plays it in seat order.
type Fixture struct {
	Tournament int64
	Key        string
	Round      int
	Seed       int64
	Seats      []Seat
	// BotIDs are the seats' bots' rows, in seat order.
	BotIDs []int64
	// Labels are the containers'; the game's key is added.
	Labels map[string]string
	// MaxSteps stops the game unfinished (Match.MaxSteps); 0 plays it all.
	MaxSteps int
}

// Staged copies an entry under StageRoot: the bot as it will run, not yet
// built (a check builds what it checks).
func (p Pipeline) Staged(e Entry) (Seat, error) {
	staged, err := Stage(p.StageRoot, e)
	if err != nil {
		return Seat{}, err
	}
	return Seat{Name: e.Name, Bot: sandbox.Bot{Name: e.Name, Path: staged, Protocol: p.Rules.Protocol()}}, nil
}

// Seat stages an entry and builds it when it is a compiled one.
func (p Pipeline) Seat(ctx context.Context, e Entry) (Seat, error) {
	s, err := p.Staged(e)
	if err != nil {
		return Seat{}, err
	}
	return p.Built(ctx, s)
}

// Built builds a staged seat when it is a compiled bot (BuildSeat).
func (p Pipeline) Built(ctx context.Context, s Seat) (Seat, error) {
	lim := p.Build
	if lim == (sandbox.BuildLimits{}) {
		lim = DefaultConfig().Build
	}
	return BuildSeat(ctx, p.Run, s, lim)
}

// Start starts the fixture's bots, all at once. Starting is apart from
// playing so that a tournament starts its next games' containers while the
// current ones play; the caller closes the sessions.
func (p Pipeline) Start(ctx context.Context, f Fixture) ([]sandbox.Session, error) {
	labels := maps.Clone(f.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	if f.Key != "" {
		labels[sandbox.LabelGameKey] = f.Key
	}
	return StartSeats(ctx, p.Run, f.Seats, p.Limits, labels)
}

// PlayStarted plays the fixture on its started sessions and returns its
// record, which is not stored yet. A bot's misbehaviour is part of the
// result; an error means the judge itself failed (Docker unreachable...)
// and the game must not be scored.
func (p Pipeline) PlayStarted(ctx context.Context, f Fixture, sessions []sandbox.Session, observe Observer) (results.Game, Played, error) {
	played, err := PlaySessions(ctx, sessions, p.match(f), observe)
	if err != nil {
		return results.Game{}, played, err
	}
	return p.record(f, played), played, nil
}

// Play starts the fixture's bots, plays it, stops them and returns its
// record (PlayStarted).
func (p Pipeline) Play(ctx context.Context, f Fixture, observe Observer) (results.Game, Played, error) {
	sessions, err := p.Start(ctx, f)
	if err != nil {
		return results.Game{}, Played{}, err
	}
	defer closeAll(ctx, sessions)
	return p.PlayStarted(ctx, f, sessions, observe)
}

func (p Pipeline) match(f Fixture) Match {
	return Match{Rules: p.Rules, Seed: f.Seed, Seats: f.Seats, Policy: p.Policy, MaxSteps: f.MaxSteps}
}

// Saver stores a game's record: *results.DB.
type Saver interface {
	SaveGame(ctx context.Context, g results.Game) (int64, error)
}

// Save stores a finished game even when ctx is being cancelled, so that the
// work is not lost. A game stored before (by a judge stopped between
// storing it and going on) is no error.
func Save(ctx context.Context, s Saver, rec results.Game) error {
	if _, err := s.SaveGame(context.WithoutCancel(ctx), rec); err != nil && !errors.Is(err, results.ErrDuplicate) {
		return err
	}
	return nil
}

// players are the fixture's seats as its record names them.
func (f Fixture) players() []results.Player {
	players := make([]results.Player, len(f.Seats))
	for i, s := range f.Seats {
		players[i] = results.Player{Seat: i, Name: s.Name}
		if i < len(f.BotIDs) {
			players[i].BotID = f.BotIDs[i]
		}
	}
	return players
}

// record turns a played fixture into its database row.
func (p Pipeline) record(f Fixture, played Played) results.Game {
	out, _ := json.Marshal(played.Outcome)
	lim, _ := json.Marshal(limitsOf(p.Limits))
	g := results.Game{
		TournamentID: f.Tournament, Key: f.Key, Round: f.Round, Seed: f.Seed,
		Reason: played.Outcome.Reason, Outcome: out,
		Started: played.Started, Finished: played.Finished,
		Image: p.Image, Limits: lim,
	}
	for i, pl := range f.players() {
		if i < len(played.Outcome.Rank) { // a game stopped unfinished has none
			pl.Rank = played.Outcome.Rank[i]
		}
		if i < len(played.Outcome.Score) {
			pl.Score = played.Outcome.Score[i]
		}
		pl.Log = played.Logs[i]
		pl.Restarts = played.Restarts[i]
		g.Players = append(g.Players, pl)
	}
	g.Moves = played.Steps
	g.Tally() // for the progress line; SaveGame stores the same count
	return g
}

// liveWriter keeps a game-in-progress row up to date for a screen running in
// another process, at most a few times a second so that fast bots are not
// slowed by the database. Each write costs the same whatever the length of
// the game: the row holds the position and the last step only.
type liveWriter struct {
	store Store
	base  results.Live
	last  time.Time
}

func (l *liveWriter) observe(ctx context.Context) Observer {
	return func(s games.State, steps []results.Move) {
		l.base.Moves += len(steps)
		if time.Since(l.last) < 250*time.Millisecond {
			return
		}
		l.last = time.Now()
		l.base.Last = append(l.base.Last[:0], steps...)
		l.base.View = s.View()
		l.base.Scores = s.Scores()
		l.base.Updated = l.last
		if err := l.store.PutLive(ctx, l.base); err != nil && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "judge: live view not updated: %v\n", err)
		}
	}
}
