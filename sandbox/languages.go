package sandbox

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// Language is one language a bot may be written in, described once for the
// whole judge: which files are its bots (discovery), how the build
// container compiles them (Build), how the harness runs them, and its name
// for people. The harness reads the part it needs from languages.json,
// which harnessFiles writes from this table.
type Language struct {
	Name string // for people: "Python", "C++"
	Ext  string // of a single-file bot, and of a folder bot's main.<Ext>
	// Interpreter runs the bot's file; "" for a compiled language. The
	// harness's own interpreter (python3) runs as the harness's binary.
	Interpreter string
	// Warm names the hook that starts the interpreter ahead of its request
	// (warm.py, warm.js): "python", "node", or "" when it has none.
	Warm string
	// Build are the build script's lines that compile "$1", a file in the
	// current folder, into /tmp/out, a folder bot (an executable main, or
	// run.sh); nil for an interpreted language.
	Build []string
	// Word names the language in a run.sh, for the reader (judge bench).
	Word string
}

// Languages are the languages of single-file and folder bots, in the order
// the harness looks for a folder's main.<ext>.
var Languages = []Language{
	{Name: "Python", Ext: ".py", Interpreter: selfInterpreter, Warm: "python", Word: "python"},
	{Name: "Node.js", Ext: ".js", Interpreter: "node", Warm: "node", Word: "node"},
	// coffee is a Node.js script: Node.js waits, then coffee compiles.
	{Name: "CoffeeScript", Ext: ".coffee", Interpreter: "coffee", Warm: "node", Word: "coffee"},
	{Name: "PHP", Ext: ".php", Interpreter: "php", Word: "php"},
	{Name: "C", Ext: ".c", Build: []string{`gcc -O2 -std=gnu17 -o /tmp/out/main "$1" -lm`}},
	{Name: "C++", Ext: ".cpp", Build: []string{`g++ -O2 -std=gnu++17 -o /tmp/out/main "$1"`}},
	{Name: "Java", Ext: ".java", Word: "java", Build: []string{
		`javac -encoding UTF-8 -d /tmp/out "$1"`,
		`printf '#!/bin/sh\nexec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp "$(dirname "$0")" %s "$@"\n' "${1%.java}" > /tmp/out/run.sh`,
		`chmod 755 /tmp/out/run.sh`,
	}},
	{Name: "OCaml", Ext: ".ml", Build: []string{`ocamlopt -I +str -I +unix str.cmxa unix.cmxa -o /tmp/out/main "$1"`}},
}

// The files that make a folder a bot, besides main.<ext> of an interpreted
// language and the servers' files.
const (
	// RunScript is a folder program's command: run as is when executable,
	// else by the shell.
	RunScript = "run.sh"
	// BuildScript makes a folder a compiled bot: the build runs it in a copy
	// of the folder, which then has run.sh or an executable main.
	BuildScript = "build.sh"
	// MainStem names a folder's main.<ext>, or its executable main or main.*.
	MainStem = "main"
	// selfInterpreter is the harness's own: Local starts the harness with it,
	// and the harness runs Python bots with its own binary.
	selfInterpreter = "python3"
	shell           = "sh"
)

// Server is the file of a folder bot that serves HTTP (SPEC §3), played
// when the folder has no program entry (run.sh, main.*).
type Server struct {
	File string
	// Argv starts it, in the folder: {file} is the file's path, {dir} the
	// folder's, {port} the port it must listen on.
	Argv []string
}

// Servers are tried in this order.
var Servers = []Server{
	{File: "serve.sh", Argv: []string{shell, "{file}"}},
	// PHP's built-in server runs index.php for every path, as the web
	// server behind a botsArena bot did.
	{File: "index.php", Argv: []string{"php", "-S", "127.0.0.1:{port}", "-t", "{dir}"}},
}

// LanguageOf is the language of a single-file bot, by its extension.
func LanguageOf(name string) (Language, bool) {
	ext := filepath.Ext(name)
	for _, l := range Languages {
		if l.Ext == ext {
			return l, true
		}
	}
	return Language{}, false
}

// Exts are the extensions of the interpreted languages, and of the
// compiled ones too when compiled is set.
func Exts(compiled bool) []string {
	var exts []string
	for _, l := range Languages {
		if l.Interpreter != "" || compiled {
			exts = append(exts, l.Ext)
		}
	}
	return exts
}

// MainFiles are the main.<ext> of the interpreted languages, in the order
// the harness looks for them.
func MainFiles() []string {
	var files []string
	for _, ext := range Exts(false) {
		files = append(files, MainStem+ext)
	}
	return files
}

// ServerFiles are the files of the Servers, in order.
func ServerFiles() []string {
	var files []string
	for _, s := range Servers {
		files = append(files, s.File)
	}
	return files
}

// JoinOr joins words as prose: "a, b or c".
func JoinOr(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// harnessLanguages is languages.json: what the harness needs of the table,
// and its words for a bot it cannot run, which name the table's files.
func harnessLanguages() string {
	type interpreted struct {
		Ext         string `json:"ext"`
		Interpreter string `json:"interpreter"`
		Warm        string `json:"warm,omitempty"`
	}
	type server struct {
		File string   `json:"file"`
		Argv []string `json:"argv"`
	}
	t := struct {
		Self        string            `json:"self"`
		Shell       string            `json:"shell"`
		Script      string            `json:"script"`
		Main        string            `json:"main"`
		Interpreted []interpreted     `json:"interpreted"`
		Servers     []server          `json:"servers"`
		Unfit       map[string]string `json:"unfit"`
	}{Self: selfInterpreter, Shell: shell, Script: RunScript, Main: MainStem, Unfit: map[string]string{
		"folder": "the folder has no " + strings.Join(append([]string{RunScript}, MainFiles()...), ", ") + " or executable " + MainStem + ".*",
		"file":   "the file is not executable and is not a " + JoinOr(Exts(false)) + " file",
	}}
	for _, l := range Languages {
		if l.Interpreter != "" {
			t.Interpreted = append(t.Interpreted, interpreted{l.Ext, l.Interpreter, l.Warm})
		}
	}
	for _, s := range Servers {
		t.Servers = append(t.Servers, server(s))
	}
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		panic(err) // a table of strings always marshals
	}
	return string(data) + "\n"
}

// buildCases are the build script's case arms, one per compiled language,
// and last a folder with its build.sh.
func buildCases() string {
	var b strings.Builder
	for _, l := range Languages {
		if l.Build != nil {
			b.WriteString("*" + l.Ext + ")\n\t" + strings.Join(l.Build, "\n\t") + " ;;\n")
		}
	}
	b.WriteString("*)\n\tcp -R \"$src/.\" /tmp/out/\n\tcd /tmp/out\n\tsh ./" + BuildScript + " ;;\n")
	return b.String()
}
