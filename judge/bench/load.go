package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"botjudge/judge/contest"
	"botjudge/results"
	"botjudge/sandbox"
)

// LoadMove is the move limit of the load tournaments: short, so that they
// take seconds, and long enough for a Python bot's 60 % of it in CPU.
const LoadMove = 500 * time.Millisecond

// Played is what a load tournament played: each game's moves, verdicts and
// outcome by its key, and the games played again after a failure of the
// judge's own (SPEC §5, load: a move the judge could not tell from the
// machine's load).
type Played struct {
	Games   map[string]string
	Retried int
	Wall    time.Duration
}

// loadTourney is one of the load tournaments: its benchmark bot, written
// once per think (a share of the move limit: of CPU, or asleep when
// negative), beside examples of the game's folder in submissions.
type loadTourney struct {
	bot    string
	thinks []float64
	// replace gives the bot's parameter line for a think.
	replace  func(source string, think float64) string
	examples []string
}

// loadTourneys are SPEC §5's load test: an example bot (a perfect player,
// which a loaded machine made lose) beside a bot that spends 60 % of the
// move limit in CPU on some moves and one that sleeps 40 % of it; and a
// Tron duel, two bots going on until their trails are 20 and 40 cells
// long. The bots' folders name their games. Few bots: the test plays them
// four times, twice beside a hog, in about two minutes.
var loadTourneys = []loadTourney{
	{bot: "load.py", thinks: []float64{0.6, -0.4}, examples: []string{"minimax.py"}, replace: func(src string, think float64) string {
		line := fmt.Sprintf("THINK = %g", think*LoadMove.Seconds())
		if think < 0 {
			line = fmt.Sprintf("THINK = %g\nSLEEP = True", -think*LoadMove.Seconds())
		}
		return strings.Replace(src, "THINK = 0.3", line, 1)
	}},
	{bot: "ahead.py", thinks: []float64{20, 40}, replace: func(src string, life float64) string {
		return strings.Replace(src, "LIFE = 0", fmt.Sprintf("LIFE = %g", life), 1)
	}},
}

// PlayLoad plays the load tournaments on run, in the folder work (which it
// fills), with the examples of submissions.
func PlayLoad(ctx context.Context, run contest.Runner, work, submissions string) (Played, error) {
	p := Played{Games: map[string]string{}}
	began := time.Now()
	for _, lt := range loadTourneys {
		if err := lt.play(ctx, run, work, submissions, &p); err != nil {
			return p, err
		}
	}
	p.Wall = time.Since(began)
	return p, nil
}

func (lt loadTourney) play(ctx context.Context, run contest.Runner, work, submissions string, p *Played) error {
	bot, err := loadBot(lt.bot)
	if err != nil {
		return err
	}
	dir := filepath.Join(work, bot.rules.Name())
	if err := lt.write(bot, dir, filepath.Join(submissions, bot.rules.Name())); err != nil {
		return err
	}
	db, err := results.Open(filepath.Join(work, bot.rules.Name()+".db"))
	if err != nil {
		return err
	}
	defer db.Close()
	lim := sandbox.DefaultLimits()
	lim.Move = LoadMove
	cfg := contest.Config{Rules: bot.rules, Dir: dir, StageRoot: filepath.Join(work, "_bots"), Rounds: 1, Seed: 1,
		Scheme: results.SchemeDefault, Limits: lim, Workers: 2, Image: "load"}
	return Record(ctx, run, db, cfg, p)
}

// Record plays cfg's tournament as contest.Run does and adds to p each
// game it plays, by its game and key, and each game it retries. Wall is
// not touched: p may gather several tournaments.
func Record(ctx context.Context, run contest.Runner, db *results.DB, cfg contest.Config, p *Played) error {
	var mu sync.Mutex
	_, err := contest.Run(ctx, run, db, cfg, func(e contest.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case e.Kind == "failure":
			p.Retried++
		case e.Kind == "game":
			p.Games[cfg.Rules.Name()+" "+e.Game.Key] = fingerprint(e.Game)
		}
	})
	return err
}

// write puts the tournament's bots in dir: the benchmark bot once per
// think, and the examples.
func (lt loadTourney) write(bot benchBot, dir, examples string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, think := range lt.thinks {
		name := filepath.Join(dir, fmt.Sprintf("%s%d.py", strings.TrimSuffix(lt.bot, ".py"), i))
		if err := os.WriteFile(name, []byte(lt.replace(bot.source, think)), 0o644); err != nil {
			return err
		}
	}
	for _, name := range lt.examples {
		src, err := os.ReadFile(filepath.Join(examples, name))
		if err != nil {
			return fmt.Errorf("bench: the load tournament's example bot: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// fingerprint is what must not change with the machine's load: every
// move's seat, answer and verdict, and the outcome. Times may.
func fingerprint(g *results.Game) string {
	var b strings.Builder
	for _, m := range g.Moves {
		fmt.Fprintf(&b, "%d:%d %s %s %s\n", m.Ply, m.Seat, m.Answer, m.Verdict, m.Reason)
	}
	fmt.Fprintf(&b, "%s %s\n", g.Outcome, g.Reason)
	return b.String()
}

// Differ lists the games of a that b played otherwise, or not at all.
func (a Played) Differ(b Played) []string {
	var keys []string
	for k, v := range a.Games {
		if b.Games[k] != v {
			keys = append(keys, k)
		}
	}
	for k := range b.Games {
		if _, ok := a.Games[k]; !ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// HogPerCore is the machine's load of SPEC §5's load test: perCore busy
// processes per core at the judge's priority, for at most most. stop ends
// them.
func HogPerCore(perCore int, most time.Duration) (stop func(), err error) {
	ctx, cancel := context.WithTimeout(context.Background(), most)
	var cmds []*exec.Cmd
	stop = func() {
		cancel()
		for _, c := range cmds {
			_ = c.Wait()
		}
	}
	for range perCore * runtime.NumCPU() {
		c := exec.CommandContext(ctx, "sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			stop()
			return nil, err
		}
		cmds = append(cmds, c)
	}
	return stop, nil
}

// hogMost bounds a hog of the bench: a bench stopped in the middle leaves
// no busy process for long.
const hogMost = 10 * time.Minute

// load plays the load tournaments on each runner alone, then beside a hog:
// whether every game is the same (SPEC §5, load), and how much longer the
// tournaments took.
func (b *bencher) load(ctx context.Context) error {
	if b.sz.HogPerCore <= 0 || b.cfg.Submissions == "" {
		return nil
	}
	var same, ratio [2]float64
	for i, side := range b.sides {
		var p [2]Played
		for k, what := range []string{"alone", "beside a hog"} {
			b.progress("load tournaments %s, %s", what, sideNames[i])
			stop := func() {}
			if k == 1 {
				var err error
				if stop, err = HogPerCore(b.sz.HogPerCore, hogMost); err != nil {
					return err
				}
			}
			var err error
			p[k], err = PlayLoad(ctx, side.Runner, filepath.Join(b.work, sideNames[i], fmt.Sprintf("load-%d", k)), b.cfg.Submissions)
			stop()
			if err != nil {
				return fmt.Errorf("load tournaments %s, %s: %w", what, sideNames[i], err)
			}
		}
		if len(p[0].Differ(p[1])) == 0 {
			same[i] = 1
		}
		ratio[i] = p[1].Wall.Seconds() / p[0].Wall.Seconds()
	}
	b.add(Row{Measure: fmt.Sprintf("same games beside a hog of %d per core (1 yes, 0 no)", b.sz.HogPerCore), Unit: "",
		Sandboxed: same[0], Plain: same[1], Target: "1", Met: atLeast(min(same[0], same[1]), 1)})
	b.add(Row{Measure: "load tournaments beside the hog / alone, wall", Unit: "×", Sandboxed: ratio[0], Plain: ratio[1]})
	b.note("load: an example bot of %s beside bots thinking 60 %% of a %v move limit in CPU or sleeping 40 %% of it, and a Tron duel, played alone then beside %d busy processes per core",
		b.cfg.Submissions, LoadMove, b.sz.HogPerCore)
	return nil
}
