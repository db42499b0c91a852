package sandbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// askHarness is what the harness's own modules make of each bot path: the
// command that runs it (its own interpreter said "<self>") or why it cannot
// run, the command that serves it, and whether it is started ahead of its
// request.
const askHarness = `
import json, sys, types
sys.path.insert(0, sys.argv[1])
from harness.answers import Unfit
from harness.languages import entry_point, server_command
from harness.warmstart import Warm
opts = types.SimpleNamespace(warm=sys.argv[1])
out = {}
for path in json.loads(sys.argv[2]):
    try:
        entry = ["<self>" if a == sys.executable else a for a in entry_point(path)[0]]
    except Unfit as exc:
        entry = str(exc)
    out[path] = {"entry": entry, "server": server_command(path), "warm": Warm.fits(path, opts)}
print(json.dumps(out))
`

type harnessView struct {
	Entry  any      `json:"entry"` // argv, or the Unfit message
	Server []string `json:"server"`
	Warm   bool     `json:"warm"`
}

// TestLanguagesAgree: what the harness runs, serves and starts ahead, and
// its words for a bot it cannot run, are what the Go table says, for every
// language and folder marker of the table. It fails when the harness keeps
// a list of its own.
func TestLanguagesAgree(t *testing.T) {
	dir := t.TempDir()
	opt := filepath.Join(dir, "opt")
	if err := writeJudge(opt); err != nil {
		t.Fatal(err)
	}
	// write makes folder/name, each in a folder of its own, and returns
	// the file's path.
	write := func(folder, name string, mode os.FileMode) string {
		path := filepath.Join(dir, folder, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x\n"), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	argv := func(args ...string) []any {
		var out []any
		for _, a := range args {
			if a == selfInterpreter {
				a = "<self>"
			}
			out = append(out, a)
		}
		return out
	}
	want := map[string]harnessView{}
	for _, l := range Languages {
		file := write("file"+l.Ext, "bot"+l.Ext, 0o644)
		if l.Interpreter == "" {
			want[file] = harnessView{Entry: "the file is not executable and is not a " + JoinOr(Exts(false)) + " file"}
			continue
		}
		want[file] = harnessView{Entry: argv(l.Interpreter, file), Warm: l.Warm != ""}
		main := write("main"+l.Ext, MainStem+l.Ext, 0o644)
		want[filepath.Dir(main)] = harnessView{Entry: argv(l.Interpreter, main), Warm: l.Warm != ""}
	}
	script := write("script", RunScript, 0o644)
	want[filepath.Dir(script)] = harnessView{Entry: argv(shell, script)}
	exe := write("exe", RunScript, 0o755)
	want[filepath.Dir(exe)] = harnessView{Entry: argv(exe)}
	noEntry := "the folder has no " + strings.Join(append([]string{RunScript}, MainFiles()...), ", ") + " or executable " + MainStem + ".*"
	for _, s := range Servers {
		file := write("serve-"+s.File, s.File, 0o644)
		v := harnessView{Entry: noEntry}
		for _, a := range s.Argv {
			v.Server = append(v.Server, strings.NewReplacer("{file}", file, "{dir}", filepath.Dir(file)).Replace(a))
		}
		want[filepath.Dir(file)] = v
	}
	got := askHarnessAbout(t, opt, want)
	for path, w := range want {
		if !reflect.DeepEqual(got[path], w) {
			t.Errorf("%s:\nthe harness: %+v\nthe table:   %+v", strings.TrimPrefix(path, dir), got[path], w)
		}
	}
}

func askHarnessAbout(t *testing.T, opt string, bots map[string]harnessView) map[string]harnessView {
	t.Helper()
	var paths []string
	for p := range bots {
		paths = append(paths, p)
	}
	list, _ := json.Marshal(paths)
	out, err := exec.Command("python3", "-I", "-c", askHarness, opt, string(list)).Output()
	if err != nil {
		t.Fatalf("asking the harness: %v", err)
	}
	var got map[string]harnessView
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the harness's answer %s: %v", out, err)
	}
	return got
}
