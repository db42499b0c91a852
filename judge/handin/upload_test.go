package handin

import (
	"strings"
	"testing"

	"botjudge/games"
	"botjudge/sandbox"
)

// A hand-in takes every language the sandbox runs, and its refusals name
// them all, from the sandbox's one table; a Java file is built by the
// sandbox's own lines.
func TestHandInReadsTheSandboxLanguages(t *testing.T) {
	for _, l := range sandbox.Languages {
		kind, _, _, err := prepare("bot"+strings.ToUpper(l.Ext), []byte("class Bot {}\n"), games.ProtocolProgram)
		if err != nil || kind == "" {
			t.Errorf("%s: a %s file is refused: %v", l.Name, l.Ext, err)
		}
		if !strings.Contains(notABot[0], l.Ext) || !strings.Contains(notABot[1], l.Ext) {
			t.Errorf("the refusal of a file that is no bot does not name %s: %q", l.Ext, notABot)
		}
	}
	for _, entry := range append(sandbox.MainFiles(), sandbox.RunScript, sandbox.BuildScript) {
		if !strings.Contains(noEntry[0], entry) || !strings.Contains(noEntry[1], entry) {
			t.Errorf("the refusal of a folder with no entry does not name %s: %q", entry, noEntry)
		}
	}
	files, err := javaFolder([]byte("public class Checker {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	java, _ := sandbox.LanguageOf(".java")
	if build := string(files[1].data); !strings.Contains(build, "set -- Checker.java\n"+strings.Join(java.Build, "\n")) {
		t.Errorf("a Java file's build.sh is not the sandbox's build of it:\n%s", build)
	}
}
