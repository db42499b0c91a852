package main

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"botjudge/games"
	"botjudge/judge/handin"
	"botjudge/results"
)

// cmdRoster keeps the hand-in's roster: `judge roster add NAME...` gives
// each student a code, `judge roster reset NAME` a new one, and `judge
// roster` alone prints who handed in what.
func cmdRoster(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := newFlags("roster "+sub, stderr)
	var c common
	addStore(fs, &c)
	csvFile := fs.String("csv", "", "add the names of this class list `file`: a header line (\"nom;prénom\", \"last name,first name\" or \"name\"), ; or , separated, UTF-8")
	sheet := fs.String("sheet", "", "also write the slips as a printable HTML `file`, one per code, to cut and hand out")
	url := fs.String("url", "http://<this machine>:8080/hand-in/", "the hand-in page's `address`, printed on the slips")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch sub {
	case "":
		if fs.NArg() > 0 {
			return usagef("judge roster takes no names: judge roster add NAME..., judge roster reset NAME")
		}
		return withStore(c.db, false, func(db *results.DB) error { return printRoster(ctx, stdout, db) })
	case "reset":
		if fs.NArg() != 1 || *csvFile != "" {
			return usagef(`give one name, e.g. judge roster reset "Zoé Martin" (or organiser)`)
		}
		return withStore(c.db, true, func(db *results.DB) error {
			slips, err := resetCode(ctx, db, fs.Arg(0), *url)
			if err != nil {
				return err
			}
			return printSlips(stdout, slips, *sheet)
		})
	case "add":
	default:
		return usagef("unknown roster command %q: use add, reset, or nothing to print the roster", sub)
	}
	adds, err := rosterAdds(fs.Args(), *csvFile)
	if err != nil {
		return err
	}
	return withStore(c.db, true, func(db *results.DB) error {
		slips, err := addStudents(ctx, db, adds, *url, stderr)
		if err != nil {
			return err
		}
		return printSlips(stdout, slips, *sheet)
	})
}

// withStore calls do with the database at path, open while it runs.
func withStore(path string, write bool, do func(*results.DB) error) error {
	db, err := openStore(path, write)
	if err != nil {
		return err
	}
	defer db.Close()
	return do(db)
}

// rosterAdd is a name to put on the roster: as written, its bot's file
// name, and where it was given (a line of the class list).
type rosterAdd struct{ display, file, from string }

// rosterAdds are the names given to roster add and those of the class
// list, checked.
func rosterAdds(args []string, csvFile string) ([]rosterAdd, error) {
	var adds []rosterAdd
	add := func(written, from string) error {
		display, file, err := handin.ParseName(written)
		if err != nil {
			return usagef("%s%v", from, err)
		}
		adds = append(adds, rosterAdd{display, file, from})
		return nil
	}
	for _, a := range args {
		if err := add(a, ""); err != nil {
			return nil, err
		}
	}
	if csvFile != "" {
		list, err := readClassList(csvFile)
		if err != nil {
			return nil, err
		}
		for _, l := range list {
			if err := add(l.Name, fmt.Sprintf("%s line %d: ", csvFile, l.Line)); err != nil {
				return nil, err
			}
		}
	}
	if len(adds) == 0 {
		return nil, usagef(`give names, e.g. judge roster add "Zoé Martin" "Jean-Luc Picard", or --csv class.csv`)
	}
	return adds, nil
}

func readClassList(path string) ([]handin.Listed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := handin.ReadClassList(f)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return list, nil
}

// resetCode gives the student typed a new code: its slip.
func resetCode(ctx context.Context, db *results.DB, typed, url string) ([]slip, error) {
	for _, n := range handin.NameForms(typed) {
		st, err := db.StudentNamed(ctx, n)
		if errors.Is(err, results.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		code := handin.NewCode()
		if err := db.SetCode(ctx, st.Name, results.HashCode(code)); err != nil {
			return nil, err
		}
		return []slip{{st.Display, st.Name, code, url}}, nil
	}
	return nil, fmt.Errorf("%s is not on the roster: judge roster add %q", typed, typed)
}

// planAdds are the names of adds to put on the roster: those already on it
// under the same name are skipped (a class list given again), and two names
// that would make one bot file ("Zoé Martin" and "Zoe Martin", or two
// "Lucas Martin") are refused, nothing added: which of them is which bot
// is the organiser's to say.
func planAdds(onRoster []results.Student, adds []rosterAdd) (todo []rosterAdd, skipped []string, err error) {
	type holder struct {
		display, from string
		onRoster      bool
	}
	byFile := map[string]holder{}
	for _, st := range onRoster {
		byFile[strings.ToLower(st.Name)] = holder{st.Display, "already on the roster", true}
		byFile[handin.FileName(st.Display)] = holder{st.Display, "already on the roster", true}
	}
	for _, a := range adds {
		k := strings.ToLower(a.file)
		h, taken := byFile[k]
		switch {
		case !taken:
			byFile[k] = holder{a.display, strings.TrimSuffix(a.from, ": "), false}
			todo = append(todo, a)
		case h.onRoster && strings.EqualFold(h.display, a.display):
			skipped = append(skipped, a.display)
		default:
			return nil, nil, usagef("%q%s and %q (%s) would both be the bot %s: write one of them apart (add an initial or a number); nothing was added",
				a.display, where(a.from), h.display, h.from, a.file)
		}
	}
	return todo, skipped, nil
}

// where is " (class.csv line 4)" for a name of a class list.
func where(from string) string {
	if from == "" {
		return ""
	}
	return " (" + strings.TrimSuffix(from, ": ") + ")"
}

// addStudents puts the names on the roster, each with a code, skipping
// those already on it: their slips.
func addStudents(ctx context.Context, db *results.DB, adds []rosterAdd, url string, stderr io.Writer) ([]slip, error) {
	onRoster, err := db.Students(ctx)
	if err != nil {
		return nil, err
	}
	todo, skipped, err := planAdds(onRoster, adds)
	if err != nil {
		return nil, err
	}
	for _, n := range skipped {
		fmt.Fprintf(stderr, "judge roster: %s is already on the roster: skipped (judge roster reset %q gives a new code)\n", n, n)
	}
	var slips []slip
	// The organiser's own code comes with the first roster.
	code := handin.NewCode()
	if _, err := db.AddStudent(ctx, results.OrganiserName, results.HashCode(code), true); err == nil {
		slips = append(slips, slip{results.OrganiserName, results.OrganiserName, code, url})
	} else if !errors.Is(err, results.ErrTaken) {
		return nil, err
	}
	for _, a := range todo {
		code := handin.NewCode()
		if _, err := db.AddToRoster(ctx, results.Student{Name: a.file, Display: a.display}, results.HashCode(code)); err != nil {
			return nil, err
		}
		slips = append(slips, slip{a.display, a.file, code, url})
	}
	return slips, nil
}

// printSlips prints the codes, shown this once, and writes them as a
// sheet of slips when asked.
func printSlips(stdout io.Writer, slips []slip, sheet string) error {
	if len(slips) == 0 {
		return nil // every name was on the roster already, as stderr says
	}
	fmt.Fprintln(stdout, "Codes are shown now only: the roster keeps their hashes. Print or keep this.")
	tw := tabwriter.NewWriter(stdout, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "NAME\tBOT\tCODE")
	for _, s := range slips {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Bot, s.Code)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if sheet == "" {
		return nil
	}
	f, err := os.OpenFile(sheet, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := slipSheet.Execute(f, slips); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Slips to print and cut: %s\n", sheet)
	return nil
}

// slip is one student's: their name as written, their bot's, their code.
type slip struct{ Name, Bot, Code, URL string }

// slipSheet is a page of slips, several to a printed page.
var slipSheet = template.Must(template.New("").Parse(`<!doctype html><html><head><meta charset="utf-8"><title>botjudge: hand-in codes</title>
<style>body{font:14pt sans-serif}.slip{display:inline-block;width:45%;margin:.3em;padding:.6em;border:1px dashed #888;break-inside:avoid}
.code{font:bold 18pt monospace;letter-spacing:.1em}</style></head><body>
{{range .}}<div class="slip"><div>botjudge · hand-in / rendu</div><div>{{.URL}}</div>
<div>Name / Nom : <b>{{.Name}}</b></div><div>Bot : {{.Bot}}</div><div>Code : <span class="code">{{.Code}}</span></div></div>
{{end}}</body></html>
`))

// printRoster prints every student with, per game handed in for, the last
// version's time, its check's status and the number of versions.
func printRoster(ctx context.Context, w io.Writer, db *results.DB) error {
	all, err := db.HandIns(ctx, 0, "")
	if err != nil {
		return err
	}
	var names []string
	for _, g := range games.Names() {
		if slices.ContainsFunc(all, func(h results.HandIn) bool { return h.Game == g }) {
			names = append(names, g)
		}
	}
	rows, err := handin.Roster(ctx, db, names)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		fmt.Fprintln(w, "No student on the roster: judge roster add NAME...")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "STUDENT\tBOT")
	for _, g := range names {
		fmt.Fprintf(tw, "\t%s", strings.ToUpper(g))
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s", r.Student.Display, r.Student.Name)
		for _, c := range r.Cells {
			fmt.Fprintf(tw, "\t%s", cellText(c))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// cellText is what the tournament plays of one student's game, and their
// last version when it is another: "plays 11-27 10:02 READY (last 10:05
// NOT READY), 3 versions".
func cellText(c handin.Cell) string {
	if c.Versions == 0 {
		return "-"
	}
	s := "none in the tournament"
	if c.Current != nil {
		s = "plays " + versionText(*c.Current)
	}
	if c.Current == nil || c.Current.ID != c.Last.ID {
		s += " (last " + versionText(*c.Last) + ")"
	}
	if c.Versions == 1 {
		return s + ", 1 version"
	}
	return fmt.Sprintf("%s, %d versions", s, c.Versions)
}

// versionText is a version's time and its check: READY, NOT READY, or
// where its check stands.
func versionText(h results.HandIn) string {
	v := map[string]string{"ready": "READY", "broken": "NOT READY"}[handin.Verdict(h)]
	if v == "" {
		v = h.Status
	}
	return h.At.Local().Format("01-02 15:04") + " " + v
}
