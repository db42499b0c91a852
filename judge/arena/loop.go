package arena

import (
	"context"
	"log"
	"slices"
	"sync"
	"time"

	"botjudge/results"
)

// Source is where the loop reads each game's ladder: *results.DB.
type Source interface {
	Arena(ctx context.Context, game string) (results.Arena, error)
}

// Player plays one arena game and stores it in the game's arena
// tournament under g's key. A bot's fault is a stored result; an error is
// the judge's own failure.
type Player interface {
	Play(ctx context.Context, game string, g Game) error
}

// Loop plays the arena's games of several games, at most Parallel at
// once, until its context ends (the deadline, or the server stopping). It
// reads the ladder afresh before each game, so a version that joins or
// leaves is seen at the next game, and a restarted loop goes on from the
// stored games: keys count the games a pair played, so no stored game is
// played again.
type Loop struct {
	Source     Source
	Player     Player
	Games      []string
	Matchmaker Matchmaker
	// Parallel caps the arena's games at once; 0 is 1.
	Parallel int
	// Idle is how long the loop waits when no game has two bots to play,
	// while held, or after a failure; 0 is 2 s: a version that became ready
	// waits no longer than that for its first game.
	Idle time.Duration
	// Log receives the judge's own failures; nil is the standard logger.
	Log *log.Logger
	// Hold, when set, keeps new games from starting while it says true
	// (SPEC §7: the arena plays after the checks, so that a student waiting
	// for their check is not kept waiting by the ladder); the games under
	// way play on. The loop asks again every Idle.
	Hold func() bool

	once    sync.Once
	mu      sync.Mutex
	pending map[string][]Game // by game: the games being played
}

func (l *Loop) init() {
	l.once.Do(func() {
		l.pending = map[string][]Game{}
	})
}

// Run plays until ctx ends, then waits for the games under way (which end
// with ctx) and returns.
func (l *Loop) Run(ctx context.Context) {
	l.init()
	slots := make(chan struct{}, max(l.Parallel, 1))
	var wg sync.WaitGroup
	defer wg.Wait()
	turn := 0
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		if ctx.Err() != nil { // a slot freed as the context ended
			return
		}
		var game string
		var g Game
		ok := l.Hold == nil || !l.Hold()
		if ok {
			game, g, ok = l.next(ctx, &turn)
		}
		if !ok {
			<-slots
			if !l.sleep(ctx) {
				return
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			l.play(ctx, game, g)
		}()
	}
}

// next chooses the next game, taking the games in turn from turn; ok is
// false when none has one to play.
func (l *Loop) next(ctx context.Context, turn *int) (game string, g Game, ok bool) {
	for k := range l.Games {
		game = l.Games[(*turn+k)%len(l.Games)]
		// The games under way are read before the stored ones: a game that
		// ends in between is then counted twice (its pair's next key skips
		// a number), never missed (its key would be played again).
		l.mu.Lock()
		pending := slices.Clone(l.pending[game])
		l.mu.Unlock()
		a, err := l.Source.Arena(ctx, game)
		if err != nil {
			if ctx.Err() == nil {
				l.logf("arena: %s: %v", game, err)
			}
			continue
		}
		versions := make([]Version, len(a.Bots))
		for i, b := range a.Bots {
			versions[i] = Version{BotID: b.BotID, Example: b.Example}
		}
		if next := l.Matchmaker.Next(versions, a.Games, a.Keys, pending, 1); len(next) == 1 {
			*turn = (*turn + k + 1) % len(l.Games)
			l.mu.Lock()
			l.pending[game] = append(l.pending[game], next[0])
			l.mu.Unlock()
			return game, next[0], true
		}
	}
	return "", Game{}, false
}

// play plays g and takes it off the games under way once stored.
func (l *Loop) play(ctx context.Context, game string, g Game) {
	err := l.Player.Play(ctx, game, g)
	l.mu.Lock()
	l.pending[game] = slices.DeleteFunc(l.pending[game], func(p Game) bool { return p.Key == g.Key })
	l.mu.Unlock()
	if err != nil && ctx.Err() == nil {
		l.logf("arena: %s game %s: %v", game, g.Key, err)
		l.sleep(ctx)
	}
}

// sleep waits Idle or the end of ctx; false at the end of ctx.
func (l *Loop) sleep(ctx context.Context) bool {
	idle := l.Idle
	if idle <= 0 {
		idle = 2 * time.Second
	}
	t := time.NewTimer(idle)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return false
	}
	return true
}

func (l *Loop) logf(format string, a ...any) {
	if l.Log != nil {
		l.Log.Printf(format, a...)
		return
	}
	log.Printf(format, a...)
}
