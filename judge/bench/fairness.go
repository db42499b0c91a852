package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"botjudge/judge/contest"
	"botjudge/sandbox"
)

// fairness times the moves of a bot doing a fixed amount of work, alone and
// then while a tournament of trivial bots keeps the other workers busy
// starting, playing and stopping games. A move is charged its CPU time
// (SPEC §5), so whatever the other games cost the machine must not come
// out of it; its wall time, which they do stretch, is reported beside.
func (b *bencher) fairness(ctx context.Context) error {
	path, err := b.file("fairness/"+b.fixedWork.file, b.fixedSource(), 0o644)
	if err != nil {
		return err
	}
	bot := b.firstCell
	req := bot.rules.New(1, []string{"a", "b"}).Request(0)
	busy := tourney{name: "busy", bots: b.sz.TrivialBots, bot: b.firstCell, workers: max(1, contest.DefaultWorkers(2, sandbox.DefaultLimits().Memory)-1)}
	var charged, wall, floor [2][2]float64 // side, alone/busy: p99 in ms
	for i, side := range b.sides {
		s, err := side.Runner.Start(ctx, bot.bot("fixed_work", path), sandbox.DefaultLimits(), nil)
		if err != nil {
			return err
		}
		ask := func(ctx context.Context) (time.Duration, time.Duration, error) {
			r, err := s.Ask(ctx, req)
			return r.Charged(), r.Elapsed, checkReply(r, err)
		}
		rep := 0
		load := func(ctx context.Context) error {
			rep++
			_, err := b.play(ctx, i, busy, rep)
			return err
		}
		bare, err := startFloor(ctx, b.fixedWork.source)
		if err == nil {
			var t [2][2]timings
			t, err = b.alongside(ctx, [2]mover{ask, bare.move}, load)
			for k := range 2 {
				charged[i][k], wall[i][k], floor[i][k] = quantile(t[0][k].charged, 0.99), quantile(t[0][k].wall, 0.99), quantile(t[1][k].charged, 0.99)
			}
			err = errors.Join(err, bare.close())
		}
		if err := errors.Join(err, s.Close(ctx)); err != nil {
			return err
		}
	}
	b.add(Row{Measure: fmt.Sprintf("fixed-work move (%d moves), charged p99 alone", b.sz.FairMoves), Unit: "ms", Sandboxed: charged[0][0], Plain: charged[1][0], Compare: "diff"})
	b.add(Row{Measure: fmt.Sprintf("same, charged p99 during a trivial tournament on %d worker(s)", busy.workers), Unit: "ms", Sandboxed: charged[0][1], Plain: charged[1][1], Compare: "diff"})
	b.add(Row{Measure: "same, charged p99 busy / p99 alone", Unit: "×", Sandboxed: charged[0][1] / charged[0][0], Plain: charged[1][1] / charged[1][0],
		Target: "≤ ×1.10", Met: atMost(charged[0][1]/charged[0][0], 1.10)})
	b.add(Row{Measure: "floor: the same work in a bare python3 on the host, no judge, CPU p99 beside the same tournament / alone", Unit: "×",
		Sandboxed: floor[0][1] / floor[0][0], Plain: floor[1][1] / floor[1][0]})
	b.add(Row{Measure: "same, wall p99 alone", Unit: "ms", Sandboxed: wall[0][0], Plain: wall[1][0], Compare: "diff"})
	b.add(Row{Measure: "same, wall p99 during the tournament", Unit: "ms", Sandboxed: wall[0][1], Plain: wall[1][1], Compare: "diff"})
	b.add(Row{Measure: "same, wall p99 busy / p99 alone", Unit: "×", Sandboxed: wall[0][1] / wall[0][0], Plain: wall[1][1] / wall[1][0]})
	b.note("fixed-work bot: %s, the same instructions every move; it takes one worker's place while the tournament takes the others. A move is charged its container's CPU (the plain runner: its process's), wall time is what the judge waited", b.fixedWork.file)
	b.note("floor: the fixed-work bot's work done by one bare python3 process on the host, its CPU per move read by the process itself (time.process_time), a move of it after each of the bot's: what the machine alone adds to the same instructions' CPU time. Moves alone and beside the tournament alternate in %d blocks, so that the machine's drift weighs on both", fairBlocks)
	return b.pondering(ctx, path, req)
}

// fixedSource is the fixed-work bot: fixed_work.py's work before every
// answer of first_cell.py.
func (b *bencher) fixedSource() string {
	return b.fixedWork.source + "\n\n" + b.firstCell.source + "\n\nia = think(ia)\n"
}

// timings are the charged and the wall times of a series of answers.
type timings struct{ charged, wall []time.Duration }

// mover makes one fixed-work move and says what it was charged and how
// long it took.
type mover func(ctx context.Context) (charged, wall time.Duration, err error)

// fairBlocks is how many blocks of moves alone and beside the tournament
// alternate. The machine's own speed drifts over minutes (here the same
// instructions took 87 ms of CPU in one run and 143 ms in the next): in
// alternate blocks the drift weighs on both series alike.
const fairBlocks = 4

// alongside times FairMoves moves of each mover alone and FairMoves more
// while load plays tournaments one after another, the movers taking turns,
// alone and busy in alternate blocks; it returns each mover's timings,
// alone then busy.
func (b *bencher) alongside(ctx context.Context, moves [2]mover, load func(ctx context.Context) error) ([2][2]timings, error) {
	var t [2][2]timings
	per := max(1, b.sz.FairMoves/fairBlocks)
	for range fairBlocks {
		for k, busy := range []func(ctx context.Context) error{nil, load} {
			if err := b.fixedMoves(ctx, moves, per, busy, &t, k); err != nil {
				return t, err
			}
		}
	}
	return t, nil
}

// fixedMoves makes n moves of each mover, taking turns, and adds their
// times to t[mover][k]; with busy set, busy plays tournaments one after
// another in the background meanwhile, from before the first move to
// after the last.
func (b *bencher) fixedMoves(ctx context.Context, moves [2]mover, n int, busy func(ctx context.Context) error, t *[2][2]timings, k int) error {
	bctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var busyErr error
	if busy != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for bctx.Err() == nil {
				if err := busy(bctx); err != nil && bctx.Err() == nil {
					busyErr = err
					return
				}
			}
		}()
		// Let the tournament get past its checks into its games.
		time.Sleep(2 * time.Second)
	}
	var err error
	for range n {
		for m, move := range moves {
			var charged, wall time.Duration
			if charged, wall, err = move(ctx); err != nil {
				break
			}
			t[m][k].charged, t[m][k].wall = append(t[m][k].charged, charged), append(t[m][k].wall, wall)
		}
		if err != nil {
			break
		}
	}
	stop()
	wg.Wait()
	return errors.Join(err, busyErr)
}

// floorScript does the fixed-work bot's work once per line read, and prints
// the CPU time it took by the process's own clock.
const floorScript = `
import sys, time
work = think(lambda game, side: None)
for _ in sys.stdin:
    began = time.process_time()
    work(None, None)
    print(time.process_time() - began, flush=True)
`

// bareWork is the fixed-work bot's work in a bare python3 on the host, no
// judge and no sandbox: the floor of the fairness row, what the machine
// alone adds to the same instructions' CPU time.
type bareWork struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startFloor starts python3 with work, the source defining the fixed-work
// bot's think.
func startFloor(ctx context.Context, work string) (*bareWork, error) {
	cmd := exec.CommandContext(ctx, "python3", "-c", work+"\n"+floorScript)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: the floor of the fairness row needs python3 on the host: %w", err)
	}
	return &bareWork{cmd: cmd, in: in, out: bufio.NewScanner(out)}, nil
}

// move does the work once: its CPU time by the process's own clock, and
// the wall time from the request to the answer.
func (w *bareWork) move(context.Context) (time.Duration, time.Duration, error) {
	began := time.Now()
	if _, err := io.WriteString(w.in, "\n"); err != nil {
		return 0, 0, err
	}
	if !w.out.Scan() {
		return 0, 0, fmt.Errorf("bench: the floor's python3 stopped answering: %v", w.out.Err())
	}
	wall := time.Since(began)
	secs, err := strconv.ParseFloat(strings.TrimSpace(w.out.Text()), 64)
	return time.Duration(secs * float64(time.Second)), wall, err
}

func (w *bareWork) close() error {
	w.in.Close()
	return w.cmd.Wait()
}

// pondering plays the fixed-work bot against an opponent that answers at
// once, and against one whose thread computes without end, on its
// opponent's time too; in one game, then in two at once. The pondering
// bot's container is limited to its CPU, and what it uses is charged to
// itself: the fixed-work bot's charged times must not change.
func (b *bencher) pondering(ctx context.Context, fixed string, req []byte) error {
	ponder, err := loadBot("pondering.py")
	if err != nil {
		return err
	}
	opponents := [2]benchBot{b.firstCell, b.firstCell} // calm, pondering
	opponents[1].source = ponder.source + "\n\n" + b.firstCell.source + "\n\nia = think(ia)\n"
	var paths [2]string
	for i, name := range []string{"calm", "pondering"} {
		if paths[i], err = b.file(fmt.Sprintf("pondering/%s.py", name), opponents[i].source, 0o644); err != nil {
			return err
		}
	}
	var median [2][2][2]float64 // side, games at once - 1, calm/pondering: the fixed-work bot's charged median in ms
	var wallMedian [2][2][2]float64
	for i, side := range b.sides {
		for g := range 2 {
			// Calm and pondering games alternate, as the fairness row's
			// blocks do, so that the machine's drift weighs on both.
			var t [2]timings
			for range fairBlocks {
				for o := range 2 {
					b.progress("%s: fixed-work bot against a %s bot, %d game(s) at once", sideNames[i], []string{"calm", "pondering"}[o], g+1)
					got, err := b.duels(ctx, side.Runner, g+1, fixed, opponents[o].bot("opponent", paths[o]), req, max(1, b.sz.FairMoves/2/fairBlocks))
					if err != nil {
						return err
					}
					t[o].charged, t[o].wall = append(t[o].charged, got.charged...), append(t[o].wall, got.wall...)
				}
			}
			for o := range 2 {
				median[i][g][o], wallMedian[i][g][o] = quantile(t[o].charged, 0.5), quantile(t[o].wall, 0.5)
			}
		}
	}
	for g := range 2 {
		games := fmt.Sprintf("%d game", g+1)
		if g > 0 {
			games += "s at once"
		}
		r := func(m [2][2][2]float64, side int) float64 { return m[side][g][1] / m[side][g][0] }
		b.add(Row{Measure: fmt.Sprintf("fixed-work bot's charged median against a pondering bot / a calm one, %s", games), Unit: "×",
			Sandboxed: r(median, 0), Plain: r(median, 1), Target: "×0.90–×1.10", Met: within(r(median, 0), 0.10)})
		b.add(Row{Measure: fmt.Sprintf("same, wall median, %s", games), Unit: "×", Sandboxed: r(wallMedian, 0), Plain: r(wallMedian, 1)})
	}
	b.note("pondering bot: %s; each game asks the fixed-work bot and its opponent in turn, %d times, in %d games against each opponent, calm and pondering alternately", ponder.file, max(1, b.sz.FairMoves/2/fairBlocks), fairBlocks)
	return nil
}

// duels plays n games at once between the fixed-work bot and opponent, as
// a game does (each asked in turn, moves times), and returns the fixed-work
// bot's times.
func (b *bencher) duels(ctx context.Context, run contest.Runner, n int, fixed string, opponent sandbox.Bot, req []byte, moves int) (timings, error) {
	var mu sync.Mutex
	var all timings
	errs := make([]error, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seats := []sandbox.Bot{b.fixedWork.bot("fixed_work", fixed), opponent}
			sessions := make([]sandbox.Session, len(seats))
			for i, bot := range seats {
				s, err := run.Start(ctx, bot, sandbox.DefaultLimits(), nil)
				if err != nil {
					errs[g] = err
					return
				}
				sessions[i] = s
				defer func() { errs[g] = errors.Join(errs[g], s.Close(ctx)) }()
			}
			for range moves {
				r, err := sessions[0].Ask(ctx, req)
				if err = checkReply(r, err); err != nil {
					errs[g] = err
					return
				}
				mu.Lock()
				all.charged, all.wall = append(all.charged, r.Charged()), append(all.wall, r.Elapsed)
				mu.Unlock()
				if err := checkReply(sessions[1].Ask(ctx, req)); err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return all, errors.Join(errs...)
}

// within tells whether a ratio is within tolerance of 1.
func within(ratio, tolerance float64) *bool {
	ok := !math.IsNaN(ratio) && math.Abs(ratio-1) <= tolerance
	return &ok
}
