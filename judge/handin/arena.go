package handin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"botjudge/games"
	"botjudge/judge/arena"
	"botjudge/judge/contest"
	"botjudge/results"
)

// ArenaPlayer plays the arena's games (SPEC §7) through the checker's
// runner, limits and staging, and keeps each game's ladder in step with
// the bots of its folder: a student's bot joins once its check made it
// ready, the example bots (those of no student) at once. It is the arena
// loop's Source and Player.
type ArenaPlayer struct {
	Checker *SandboxChecker

	mu    sync.Mutex
	seats map[int64]contest.Seat // the bots on a ladder, staged, by bot ID
}

var _ arena.Player = (*ArenaPlayer)(nil)

// Arena implements arena.Source: game's ladder once the folder's ready bots
// are on it.
func (p *ArenaPlayer) Arena(ctx context.Context, game string) (results.Arena, error) {
	if err := p.join(ctx, game); err != nil {
		return results.Arena{}, err
	}
	return p.Checker.DB.Arena(ctx, game)
}

// join puts on game's ladder the bots of its folder that may play: the
// students' current versions whose check made them ready, and the example
// bots. Bots are staged (and built) once.
func (p *ArenaPlayer) join(ctx context.Context, game string) error {
	c := p.Checker
	rules, ok := games.Lookup(game)
	if !ok {
		return fmt.Errorf("unknown game %q", game)
	}
	students, err := c.DB.Students(ctx)
	if err != nil {
		return err
	}
	found, _, err := contest.Discover(filepath.Join(c.Submissions, game), rules.Protocol(), false)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, e := range found {
		handIn, path, ok, err := p.joinable(ctx, game, students, e)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		b, err := c.DB.AddBot(ctx, results.Bot{Game: game, Name: e.Name, SHA256: e.SHA256, Path: path})
		if err == nil && !p.staged(b.ID) {
			err = p.stage(ctx, rules, b.ID, e)
		}
		if err == nil {
			err = c.DB.JoinArena(ctx, game, b.ID, handIn)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// joinable says whether entry e of game's folder may play: an example bot
// always (handIn 0), a student's bot once the check of their current
// version made it ready. path is the bot's row's path, as the sparring
// games record it.
func (p *ArenaPlayer) joinable(ctx context.Context, game string, students []results.Student, e contest.Entry) (handIn int64, path string, ok bool, err error) {
	for _, s := range students {
		if !strings.EqualFold(s.Name, e.Name) {
			continue
		}
		h, err := p.Checker.DB.Current(ctx, s.ID, game)
		if errors.Is(err, results.ErrNotFound) {
			return 0, "", false, nil
		}
		if err != nil {
			return 0, "", false, err
		}
		rep, err := ReadReport(h)
		return h.ID, e.Name, err == nil && h.Status == results.StatusDone && rep.Ready, nil
	}
	return 0, e.Source, true, nil
}

func (p *ArenaPlayer) staged(bot int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.seats[bot]
	return ok
}

// stage copies a bot where it runs from, and builds it if it is compiled.
func (p *ArenaPlayer) stage(ctx context.Context, rules games.Rules, bot int64, e contest.Entry) error {
	s, err := p.Checker.pipeline(rules, p.Checker.StageRoot).Seat(ctx, e)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seats == nil {
		p.seats = map[int64]contest.Seat{}
	}
	p.seats[bot] = s
	return nil
}

// Play implements arena.Player: one game through the match pipeline,
// stored in the game's arena tournament.
func (p *ArenaPlayer) Play(ctx context.Context, game string, g arena.Game) error {
	c := p.Checker
	rules, ok := games.Lookup(game)
	if !ok {
		return fmt.Errorf("unknown game %q", game)
	}
	t, err := c.DB.ArenaTournament(ctx, game)
	if err != nil {
		return err
	}
	f := contest.Fixture{Tournament: t.ID, Key: g.Key, Round: 1, Seed: g.Seed, BotIDs: g.Seats[:], Labels: handInLabels}
	p.mu.Lock()
	for _, id := range g.Seats {
		f.Seats = append(f.Seats, p.seats[id])
	}
	p.mu.Unlock()
	if f.Seats[0].Bot.Path == "" || f.Seats[1].Bot.Path == "" {
		return fmt.Errorf("arena game %s: a bot of %v is not staged", g.Key, g.Seats)
	}
	rec, _, err := c.pipeline(rules, c.StageRoot).Play(ctx, f, nil)
	if err != nil {
		return err
	}
	return contest.Save(ctx, c.DB, rec)
}
