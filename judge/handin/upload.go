package handin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"botjudge/games"
	"botjudge/results"
)

// fileExts are the one-file bots a hand-in takes, as discovery knows them
// (judge/contest). A Java file is not among them: javac wants it named after
// its class, and a hand-in is named after its student (see javaFolder).
var fileExts = map[string]bool{".py": true, ".js": true, ".coffee": true, ".php": true, ".c": true, ".cpp": true, ".ml": true}

// folderEntries are the files a folder bot starts from.
var folderEntries = []string{"run.sh", "main.py", "main.js", "main.coffee", "main.php", "build.sh", "serve.sh", "index.php"}

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
		return "", "", nil, refused("the folder has no run.sh, build.sh, main.py, main.js, main.coffee, main.php or index.php at its top: add the one your bot starts from", "le dossier n'a ni run.sh, ni build.sh, ni main.py, main.js, main.coffee, main.php ou index.php au premier niveau : ajoutez celui par lequel votre bot démarre")
	case protocol == games.ProtocolIA && ext != ".py":
		return "", "", nil, refused("this game's bots are Python files: hand in a .py file", "les bots de ce jeu sont des fichiers Python : rendez un fichier .py")
	case ext == ".java":
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
	return "", "", nil, refused("not a bot: hand in a .py, .js, .coffee, .php, .c, .cpp, .java or .ml file, a script starting with #!, or a folder as a .zip or .tar", "pas un bot : rendez un fichier .py, .js, .coffee, .php, .c, .cpp, .java ou .ml, un script commençant par #!, ou un dossier en .zip ou .tar")
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

// javaFolder makes a Java file handed in a folder bot: the file under its
// class's name (a name read from the source and made only of letters,
// digits and _), and a build.sh that compiles it and writes the run.sh
// that starts it, with the JVM options the sandbox gives a Java file
// found in submissions/.
func javaFolder(src []byte) ([]file, error) {
	m := javaClass.FindSubmatch(src)
	if m == nil {
		return nil, refused("no class in this Java file", "pas de classe dans ce fichier Java")
	}
	class := string(m[1])
	if class == "" {
		class = string(m[2])
	}
	build := fmt.Sprintf(`set -e
javac -encoding UTF-8 -d . %[1]s.java
printf '#!/bin/sh\nexec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp "$(dirname "$0")" %[1]s "$@"\n' > run.sh
chmod 755 run.sh
`, class)
	return []file{{name: class + ".java", data: src}, {name: "build.sh", exec: true, data: []byte(build)}}, nil
}
