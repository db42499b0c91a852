// Package contest turns a folder of submissions into a played tournament:
// it finds and stages the bots, checks them, chooses the games by the
// format's scheduler (round robin, swiss, heats), plays each through the
// match pipeline that every other caller (hand-in, arena, bench) uses too,
// and records it. It knows the games, the sandbox and the results store only
// through the small interfaces declared here.
package contest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"botjudge/games"
	"botjudge/sandbox"
	"botjudge/sandbox/httpbot"
)

// Entry is one bot found in a game folder.
type Entry struct {
	Name   string // what standings show: the file stem, or the file name when two stems collide
	Source string // the submitted file or folder
	SHA256 string // of the content (a folder: of every file's path, mode and content)
	Kind   string // "file" or "folder"
}

// Notice is something the organiser should know about a submission that was
// skipped or renamed; discovery never fails because of one bad file.
type Notice struct {
	Path string
	Text string
}

func (n Notice) String() string { return n.Path + ": " + n.Text }

// The notices' lists of what a bot may be, from the sandbox's table of
// languages.
var (
	folderBots = "a folder without " + strings.Join(append([]string{sandbox.RunScript, sandbox.BuildScript}, sandbox.ServerFiles()...), ", ") +
		" or " + sandbox.MainStem + strings.Join(sandbox.Exts(false), ", ")
	fileBots = "a " + sandbox.JoinOr(sandbox.Exts(true)) + " file, a script starting with #!, or a folder with " +
		sandbox.RunScript + " or " + sandbox.BuildScript
)

// Discover lists the bots of one game folder. protocol is the game's
// (games.ProtocolIA: Python modules only; games.ProtocolProgram: scripts,
// executables with a shebang, folders with run.sh or main.*, and name.url
// files). A name.url file is a bot reached by URL, not sandboxed: it is a
// bot only when urlBots says the organiser allows them.
func Discover(dir, protocol string, urlBots bool) ([]Entry, []Notice, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var found []Entry
	var notices []Notice
	for _, de := range des {
		name := de.Name()
		path := filepath.Join(dir, name)
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") {
			continue // editor and system leftovers (.DS_Store, .gitkeep, backups)
		}
		if !utf8.ValidString(name) {
			notices = append(notices, Notice{path, "the file name is not valid UTF-8: rename it"})
			continue
		}
		if why := linkOutside(dir, path); why != "" {
			notices = append(notices, Notice{path, why})
			continue
		}
		info, err := os.Stat(path) // a link to a bot in the folder is a bot
		if err != nil {
			notices = append(notices, Notice{path, fmt.Sprintf("cannot read it (%v): skipped", unwrapPath(err))})
			continue
		}
		e, why := classify(path, info, protocol, urlBots)
		if why != "" {
			notices = append(notices, Notice{path, why})
			continue
		}
		sum, err := hashBot(path, info)
		if err != nil {
			notices = append(notices, Notice{path, fmt.Sprintf("cannot read it (%v): skipped", unwrapPath(err))})
			continue
		}
		e.SHA256 = sum
		found = append(found, e)
	}
	found, renamed := uniqueNames(found)
	notices = append(notices, renamed...)
	return found, notices, nil
}

// linkOutside says why path, a symbolic link, must not be followed: it
// leads outside the game folder (an unpacked archive's link to /etc/passwd
// would hand the host's file to the sandbox and its first line to the bot's
// error message). "" when path is not a link, or stays inside.
func linkOutside(dir, path string) string {
	if info, err := os.Lstat(path); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	folder, err1 := filepath.EvalSymlinks(dir)
	target, err2 := filepath.EvalSymlinks(path)
	if err1 != nil || err2 != nil {
		return "a symbolic link that leads nowhere: skipped"
	}
	if rel, err := filepath.Rel(folder, target); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "a symbolic link to a file outside the game folder: skipped, never followed (copy the bot into the folder)"
	}
	return ""
}

func classify(path string, info fs.FileInfo, protocol string, urlBots bool) (Entry, string) {
	name := info.Name()
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	if info.IsDir() {
		if protocol == games.ProtocolIA {
			return Entry{}, "a folder: this game's bots are single .py files, skipped"
		}
		if entry := folderEntry(path); entry == "" {
			return Entry{}, folderBots + ": skipped"
		}
		return Entry{Name: name, Source: path, Kind: "folder"}, ""
	}
	if !info.Mode().IsRegular() {
		return Entry{}, "not a regular file: skipped"
	}
	if stem == "" {
		return Entry{}, "no name before the extension: rename it"
	}
	switch {
	case protocol == games.ProtocolIA && ext == ".py":
	case protocol == games.ProtocolIA:
		return Entry{}, "not a Python file: this game's bots are name.py files, skipped"
	case httpbot.ByURL(name):
		return urlEntry(path, stem, urlBots)
	case isLanguage(name):
	case hasShebang(path):
		stem = name
	default:
		return Entry{}, "not a bot (" + fileBots + "): skipped"
	}
	return Entry{Name: stem, Source: path, Kind: "file"}, ""
}

// urlEntry is a bot reached by URL, which plays only when allowed: nothing
// protects the judge's network from where it leads, nor vouches for who
// answers there.
func urlEntry(path, stem string, allowed bool) (Entry, string) {
	u, err := httpbot.ReadURL(path)
	switch {
	case errors.Is(err, httpbot.ErrNotURL):
		return Entry{}, err.Error() + ": skipped"
	case err != nil:
		return Entry{}, fmt.Sprintf("cannot read it (%v): skipped", unwrapPath(err))
	case !allowed:
		return Entry{}, fmt.Sprintf("a bot reached by URL (%s), not sandboxed: skipped; it plays only if the organiser allows it with --allow-url-bots", u.Redacted())
	}
	return Entry{Name: stem, Source: path, Kind: "file"}, ""
}

// folderEntry names the file a folder bot starts from, "" when it has none.
func folderEntry(dir string) string {
	for _, n := range slices.Concat([]string{sandbox.RunScript}, sandbox.MainFiles(), []string{sandbox.BuildScript}, sandbox.ServerFiles()) {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.Mode().IsRegular() {
			return n
		}
	}
	return ""
}

func isLanguage(name string) bool {
	_, ok := sandbox.LanguageOf(name)
	return ok
}

func hasShebang(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := io.ReadFull(f, head)
	return n == 2 && string(head) == "#!"
}

// uniqueNames keeps names unique: when two bots share a stem (a.py and a.js),
// both are named by their file name instead, so neither silently hides the
// other.
func uniqueNames(es []Entry) ([]Entry, []Notice) {
	count := map[string]int{}
	for _, e := range es {
		count[strings.ToLower(e.Name)]++
	}
	var notices []Notice
	for i, e := range es {
		if count[strings.ToLower(e.Name)] > 1 {
			es[i].Name = filepath.Base(e.Source)
			notices = append(notices, Notice{e.Source, fmt.Sprintf("another bot is also named %q: this one plays as %q", e.Name, es[i].Name)})
		}
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	return es, notices
}

// hashBot is the bot's identity: a changed file is a new version.
func hashBot(path string, info fs.FileInfo) (string, error) {
	h := sha256.New()
	if !info.IsDir() {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if _, err := io.Copy(h, f); err != nil {
			return "", err
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%o\x00", filepath.ToSlash(rel), fi.Mode()&(fs.ModeDir|0o111))
		if !fi.Mode().IsRegular() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// unwrapPath drops the path from an error that the notice already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
