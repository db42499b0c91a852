package handin

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"botjudge/games"
	"botjudge/results"
	"botjudge/sandbox"
)

// javaExt is the one language a hand-in does not take as a file: javac
// wants the file named after its class, and a hand-in is named after its
// student (see javaFolder).
const javaExt = ".java"

// fileExts are the one-file bots a hand-in takes, the sandbox's languages
// (as discovery knows them) but Java.
var fileExts = func() map[string]bool {
	exts := map[string]bool{}
	for _, e := range sandbox.Exts(true) {
		exts[e] = e != javaExt
	}
	return exts
}()

// folderEntries are the files a folder bot starts from, as the sandbox
// looks for them.
var folderEntries = slices.Concat([]string{sandbox.RunScript, sandbox.BuildScript}, sandbox.MainFiles(), sandbox.ServerFiles())

// Refusals that name the languages and entry files, written from the
// sandbox's tables so that they name what it runs.
var (
	noEntry = [2]string{
		"the folder has no " + sandbox.JoinOr(folderEntries) + " at its top: add the one your bot starts from",
		"le dossier n'a ni " + joinNi(folderEntries) + " au premier niveau : ajoutez celui par lequel votre bot démarre",
	}
	notABot = [2]string{
		"not a bot: hand in a " + sandbox.JoinOr(sandbox.Exts(true)) + " file, a script starting with #!, or a folder as a .zip or .tar",
		"pas un bot : rendez un fichier " + joinOu(sandbox.Exts(true)) + ", un script commençant par #!, ou un dossier en .zip ou .tar",
	}
)

// joinOu joins words as French prose: "a, b ou c".
func joinOu(words []string) string {
	return strings.Join(words[:len(words)-1], ", ") + " ou " + words[len(words)-1]
}

// joinNi joins words as a French negation: "a, ni b, ni c".
func joinNi(words []string) string { return strings.Join(words, ", ni ") }

// prepare reads what a student uploaded: its name's extension only says
// what it is (a .zip or .tar folder, a .py file...), and becomes the bot's
// extension; the name itself is never used. It returns the version's kind,
// extension and content (a folder as the tar packTar writes).
func prepare(filename string, data []byte, protocol string) (kind, ext string, content []byte, err error) {
	ext = strings.ToLower(path.Ext(strings.ReplaceAll(filename, "\\", "/")))
	switch {
	case ext == ".zip" || ext == ".tar":
		if protocol == games.ProtocolIA {
			return "", "", nil, refused("this game's bots are one .py file: hand in the file itself", "les bots de ce jeu sont un fichier .py : rendez le fichier lui-même")
		}
		files, err := unpack(ext, data)
		if err != nil {
			return "", "", nil, err
		}
		for _, n := range folderEntries {
			for _, f := range files {
				if f.name == n {
					return "folder", "", packTar(files), nil
				}
			}
		}
		return "", "", nil, errRefused{noEntry[0], noEntry[1]}
	case protocol == games.ProtocolIA && ext != ".py":
		return "", "", nil, refused("this game's bots are Python files: hand in a .py file", "les bots de ce jeu sont des fichiers Python : rendez un fichier .py")
	case ext == javaExt:
		files, err := javaFolder(data)
		if err != nil {
			return "", "", nil, err
		}
		return "folder", "", packTar(files), nil
	case fileExts[ext]:
		return "file", ext, data, nil
	case bytes.HasPrefix(data, []byte("#!")):
		return "file", "", data, nil // a script: its first line says how it runs
	}
	return "", "", nil, errRefused{notABot[0], notABot[1]}
}

// ReadReport reads a version's report; none yet is an empty one.
func ReadReport(h results.HandIn) (Report, error) {
	var r Report
	if len(h.Report) == 0 {
		return r, nil
	}
	return r, json.Unmarshal(h.Report, &r)
}

// Verdict is how a version's check ended: "ready", "broken" (checked and
// NOT READY: in a tournament it would lose its games), or "" (not checked,
// or not yet).
func Verdict(h results.HandIn) string {
	if h.Status != results.StatusDone {
		return ""
	}
	if r, err := ReadReport(h); err == nil && r.Ready {
		return "ready"
	}
	return "broken"
}

// javaClass finds the class a Java file is named after: its public class,
// else its first one.
var javaClass = regexp.MustCompile(`(?m)^\s*public\s+(?:(?:final|abstract)\s+)*class\s+([A-Za-z_][A-Za-z0-9_]*)|\bclass\s+([A-Za-z_][A-Za-z0-9_]*)`)

// MaxClassName bounds a Java file's class name: its .class files, inner
// classes' included (Outer$Inner.class), must fit in a file's name.
const MaxClassName = 64

// javaFolder makes a Java file handed in a folder bot: the file under its
// class's name (a name read from the source and made only of letters,
// digits and _), and a build.sh that runs the sandbox's own build of a Java
// file on it: a folder's build.sh runs where the build's program goes, so
// the same lines compile it and write the run.sh that starts it, with the
// same JVM options as a Java file found in submissions/.
func javaFolder(src []byte) ([]file, error) {
	m := javaClass.FindSubmatch(src)
	if m == nil {
		return nil, refused("no class in this Java file", "pas de classe dans ce fichier Java")
	}
	class := string(m[1])
	if class == "" {
		class = string(m[2])
	}
	// javac writes the class beside its source, under its name: a name
	// too long for a file fails the build after the version is stored.
	if len(class) > MaxClassName {
		return nil, refused("the class %s has a name longer than %d letters: shorten it", "la classe %s a un nom de plus de %d lettres : raccourcissez-le", short(class), MaxClassName)
	}
	java, _ := sandbox.LanguageOf(javaExt)
	build := "set -e\nset -- " + class + javaExt + "\n" + strings.Join(java.Build, "\n") + "\n"
	return []file{{name: class + javaExt, data: src}, {name: sandbox.BuildScript, exec: true, data: []byte(build)}}, nil
}
