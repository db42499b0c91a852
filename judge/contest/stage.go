package contest

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Stage copies a bot into root/<sha256>/, under a fixed name (bot.py, bot.js,
// bot, or the folder bot/), and returns the staged path. Games run the staged
// copy, never the submission itself: what runs is exactly what was hashed even
// if the student saves the file again mid-tournament, the sandbox's
// unprivileged user can read it whatever the submitted file's modes, and odd
// submitted names (spaces, accents, a leading dash) never reach a command line.
func Stage(root string, e Entry) (string, error) {
	dir := filepath.Join(root, e.SHA256)
	target := filepath.Join(dir, "bot"+filepath.Ext(e.Source))
	if e.Kind == "folder" {
		target = filepath.Join(dir, "bot")
	}
	if _, err := os.Stat(target); err == nil {
		return target, nil // content-addressed: an existing copy is this content
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, ".staging-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	staged := filepath.Join(tmp, filepath.Base(target))
	if e.Kind == "folder" {
		err = copyTree(e.Source, staged)
	} else {
		mode := fs.FileMode(0o644)
		if filepath.Ext(e.Source) == "" || hasShebang(e.Source) {
			mode = 0o755 // a script with a shebang (run.sh, bot.sh...) runs directly
		}
		err = copyFile(e.Source, staged, mode)
	}
	if err != nil {
		return "", fmt.Errorf("staging %s: %w", e.Source, err)
	}
	// Renaming the whole folder makes a staged bot appear complete or not at
	// all, even when two judges stage the same bot at once.
	if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
		if _, statErr := os.Stat(target); statErr != nil {
			return "", err
		}
	}
	return target, nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			mode := fs.FileMode(0o644)
			if info.Mode()&0o111 != 0 {
				mode = 0o755
			}
			return copyFile(p, out, mode)
		}
		return nil // links and devices are not copied: a bot cannot point outside itself
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, mode) // the umask must not take the read bits away
}
