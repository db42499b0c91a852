package handin

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"botjudge/results"
)

// botName is the entry of a student's bot in its game folder: the
// student's name, with the extension that tells its language.
func botName(student string, h results.HandIn) string {
	if h.Kind == "folder" {
		return student
	}
	return student + h.Ext
}

// install makes version h the student's bot in gameDir, atomically: it is
// written beside, under a hidden name that discovery skips, then renamed
// over the old one (a folder swapped with it), so that a run never sees
// half a bot. The student's other entries (the bot in another language)
// are removed after.
func install(gameDir, student string, h results.HandIn) error {
	if err := os.MkdirAll(gameDir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(gameDir, ".handin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fresh := filepath.Join(tmp, "bot")
	if err := materialise(fresh, h); err != nil {
		return err
	}
	name := botName(student, h)
	target := filepath.Join(gameDir, name)
	if err := replace(fresh, target, tmp); err != nil {
		return err
	}
	return removeOthers(gameDir, student, name)
}

// replace puts fresh at target.
func replace(fresh, target, tmp string) error {
	old, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return os.Rename(fresh, target)
	}
	if err != nil {
		return err
	}
	newInfo, err := os.Lstat(fresh)
	if err != nil {
		return err
	}
	if !old.IsDir() && !newInfo.IsDir() {
		return os.Rename(fresh, target) // a file over a file: atomic
	}
	if exchange(fresh, target) {
		return nil // the old one is now in tmp, removed with it
	}
	if err := os.Rename(target, filepath.Join(tmp, "old")); err != nil {
		return err
	}
	return os.Rename(fresh, target)
}

// removeOthers removes the student's entries in gameDir but keep: a name
// is the student's when it is their name, or their name and one extension.
func removeOthers(gameDir, student, keep string) error {
	des, err := os.ReadDir(gameDir)
	if err != nil {
		return err
	}
	var errs []error
	for _, de := range des {
		n := de.Name()
		if n == keep || !isStudents(n, student) {
			continue
		}
		errs = append(errs, os.RemoveAll(filepath.Join(gameDir, n)))
	}
	return errors.Join(errs...)
}

func isStudents(entry, student string) bool {
	if entry == student {
		return true
	}
	ext, ok := strings.CutPrefix(entry, student+".")
	return ok && ext != "" && !strings.Contains(ext, ".")
}

// uninstall removes the student's bot from gameDir.
func uninstall(gameDir, student string) error { return removeOthers(gameDir, student, "") }

// materialise writes h's content at dst: the file, or the folder unpacked
// from the tar the database keeps (written by packTar, checked on the way
// in, and read here as carefully again).
func materialise(dst string, h results.HandIn) error {
	if h.Kind != "folder" {
		mode := fs.FileMode(0o644)
		if h.Ext == "" {
			mode = 0o755 // a script with a shebang runs directly
		}
		if err := os.WriteFile(dst, h.Content, mode); err != nil {
			return err
		}
		return os.Chmod(dst, mode)
	}
	files, err := untar(h.Content)
	if err != nil {
		return err
	}
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dst, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		if err := os.WriteFile(p, f.data, mode); err != nil {
			return err
		}
		if err := os.Chmod(p, mode); err != nil {
			return err
		}
	}
	return nil
}

// tarFiles lists a kept folder's files, for the version's page.
func tarFiles(content []byte) []string {
	var names []string
	tr := tar.NewReader(bytes.NewReader(content))
	for {
		h, err := tr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				names = append(names, "…")
			}
			return names
		}
		if h.Typeflag == tar.TypeReg {
			names = append(names, h.Name)
		}
	}
}
