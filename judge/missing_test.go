package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A bot whose interpreter the host lacks (PHP under the plain runner) is
// told which program is missing, not "No such file or directory".
func TestMissingInterpreterIsNamed(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin") // what the plain runner needs, no php
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// The interpreter itself, not a launcher (pyenv's shims are scripts).
	python, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skipf("no python3 for the plain runner: %v", err)
	}
	if err := os.Symlink(strings.TrimSpace(string(python)), filepath.Join(bin, "python3")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	writeFile(t, filepath.Join(dir, "lines.php"), `<?php echo '{"play":"0-0"}';`+"\n", 0o644)
	for bot, want := range map[string]string{
		"lines.php": "cannot start the bot: php is not installed here",
	} {
		_, stdout, stderr := judge(t, "check", "--sandbox", "none", "--db", filepath.Join(dir, "j.db"), "--game", "tictactoe", filepath.Join(dir, bot))
		if !strings.Contains(stdout+stderr, want) {
			t.Errorf("%s: no %q in\n%s%s", bot, want, stdout, stderr)
		}
	}
}
