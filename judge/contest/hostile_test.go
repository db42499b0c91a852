package contest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"botjudge/games"
	"botjudge/games/battleships"
	"botjudge/games/fault"
	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// hostileCase is one attack of the hostile-bot suite: a bot under
// testdata/hostile/<game>/ that plays one real game in Docker against an
// example bot from submissions/.
type hostileCase struct {
	game string // "virus" or "battleships"
	file string // the bot, under testdata/hostile/<game>/
	// clock marks an attack on time: the bot gets the short move limit that
	// keeps the suite fast. Other bots get the default limit, so that a
	// loaded machine (node can take seconds to start on one) cannot turn
	// their verdict into a timeout.
	clock bool
	// pad appends that many bytes of comment lines to the bot before it is
	// staged: the 50 MB file is made at test time, never committed.
	pad int
	// verdicts are all the verdicts the bot's moves may get besides OK; the
	// first one must occur, with every one of words in its reason. None
	// means the bot must never be faulted.
	verdicts []fault.Kind
	words    []string
	// mayPass allows the bot to get none of its verdicts: the attack may
	// end within the limit on a fast machine.
	mayPass bool
	// attack are words that the bot's own "ATTACK <name>:" log line must
	// hold: the bot tried the attack and reports that it failed.
	attack []string
	// check is what else the case must show, once the game is over.
	check func(t *testing.T, p Played)
}

func (c hostileCase) name() string {
	return strings.TrimSuffix(c.file, filepath.Ext(c.file))
}

func (c hostileCase) kind() string {
	if c.game == "virus" {
		return "virus"
	}
	return "program " + filepath.Ext(c.file)
}

// hostileSecret is set in the judge's environment while the suite runs: no
// bot may see it.
const hostileSecret = "BOTJUDGE_SECRET"

// hostileCases are the attacks of issue 4, and of issue 22 on time. A bot
// that computes without end is stopped by its CPU limit, or by the
// wall-clock backstop on a machine too loaded to give it the CPU: both
// reasons say how much CPU it used. The battleships bots that link to
// virus/ are one file for both games: they define ia, and run as a program
// they play battleships. empty.py and empty.js are empty on purpose, so they
// have no header comment.
var hostileCases = []hostileCase{
	// Resources and time.
	// An ia bot's fork bomb forks the harness itself: on a loaded machine
	// its 64 copies can starve the harness's own answer, and the judge's
	// backstop ends the move instead ("no answer within 4s of wall time
	// (twice the limit), and the bot could not be interrupted"). Either
	// reason names the limit that ended it.
	{game: "virus", file: "fork_bomb.py", clock: true, verdicts: faults(fault.Timeout), words: []string{"limit"}},
	{game: "battleships", file: "fork_bomb.py", clock: true, verdicts: faults(fault.Timeout), words: []string{"s of CPU"}},
	{game: "virus", file: "memory_hog.py", verdicts: faults(fault.OOM), words: []string{"out of memory"}},
	{game: "battleships", file: "memory_hog.py", verdicts: faults(fault.OOM), words: []string{"out of memory"}},
	{game: "virus", file: "busy_loop.py", clock: true, verdicts: faults(fault.Timeout), words: []string{"s of CPU"}},
	{game: "battleships", file: "busy_loop.js", clock: true, verdicts: faults(fault.Timeout), words: []string{"s of CPU"}},
	{game: "virus", file: "sleep_past_limit.py", clock: true, verdicts: faults(fault.Timeout), words: []string{"no answer within 4s of wall time", "waits or sleeps"}},
	{game: "battleships", file: "sleep_past_limit.sh", clock: true, verdicts: faults(fault.Timeout), words: []string{"no answer within 4s of wall time", "waits or sleeps"}},
	{game: "virus", file: "ignore_sigterm.py", clock: true, verdicts: faults(fault.Timeout), words: []string{"no answer within 4s of wall time", "could not be interrupted", "restarted"}},
	{game: "battleships", file: "ignore_sigterm.sh", clock: true, verdicts: faults(fault.Timeout), words: []string{"s of CPU"}},
	// Thinking on another's time, or on many threads at once (SPEC §5).
	{game: "virus", file: "ponder_thread.py", check: chargedAtLeastSpent},
	{game: "virus", file: "fork_spin.py", check: chargedAtLeastSpent},
	{game: "virus", file: "many_threads.py", check: movesChargedAllThreads},
	{game: "virus", file: "outlive.py", attack: []string{"alive_next_move=2"}, check: noneRunning("hostile-outlive-virus")},
	{game: "battleships", file: "outlive.py", attack: []string{"alive_next_request=0"}, check: noneRunning("hostile-outlive-program")},

	// Files, environment, privileges.
	{game: "virus", file: "fill_tmp.py", attack: []string{"error=ENOSPC"}},
	{game: "battleships", file: "fill_tmp.py", attack: []string{"error=ENOSPC"}},
	{game: "virus", file: "write_elsewhere.py", attack: []string{"written=[]"}},
	{game: "battleships", file: "write_elsewhere.py", attack: []string{"written=[]"}},
	{game: "virus", file: "read_files.py", attack: []string{"opened=[]", "found=[]", "bot_dir=['bot.py']", "staged_dir=unreachable"}},
	{game: "battleships", file: "read_files.py", attack: []string{"opened=[]", "found=[]", "bot_dir=['bot.py']", "staged_dir=unreachable"}},
	{game: "virus", file: "read_env.py", attack: []string{"keys=['HOME', 'LANG', 'PATH']", "secret_in=[]"}, check: secretUnseen},
	{game: "battleships", file: "read_env.py", attack: []string{"keys=['HOME', 'LANG', 'PATH']", "secret_in=[]"}, check: secretUnseen},
	{game: "virus", file: "docker_socket.py", attack: []string{"found=[]", "connected=[]", "docker_host=None"}},
	{game: "virus", file: "mount.py", attack: []string{"succeeded=[]"}},
	{game: "virus", file: "setuid.py", attack: []string{"succeeded=[]", "ids=65534/65534/65534/65534"}},
	{game: "virus", file: "privileges.py", attack: []string{"succeeded=[]", "cap_eff=0000000000000000", "no_new_privs=1"}},
	{game: "battleships", file: "privileges.py", attack: []string{"succeeded=[]", "cap_eff=0000000000000000", "no_new_privs=1"}},

	// The network, without a single packet leaving the machine.
	{game: "virus", file: "network.py", attack: []string{"interfaces=['lo'] routes=0 resolve=error", "raw_socket=denied"}},
	{game: "battleships", file: "network.py", attack: []string{"interfaces=['lo'] routes=0 resolve=error", "raw_socket=denied"}},

	// Output and protocol.
	{game: "virus", file: "stdout_100mb.py", clock: true, verdicts: faults(fault.Timeout), mayPass: true, check: logBounded},
	{game: "battleships", file: "stdout_100mb.py", verdicts: faults(fault.Output), words: []string{"more than 65536 bytes on stdout"}},
	{game: "virus", file: "endless_stderr.py", clock: true, verdicts: faults(fault.Timeout), words: []string{"s of CPU"}, check: logBounded},
	{game: "battleships", file: "endless_stderr.sh", clock: true, verdicts: faults(fault.Timeout), words: []string{"s of CPU"}, check: logBounded},
	{game: "virus", file: "close_stdout.py"},
	{game: "battleships", file: "close_stdout.sh", verdicts: faults(fault.Malformed), words: []string{"no output"}},
	{game: "virus", file: "close_all_fds.py", verdicts: faults(fault.Crash), words: []string{"restarted"}},
	{game: "virus", file: "answer_early.py", attack: []string{"spoofed=1"}, check: neverAnswered(`[4,4]`)},
	{game: "virus", file: "answer_twice.py", verdicts: faults(fault.Illegal), words: []string{"cell [4, 4] has none of your pieces"}, check: alwaysFaulted},
	{game: "battleships", file: "answer_twice.sh", verdicts: faults(fault.Malformed), words: []string{"more than one JSON value"}},
	{game: "virus", file: "binary_junk.py", verdicts: faults(fault.Malformed), words: []string{"which is not JSON"}},
	{game: "battleships", file: "binary_junk.sh", verdicts: faults(fault.Malformed), words: []string{"not UTF-8"}},
	{game: "virus", file: "answer_10mb.py", verdicts: faults(fault.Output), words: []string{"over the limit of 65536"}},
	{game: "battleships", file: "answer_10mb.py", verdicts: faults(fault.Output), words: []string{"more than 65536 bytes on stdout"}},

	// Broken files.
	{game: "virus", file: "crash_on_import.py", verdicts: faults(fault.Error), words: []string{"RuntimeError: hostile crash on import"}},
	{game: "battleships", file: "crash_on_import.py", verdicts: faults(fault.Error), words: []string{"exit status 1", "RuntimeError: hostile crash on import"}},
	{game: "virus", file: "syntax_error.py", verdicts: faults(fault.Error), words: []string{"SyntaxError", "line 6"}},
	{game: "battleships", file: "syntax_error.js", verdicts: faults(fault.Error), words: []string{"exit status 1", "SyntaxError"}},
	{game: "virus", file: "missing_ia.py", verdicts: faults(fault.Error), words: []string{"defines no function ia"}},
	{game: "virus", file: "wrong_signature.py", verdicts: faults(fault.Error), words: []string{"ia cannot be called as ia(game, side)"}},
	{game: "virus", file: "not_python.py", verdicts: faults(fault.Error), words: []string{"SyntaxError"}},
	{game: "battleships", file: "not_a_program.txt", verdicts: faults(fault.Error), words: []string{"not executable"}},
	{game: "virus", file: "empty.py", verdicts: faults(fault.Error), words: []string{"the file is empty"}},
	{game: "battleships", file: "empty.js", verdicts: faults(fault.Malformed), words: []string{"no output"}},
	{game: "virus", file: "file_50mb.py", pad: 50 << 20},
	{game: "battleships", file: "file_50mb.sh", pad: 50 << 20},
	{game: "virus", file: "mutate_game.py", verdicts: faults(fault.Illegal), words: []string{"cell [4, 4] has none of your pieces"}, attack: []string{"mutation_seen=False"}},
	{game: "virus", file: "deep_recursion.py", verdicts: faults(fault.Crash), words: []string{"signal 11", "restarted"}},
	{game: "battleships", file: "deep_recursion.py", verdicts: faults(fault.Crash), words: []string{"killed by SIGSEGV"}},
	{game: "virus", file: "kill_harness.py", verdicts: faults(fault.Crash), words: []string{"exited with status 9", "restarted"}, attack: []string{"harness survived SIGKILL"}},
	{game: "battleships", file: "kill_harness.py", attack: []string{"harness_alive=True"}},
}

func faults(vs ...fault.Kind) []fault.Kind { return vs }

// TestHostileBots plays every hostile case against a well-behaved example
// bot while a bystander game goes on beside them, and checks that each
// attack is contained: the right verdict and reason, no move over the
// wall-clock backstop (twice the limit) plus 2 s, a normal end, the example bot untouched, nothing left running.
// HOSTILE_TABLE names a file to write the table of results to (Markdown).
func TestHostileBots(t *testing.T) {
	t.Setenv(hostileSecret, fmt.Sprintf("hostile-secret-%d", time.Now().UnixNano()))
	sandboxtest.Docker(t) // builds the image once, before the cases race for it

	stop := make(chan struct{})
	bystanderDone := make(chan int)
	play := bystander(t)
	go func() { bystanderDone <- play(stop) }()

	var mu sync.Mutex
	rows := map[string]string{}
	// A few cases at once: thirty fork bombs, busy loops and memory hogs
	// together would load the machine until the harnesses themselves wait
	// for a CPU, and the test would measure its own load.
	slots := make(chan struct{}, hostileAtOnce)
	t.Run("case", func(t *testing.T) {
		for _, c := range hostileCases {
			t.Run(c.game+"/"+c.name(), func(t *testing.T) {
				t.Parallel()
				slots <- struct{}{}
				defer func() { <-slots }()
				row := playHostile(t, c)
				mu.Lock()
				rows[c.game+"/"+c.file] = row
				mu.Unlock()
			})
		}
	})
	close(stop)
	if n := <-bystanderDone; n == 0 {
		t.Error("the bystander finished no game beside the hostile bots")
	} else {
		t.Logf("the bystander played %d games beside the hostile bots, unharmed", n)
	}

	var table strings.Builder
	table.WriteString("| case | bot kind | move limit | verdict | reason excerpt | slowest move | game |\n|---|---|---|---|---|---|---|\n")
	for _, c := range hostileCases {
		if row, ok := rows[c.game+"/"+c.file]; ok {
			table.WriteString(row)
		}
	}
	t.Logf("hostile bots:\n%s", table.String())
	if path := os.Getenv("HOSTILE_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(table.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// hostileAtOnce is how many hostile cases play at once, beside the
// bystander.
const hostileAtOnce = 6

// shortMove is the move limit of attacks on time.
const shortMove = 2 * time.Second

// playHostile plays one case and returns its row of the table.
func playHostile(t *testing.T, c hostileCase) string {
	d := sandboxtest.Docker(t)
	lim := sandbox.DefaultLimits()
	if c.clock {
		lim.Move = shortMove
	}
	rules, reference := hostileGame(c.game)
	root := t.TempDir()
	src := filepath.Join("testdata", "hostile", c.game, c.file)
	if c.pad > 0 {
		src = padded(t, src, c.pad)
	}
	seats := []Seat{
		{Name: c.name(), Bot: sandbox.Bot{Name: c.name(), Path: stageFile(t, root, src), Protocol: rules.Protocol()}},
		{Name: "reference", Bot: sandbox.Bot{Name: "reference", Path: stageFile(t, root, reference), Protocol: rules.Protocol()}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	began := time.Now()
	// The tournament's own policy: a bot that times out every move is
	// given up on, as on contest day.
	_, p, err := Pipeline{Run: referenceLimits{d}, Rules: rules, Limits: lim, Policy: DefaultConfig().Policy}.Play(ctx, Fixture{Seed: 1, Seats: seats, Labels: map[string]string{"botjudge.test": t.Name()}}, nil)
	took := time.Since(began)
	if err != nil {
		t.Fatalf("the judge failed: %v", err)
	}
	log := p.Logs[0]
	defer func() {
		if t.Failed() {
			t.Logf("log of %s:\n%s", c.name(), log)
		}
	}()
	if len(p.Outcome.Rank) != 2 || p.Outcome.Reason == "" {
		t.Errorf("the game did not end normally: %+v", p.Outcome)
	}
	if n := sandboxtest.Leftovers(t, d); n != 0 {
		t.Errorf("%d containers left after the game", n)
	}

	var first *results.Move
	var slowest time.Duration
	for i, s := range p.Steps {
		limit := lim.Move
		if s.Seat == 1 {
			limit = sandbox.DefaultLimits().Move
		}
		// The backstop is twice the limit of the bot's own wall time; time
		// it waits for a CPU moves it, up to MaxWaitCredit times more: on a
		// loaded machine the judge's clock may read that much, never more.
		if most := (1+sandbox.MaxWaitCredit)*2*limit + 2*time.Second; s.Elapsed > most {
			t.Errorf("move %d of seat %d took %v, over the backstop moved by the most waiting for a CPU it credits, + 2 s (%v)", s.Ply, s.Seat, s.Elapsed, most)
		}
		if s.Seat == 1 {
			if s.Verdict != fault.None {
				t.Errorf("the reference bot was faulted on move %d: %s %s %s", s.Ply, s.Verdict, s.Reason, s.Detail)
			}
			continue
		}
		slowest = max(slowest, s.Elapsed)
		if s.Verdict == fault.None {
			continue
		}
		if first == nil {
			first = &p.Steps[i]
		}
		if !slices.Contains(c.verdicts, s.Verdict) {
			t.Errorf("move %d: verdict %s (%s), want one of %v", s.Ply, s.Verdict, s.Reason, c.verdicts)
		}
	}
	verdict, excerpt := "ok", ""
	switch {
	case first != nil:
		verdict, excerpt = string(first.Verdict), first.Reason
		if first.Detail != "" && !strings.Contains(first.Reason, first.Detail) {
			excerpt += " — " + first.Detail
		}
		if len(c.verdicts) > 0 && first.Verdict != c.verdicts[0] {
			t.Errorf("first fault %s, want %s", first.Verdict, c.verdicts[0])
		}
		for _, w := range c.words {
			if !strings.Contains(excerpt, w) {
				t.Errorf("the reason %q does not say %q", excerpt, w)
			}
		}
	case len(c.verdicts) > 0 && !c.mayPass:
		t.Errorf("never faulted, want %v", c.verdicts)
	}
	if c.attack != nil {
		line := attackLine(log, c.name())
		if line == "" {
			t.Errorf("no ATTACK %s line in the log", c.name())
		}
		for _, w := range c.attack {
			if !strings.Contains(line, w) {
				t.Errorf("the attack's report %q does not say %q", line, w)
			}
		}
		if first == nil {
			excerpt = line
		}
	}
	if c.check != nil {
		c.check(t, p)
	}
	return fmt.Sprintf("| %s | %s | %v | %s | %s | %.2f s | %.1f s |\n", c.name(), c.kind(), lim.Move, verdict,
		cell(excerpt), slowest.Seconds(), took.Seconds())
}

// referenceLimits starts the reference bot with the default limits, whatever
// the hostile bot's: only the hostile bot, not a loaded machine, may make it
// lose a move.
type referenceLimits struct{ Runner }

func (r referenceLimits) Start(ctx context.Context, bot sandbox.Bot, lim sandbox.Limits, labels map[string]string) (sandbox.Session, error) {
	if bot.Name == "reference" {
		lim = sandbox.DefaultLimits()
	}
	return r.Runner.Start(ctx, bot, lim, labels)
}

// hostileGame is a case's rules and the example bot it plays against.
func hostileGame(game string) (games.Rules, string) {
	if game == "virus" {
		return virus.Rules{}, filepath.Join("..", "..", "submissions", "virus", "greedy.py")
	}
	return battleships.Rules{}, filepath.Join("..", "..", "submissions", "battleships", "hunter.js")
}

// stageFile stages one bot file as the judge does.
func stageFile(t *testing.T, root, src string) string {
	t.Helper()
	info, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := hashBot(src, info)
	if err != nil {
		t.Fatal(err)
	}
	path, err := Stage(root, Entry{Name: filepath.Base(src), Source: src, SHA256: sum, Kind: "file"})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// padded copies a bot and appends size bytes of comment lines to it.
func padded(t *testing.T, src string, size int) string {
	t.Helper()
	body, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	line := "# " + strings.Repeat("padding ", 12) + "\n"
	body = append(body, bytes.Repeat([]byte(line), size/len(line)+1)...)
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// attackLine is the report a bot printed about its attack.
func attackLine(log, name string) string {
	for _, l := range strings.Split(log, "\n") {
		if rest, ok := strings.CutPrefix(l, "ATTACK "+name+": "); ok {
			return rest
		}
	}
	return ""
}

// cell makes text fit in one cell of a Markdown table.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 90 {
		s = string(r[:87]) + "..."
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// noneRunning checks that no process on this machine carries mark once the
// game is over. Docker's processes are visible here when the engine runs on
// this machine, as in CI; elsewhere only the bot's own report is checked.
func noneRunning(mark string) func(*testing.T, Played) {
	return func(t *testing.T, _ Played) {
		procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range procs {
			if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(mark)) {
				t.Errorf("%s still runs after the game: %s", mark, bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
			}
		}
	}
}

// secretUnseen checks that the judge's environment never reached the bot.
func secretUnseen(t *testing.T, p Played) {
	if strings.Contains(p.Logs[0], os.Getenv(hostileSecret)) {
		t.Errorf("the bot saw the judge's %s", hostileSecret)
	}
}

// logBounded checks that a flood of output kept the log to its limit.
func logBounded(t *testing.T, p Played) {
	if n := len(p.Logs[0]); n > sandbox.DefaultLimits().Log+4096 {
		t.Errorf("the log holds %d bytes", n)
	}
	if !strings.Contains(p.Logs[0], "more bytes of log were dropped") {
		t.Error("the log does not say that output was dropped")
	}
}

// neverAnswered checks that the judge never took answer for one of the
// bot's moves.
func neverAnswered(answer string) func(*testing.T, Played) {
	return func(t *testing.T, p Played) {
		for _, s := range p.Steps {
			if s.Seat == 0 && string(s.Answer) == answer {
				t.Errorf("move %d took the answer %s, sent before the judge asked", s.Ply, answer)
			}
		}
	}
}

// alwaysFaulted checks that every move the bot was asked for got a verdict:
// its second answer to a request never became the answer to the next one.
// Turns it was not asked for (no legal move) have no answer at all.
func alwaysFaulted(t *testing.T, p Played) {
	for _, s := range p.Steps {
		if s.Seat == 0 && s.Verdict == fault.None && s.Answer != nil {
			t.Errorf("move %d was %s (%s): an answer of another request", s.Ply, s.Answer, s.Reason)
		}
	}
}

// bystander returns a function that plays well-behaved games, one after
// another, until stop is closed: the hostile bots must not fault them. It returns how many games it finished, and may run on a
// goroutine of its own.
func bystander(t *testing.T) func(stop <-chan struct{}) int {
	d := sandboxtest.Docker(t)
	root := t.TempDir()
	examples := filepath.Join("..", "..", "submissions", "virus")
	seats := []Seat{
		{Name: "greedy", Bot: sandbox.Bot{Name: "greedy", Path: stageFile(t, root, filepath.Join(examples, "greedy.py")), Protocol: sandbox.ProtocolIA}},
		{Name: "first_cell", Bot: sandbox.Bot{Name: "first_cell", Path: stageFile(t, root, filepath.Join(examples, "first_cell.py")), Protocol: sandbox.ProtocolIA}},
	}
	return func(stop <-chan struct{}) int {
		for n := 0; ; n++ {
			select {
			case <-stop:
				if ids, err := d.Containers(context.Background()); err != nil || len(ids) != 0 {
					t.Errorf("bystander: %d containers left (%v)", len(ids), err)
				}
				return n
			default:
			}
			_, p, err := Pipeline{Run: d, Rules: virus.Rules{}, Limits: sandbox.DefaultLimits()}.Play(context.Background(), Fixture{Seed: int64(n), Seats: seats, Labels: map[string]string{"botjudge.test": t.Name() + "/bystander"}}, nil)
			if err != nil {
				t.Errorf("bystander game %d: the judge failed: %v", n, err)
				return n
			}
			for _, s := range p.Steps {
				if s.Verdict != fault.None {
					t.Errorf("bystander game %d: %s was faulted: %s %s", n, seats[s.Seat].Name, s.Verdict, s.Reason)
				}
			}
		}
	}
}

// spentLines are the seconds of CPU a bot logged, one "SPENT s" line a move.
func spentLines(t *testing.T, log, word string) []time.Duration {
	t.Helper()
	var spent []time.Duration
	for _, l := range strings.Split(log, "\n") {
		if rest, ok := strings.CutPrefix(l, word+" "); ok {
			secs, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			spent = append(spent, time.Duration(secs*float64(time.Second)))
		}
	}
	if len(spent) == 0 {
		t.Fatalf("no %s line in the log", word)
	}
	return spent
}

// chargedAtLeastSpent checks that a bot that computed between its moves
// (a thread or a child it left running) was charged for it: its moves
// together were charged at least the CPU it last said it spent since its
// first move.
func chargedAtLeastSpent(t *testing.T, p Played) {
	spent := spentLines(t, p.Logs[0], "SPENT")
	var charged time.Duration
	for _, s := range p.Steps {
		// Moves the rules answer for the bot (it cannot move) have no time.
		if s.Seat == 0 && s.CPU != nil {
			charged += *s.CPU
		}
	}
	last := spent[len(spent)-1]
	if last < 50*time.Millisecond || charged < last-10*time.Millisecond {
		t.Errorf("the bot spent %v of CPU between its moves, and was charged %v in all", last, charged)
	}
}

// movesChargedAllThreads checks that each move whose work was spread over
// threads was charged their sum, which it logged.
func movesChargedAllThreads(t *testing.T, p Played) {
	spent := spentLines(t, p.Logs[0], "MOVE")
	n := 0
	for _, s := range p.Steps {
		if s.Seat != 0 || n >= len(spent) {
			continue
		}
		if s.CPU == nil || *s.CPU < spent[n] {
			t.Errorf("move %d: its threads used %v, and it was charged %v", s.Ply, spent[n], s.CPU)
		}
		n++
	}
}
