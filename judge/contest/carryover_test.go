package contest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"botjudge/games/virus"
	"botjudge/results"
	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// tracer looks, when its game starts, for what an earlier game of the same
// bot could have left behind (a file in /tmp, /dev/shm or /dev/mqueue, a
// locked-up folder, a background process, an environment variable, a Unix
// socket, System V shared memory, a changed harness or interpreter), says what it found in
// its log, then leaves all of it behind; it also tries to reach the
// process that outlives games in a reused container (PID 1: its memory,
// descriptors, environment, and signals). It plays the first legal cell.
const tracer = `
import ctypes, os, signal, socket, subprocess, sys

libc = ctypes.CDLL(None, use_errno=True)
TRACE_KEY = 0x7ace
found = []
for path in ("/tmp/trace", "/dev/shm/trace", "/tmp/trace.sock", "/dev/mqueue/trace", "/tmp/locked"):
    if os.path.exists(path):
        found.append(path)
if libc.shmget(TRACE_KEY, 4096, 0) >= 0:
    found.append("shared memory")
if os.environ.get("TRACE"):
    found.append("env TRACE")
for pid in os.listdir("/proc"):
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            if b"trace-sleeper" in f.read():
                found.append("process " + pid)
    except OSError:
        pass
for path, what in (("/opt/judge/harness.py", "harness"), ("/usr/lib/python3.11/os.py", "interpreter")):
    try:
        with open(path, "a") as f:
            f.write("# changed by a bot\n")
        found.append(what + " writable")
    except OSError:
        pass
if os.getpid() != 1:
    for path in ("/proc/1/mem", "/proc/1/environ", "/proc/1/fd/0"):
        try:
            open(path, "rb").close()
            found.append("opened " + path)
        except OSError:
            pass
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGKILL):
        try:
            os.kill(1, sig)
        except OSError:
            pass
print("TRACES:", ", ".join(found) or "none", flush=True)

for path in ("/tmp/trace", "/dev/shm/trace", "/dev/mqueue/trace"):
    try:
        with open(path, "w") as f:
            f.write("left by a game")
    except OSError:
        pass
os.makedirs("/tmp/locked/deeper", exist_ok=True)
os.chmod("/tmp/locked", 0)
libc.shmget(TRACE_KEY, 4096, 0o1600)
os.environ["TRACE"] = "1"
try:
    socket.socket(socket.AF_UNIX).bind("/tmp/trace.sock")
except OSError:
    pass
subprocess.Popen(["sh", "-c", "exec -a trace-sleeper sleep 600"], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def ia(game, side):
    me = game["references"][side]
    other = 3 - me
    grid = game["grid"]
    for r in range(10):
        for c in range(10):
            if grid[r][c] == 0 and any(0 <= r + dr < 10 and 0 <= c + dc < 10 and grid[r + dr][c + dc] == me
                                       for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
                return [r, c]
    return False
`

// TestNothingCrossesGames: whatever the judge does with a bot's container
// between its games (a fresh one, or a reused one after a reset), nothing
// a game leaves behind reaches the bot's next game, and a game replayed
// alone plays the same moves as in the tournament.
func TestNothingCrossesGames(t *testing.T) {
	t.Run("fresh", func(t *testing.T) {
		d := sandboxtest.Docker(t)
		nothingCrosses(t, d)
		if n := sandboxtest.Leftovers(t, d); n > 0 {
			t.Errorf("%d containers left after the tournament", n)
		}
	})
	t.Run("reused", func(t *testing.T) {
		p := sandboxtest.Pool(t).Pool
		nothingCrosses(t, p)
		if n := sandboxtest.Leftovers(t, p.Docker); n > 0 {
			t.Errorf("%d containers left after the tournament", n)
		}
		// Three bots each check and play four games (15 sessions); a
		// worker keeps up to three games alive (one playing, two
		// starting), and any two games of three bots share one: at most
		// three containers per bot.
		if n := p.Created(); n > 9 {
			t.Errorf("%d containers for 15 sessions of 3 bots", n)
		}
	})
}

// nothingCrosses plays the tracers' tournament on run, then each game alone
// on fresh containers.
func nothingCrosses(t *testing.T, run Runner) {
	d := sandboxtest.Docker(t)
	ctx := context.Background()
	root := t.TempDir()
	subs := filepath.Join(root, "virus")
	for _, name := range []string{"alice.py", "bob.py", "carol.py"} {
		write(t, filepath.Join(subs, name), tracer+"# "+name+"\n", 0o644)
	}
	db, err := results.Open(filepath.Join(root, "judge.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lim := sandbox.DefaultLimits()
	lim.Move = 2 * time.Second
	cfg := Config{Rules: virus.Rules{}, Dir: subs, StageRoot: filepath.Join(root, "_bots"), Rounds: 1, Seed: 3, Scheme: results.SchemeDefault, Limits: lim, Workers: 1, Image: "test"}
	sum, err := Run(ctx, run, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Each bot plays four games, one after another on one worker.
	if sum.Played != 6 {
		t.Fatalf("played %d games, want 6", sum.Played)
	}
	list, err := db.Games(ctx, sum.Tournament.ID, results.GameFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range list {
		full, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range full.Players {
			if !strings.Contains(p.Log, "TRACES: none") {
				t.Errorf("game %d, %s found traces of an earlier game:\n%s", g.ID, p.Name, p.Log)
			}
		}
		// The same game alone, on fresh containers, plays the same moves.
		seats := make([]Seat, len(full.Players))
		for i, p := range full.Players {
			seats[i] = Seat{Name: p.Name, Bot: sandbox.Bot{Name: p.Name, Path: filepath.Join(subs, p.Name+".py"), Protocol: sandbox.ProtocolIA}}
		}
		_, alone, err := Pipeline{Run: d, Rules: virus.Rules{}, Limits: lim}.Play(ctx, Fixture{Seed: full.Seed, Seats: seats, Labels: map[string]string{"botjudge.test": t.Name()}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(alone.Steps) != len(full.Moves) {
			t.Fatalf("game %d: %d moves in the tournament, %d alone", g.ID, len(full.Moves), len(alone.Steps))
		}
		for i, st := range alone.Steps {
			if string(st.Answer) != string(full.Moves[i].Answer) {
				t.Errorf("game %d, move %d: %s in the tournament, %s alone", g.ID, i, full.Moves[i].Answer, st.Answer)
			}
		}
	}
}
