package contest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Stage copies a bot into root/<key>/, under a fixed name (bot.py, bot.js,
// bot, or the folder bot/), and returns the staged path. Games run the staged
// copy, never the submission itself: what runs is exactly what was hashed even
// if the student saves the file again mid-tournament, the sandbox's
// unprivileged user can read it whatever the submitted file's modes, and odd
// submitted names (spaces, accents, a leading dash) never reach a command line.
//
// The key is the content's hash and the staged name together: students who
// copy one example under two extensions (a.py and b, two empty files a.js and
// b.py) have the same content staged as two different bots, while the same
// file in two games or under two names is staged once.
//
// The copy stays while this process lives: it is written in the process's
// lease (see lease.go) before it is looked for, so that no Prune, of this
// judge or of another on another database, removes it under a game.
func Stage(root string, e Entry) (string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	unlock, err := lockStage(root, false)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := lease(root, stageKey(e)); err != nil {
		return "", err
	}
	dir := filepath.Join(root, stageKey(e))
	target := filepath.Join(dir, stagedName(e))
	if _, err := os.Stat(target); err == nil {
		return target, nil // content-addressed: an existing copy is this content
	}
	tmp, err := os.MkdirTemp(root, stagingPrefix)
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
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(target); statErr != nil {
			return "", fmt.Errorf("staging %s: %w", e.Source, err)
		}
	}
	return target, nil
}

// stagingPrefix names the folders of copies in progress, which Prune leaves.
const stagingPrefix = ".staging-"

// stagedName is the bot's fixed name in its staged folder. A Java file
// keeps its own: javac wants the public class's name there.
func stagedName(e Entry) string {
	if e.Kind == "folder" {
		return "bot"
	}
	if base := filepath.Base(e.Source); javaFile.MatchString(base) {
		return base
	}
	return "bot" + filepath.Ext(e.Source)
}

// javaFile is a Java source named after a class: safe on any command line.
var javaFile = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\.java$`)

// stageKey names a bot's staged folder: its hash, then its staged name.
func stageKey(e Entry) string { return e.SHA256 + "-" + stagedName(e) }

// Prune removes the staged bots under root whose content no longer belongs to
// any bot in use (inUse holds the SHA-256 of every current entry of the
// caller's tournaments), and returns how many it removed. A copy that a
// living judge process staged is kept whatever its content: a tournament on
// another database in the same folder, a `judge check` or a `judge serve`
// beside the run may be playing it, however long ago it was staged.
func Prune(root string, inUse map[string]bool) (int, error) {
	unlock, err := lockStage(root, true)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer unlock()
	leased, err := leasedKeys(root)
	if err != nil {
		return 0, err
	}
	des, err := os.ReadDir(root)
	if err != nil {
		return 0, err
	}
	removed := 0
	var errs []error
	for _, de := range des {
		sum, _, _ := strings.Cut(de.Name(), "-")
		// Dot names are the copies in progress and the leases.
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") || inUse[sum] || leased[de.Name()] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, de.Name())); err != nil {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
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
