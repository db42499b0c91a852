package sandbox

import (
	"embed"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// harnessFS is the program that runs inside every sandbox: harness.py (see
// it for its protocol with the judge) and its modules, harness/*.py.
//
//go:embed harness.py harness/*.py
var harnessFS embed.FS

// warmPy is imported as sitecustomize, and warmJS preloaded, by a Python
// or Node.js program bot's process started ahead of its request (see
// harness/warmstart.py).
var (
	//go:embed warm.py
	warmPy string
	//go:embed warm.js
	warmJS string
)

// judgeFiles are the files of judgeDir (the image's /opt/judge, a folder of
// the local runner's), by their path under it: the harness, its modules and
// the table of languages it reads, and the warm start's hooks.
var judgeFiles = func() map[string]string {
	files := map[string]string{
		"harness/languages.json": harnessLanguages(),
		"warm/sitecustomize.py":  warmPy,
		"warm/warm.js":           warmJS,
	}
	err := fs.WalkDir(harnessFS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := harnessFS.ReadFile(path)
		files[path] = string(data)
		return err
	})
	if err != nil {
		panic(err) // embedded files are always there
	}
	return files
}()

// judgePaths are judgeFiles' paths, sorted.
func judgePaths() []string { return slices.Sorted(maps.Keys(judgeFiles)) }

// writeJudge makes dir, a folder that must not exist, with judgeFiles in it.
func writeJudge(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	for _, p := range judgePaths() {
		path := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(judgeFiles[p]), 0o644); err != nil {
			return err
		}
	}
	return nil
}
