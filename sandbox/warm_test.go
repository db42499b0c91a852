package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"botjudge/sandbox"
	"botjudge/sandbox/sandboxtest"
)

// probeBot reports what a Python program bot can see of its process, from
// its first line on (its modules before it imports any). "warm" is not the
// bot's view but the test's: whether the process waited for its request.
const probeBot = `import sys
modules = sorted(sys.modules)
frame_back = sys._getframe().f_back is None
import __main__, json, os, posix, random, resource, signal, subprocess, threading

def status(keys):
    with open("/proc/self/status") as f:
        return {k: v.strip() for k, _, v in (line.partition(":") for line in f) if k in keys}

def fds():
    names = os.listdir("/proc/self/fd")
    return sorted(int(n) for n in names if os.path.exists("/proc/self/fd/" + n))

umask = os.umask(0)
os.umask(umask)
main = {k: repr(v) for k, v in vars(__main__).items()
        if k not in ("__builtins__", "json", "os", "posix", "random", "resource", "signal", "subprocess", "threading", "sys", "modules", "frame_back", "status", "fds", "umask")}
main["__loader__"] = [type(__main__.__loader__).__name__, __main__.__loader__.name, __main__.__loader__.path]
print(json.dumps({
    "warm": b"BOTJUDGE_WARM" in open("/proc/self/environ", "rb").read(),
    "modules": modules,
    "frame_back_none": frame_back,
    "argv": sys.argv, "orig_argv": sys.orig_argv, "executable": sys.executable,
    "path": sys.path, "flags": repr(sys.flags),
    "stdin": sys.stdin.read(),
    "environ": dict(os.environ),
    "posix_environ": sorted(k.decode() for k in posix.environ),
    "child_environ": subprocess.run(["env"], capture_output=True, text=True).stdout,
    "main": main,
    "name": __name__,
    "pid": os.getpid(),
    "own_group": os.getpgrp() == os.getpid() and os.getsid(0) == os.getpid(),
    "parent": open("/proc/%d/cmdline" % os.getppid(), "rb").read().split(b"\0")[0].decode(),
    "parent_runs_harness": b"harness" in open("/proc/%d/cmdline" % os.getppid(), "rb").read(),
    "random": repr(random.random()),
    "hash": str(hash("a string")),
    "fds": fds(),
    "cwd": os.getcwd(),
    "umask": umask,
    "signals": {s.name: repr(signal.getsignal(s)) for s in signal.valid_signals() if isinstance(s, signal.Signals)},
    "mask": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])),
    "status": status({"SigBlk", "SigIgn", "SigCgt", "NoNewPrivs", "CapEff", "Threads", "Seccomp"}),
    "limits": {n: resource.getrlimit(getattr(resource, n)) for n in dir(resource) if n.startswith("RLIMIT_")},
    "threads": threading.active_count(),
    "stdio": [[s.encoding, s.errors, s.line_buffering, s.isatty()] for s in (sys.stdin, sys.stdout, sys.stderr)],
}))
`

// probeJS is probeBot's twin for Node.js.
const probeJS = `const cached = Object.keys(require.cache);
const fs = require('fs');
const cp = require('child_process');
const status = {};
for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\n')) {
  const [k, v] = line.split(':');
  if (['SigBlk', 'SigIgn', 'SigCgt', 'NoNewPrivs', 'CapEff', 'Seccomp'].includes(k)) status[k] = v.trim();
}
const umask = process.umask(0);
process.umask(umask);
const parent = fs.readFileSync('/proc/' + process.ppid + '/cmdline');
console.log(JSON.stringify({
  warm: fs.readFileSync('/proc/self/environ').includes('BOTJUDGE_WARM'),
  cached,
  main: require.main === module, filename: __filename, paths: module.paths, children: module.children.length,
  stack: new Error('probe').stack.split('\n').slice(1).map(l => l.replace(/:\d+:\d+\)?$/, '')),
  argv: process.argv, argv0: process.argv0, execArgv: process.execArgv, execPath: process.execPath,
  stdin: fs.readFileSync(0, 'utf8'),
  environ: process.env,
  child_environ: cp.execFileSync('env', {encoding: 'utf8'}),
  pid: process.pid,
  parent: parent.toString().split('\0')[0], parent_runs_harness: parent.includes('harness'),
  random: String(Math.random()),
  hash: String(Math.random()),
  fds: fs.readdirSync('/proc/self/fd').map(Number).filter(n => fs.existsSync('/proc/self/fd/' + n)).sort((a, b) => a - b),
  cwd: process.cwd(), umask,
  status,
  limits: fs.readFileSync('/proc/self/limits', 'utf8'),
  title: process.title,
}));
`

// TestWarmStartIsAFreshProcess: a Python or Node.js program bot started
// ahead of its request sees what it would see started with it, every
// request anew. Each runner's view with the warm start is compared with its
// view without (the process started with the request), for two requests in
// a row. (Node.js's hash seed cannot be read: its probe draws a second
// random number in its place.)
func TestWarmStartIsAFreshProcess(t *testing.T) {
	kinds := []struct {
		name       string
		warm, cold func(t *testing.T) runner
	}{
		{"local", func(*testing.T) runner { return sandbox.NewLocal() }, func(*testing.T) runner { return sandbox.NewColdLocal() }},
		{"docker", func(t *testing.T) runner { return sandboxtest.Docker(t) }, func(t *testing.T) runner { return coldDocker(t) }},
		{"reused", func(t *testing.T) runner { return sandboxtest.Pool(t) }, func(t *testing.T) runner { return coldPool(t) }},
	}
	requests := []string{`{"n":1,"text":"é"}`, `{"n":2}`}
	langs := []struct {
		name, probe, probeFile, crash, crashFile, where string
	}{
		{"python", probeBot, "probe.py", crashBot, "crash.py", `crash.py", line 3, in <module>`},
		{"node", probeJS, "probe.js", crashJS, "crash.js", `crash.js:4:1)`},
		// CoffeeScript runs JavaScript in backquotes as it is.
		{"coffee", "```\n" + probeJS + "```\n", "probe.coffee", "move = -> throw new Error 'no move'\nmove()\n", "crash.coffee", "Error: no move\n    at move ("},
	}
	for _, k := range kinds {
		for _, lang := range langs {
			t.Run(k.name+"/"+lang.name, func(t *testing.T) {
				t.Parallel()
				views := map[bool][]map[string]any{}
				for _, warm := range []bool{true, false} {
					r := k.cold(t)
					if warm {
						r = k.warm(t)
					}
					bot := writeBot(t, lang.probeFile, "program", map[string]string{"": lang.probe})
					s := start(t, r, bot, limits(10*time.Second))
					for _, req := range requests {
						reply := ask(t, s, req)
						if reply.Fault != "" {
							t.Fatalf("warm %v: %s: %s\n%s", warm, reply.Fault, reply.Detail, s.Log())
						}
						view := placeless(t, reply.Data, filepath.Dir(bot.Path))
						if view["warm"] != warm {
							t.Fatalf("warm start %v: the process says it waited: %v", warm, view["warm"])
						}
						views[warm] = append(views[warm], view)
					}
				}
				for warm, vs := range views {
					// Fresh every time: its own pid, seed and hash secret.
					for _, key := range []string{"pid", "random", "hash"} {
						if vs[0][key] == vs[1][key] {
							t.Errorf("warm %v: %s is %v in both requests", warm, key, vs[0][key])
						}
					}
				}
				for i := range requests {
					w, c := views[true][i], views[false][i]
					for _, key := range []string{"warm", "pid", "random", "hash"} {
						delete(w, key)
						delete(c, key)
					}
					for key := range c {
						if !reflect.DeepEqual(w[key], c[key]) {
							t.Errorf("request %d: %s differs:\nwarm  %v\nfresh %v", i+1, key, w[key], c[key])
						}
					}
					if len(w) != len(c) {
						t.Errorf("request %d: %d keys warm, %d fresh", i+1, len(w), len(c))
					}
				}
				// An uncaught error: the same traceback in the log, the bot's
				// own frames alone.
				logs := map[bool]string{}
				for _, warm := range []bool{true, false} {
					r := k.cold(t)
					if warm {
						r = k.warm(t)
					}
					bot := writeBot(t, lang.crashFile, "program", map[string]string{"": lang.crash})
					s := start(t, r, bot, limits(10*time.Second))
					wantFault(t, ask(t, s, requests[0]), "error", "exit status 1: ")
					logs[warm] = strings.ReplaceAll(closedLog(t, s), filepath.Dir(bot.Path), "<bot>")
				}
				if logs[true] != logs[false] || !strings.Contains(logs[true], lang.where) {
					t.Errorf("the log differs:\nwarm  %q\nfresh %q", logs[true], logs[false])
				}
			})
		}
	}
}

const crashBot = `def move():
    raise ValueError("no move")
move()
`

const crashJS = `function move() {
  throw new Error('no move');
}
move();
`

// placeless decodes a probe's view with its bot's folder and its home
// replaced by names: they differ by session for the local runner, whose
// bots share the machine's /tmp.
func placeless(t *testing.T, data []byte, dir string) map[string]any {
	var view struct {
		Environ map[string]string `json:"environ"`
	}
	if err := json.Unmarshal(data, &view); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	text := strings.ReplaceAll(string(data), dir, "<bot>")
	text = strings.ReplaceAll(text, view.Environ["HOME"], "<home>")
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// coldDocker is sandboxtest.Docker without the warm start.
func coldDocker(t *testing.T) *sandbox.Docker {
	sandboxtest.Docker(t) // the image, or the skip
	d, err := sandbox.NewDocker(context.Background(), sandbox.Options{Cold: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := errors.Join(d.RemoveVolumes(context.Background()), d.Close()); err != nil {
			t.Error(err)
		}
	})
	return d
}

// coldPool is sandboxtest.Pool without the warm start.
func coldPool(t *testing.T) runner {
	p := sandbox.NewPool(coldDocker(t), 0)
	t.Cleanup(func() {
		if err := p.Drain(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return sandboxtest.Warmed{Pool: p}
}
