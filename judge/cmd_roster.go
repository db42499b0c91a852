package main

import (
	"context"
	"encoding/csv"
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
	csvFile := fs.String("csv", "", "add the names of this CSV `file` (first column; a first line \"name\" or \"nom\" is skipped)")
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
	case "add", "reset":
	default:
		return usagef("unknown roster command %q: use add, reset, or nothing to print the roster", sub)
	}
	names, err := rosterNames(sub, fs.Args(), *csvFile)
	if err != nil {
		return err
	}
	return withStore(c.db, true, func(db *results.DB) error {
		var slips []slip
		if sub == "reset" {
			slips, err = resetCode(ctx, db, names[0], *url)
		} else {
			slips, err = addStudents(ctx, db, names, *url, stderr)
		}
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

// rosterNames are the names given to roster add or reset, and those of the
// CSV file, checked.
func rosterNames(sub string, names []string, csvFile string) ([]string, error) {
	if csvFile != "" {
		more, err := readNames(csvFile)
		if err != nil {
			return nil, err
		}
		names = append(names, more...)
	}
	if sub == "reset" && len(names) != 1 {
		return nil, usagef("give one name, e.g. judge roster reset alice (or organiser)")
	}
	if sub == "add" && len(names) == 0 {
		return nil, usagef("give names, e.g. judge roster add alice bob, or --csv class.csv")
	}
	for _, n := range names {
		if sub == "reset" && n == results.OrganiserName {
			continue
		}
		if err := handin.ValidName(n); err != nil {
			return nil, usagef("%v", err)
		}
	}
	return names, nil
}

// resetCode gives name a new code: its slip.
func resetCode(ctx context.Context, db *results.DB, name, url string) ([]slip, error) {
	code := handin.NewCode()
	if err := db.SetCode(ctx, name, results.HashCode(code)); err != nil {
		if errors.Is(err, results.ErrNotFound) {
			return nil, fmt.Errorf("%s is not on the roster: judge roster add %s", name, name)
		}
		return nil, err
	}
	return []slip{{name, code, url}}, nil
}

// addStudents puts names on the roster, each with a code, skipping those
// already on it: their slips.
func addStudents(ctx context.Context, db *results.DB, names []string, url string, stderr io.Writer) ([]slip, error) {
	var slips []slip
	// The organiser's own code comes with the first roster.
	code := handin.NewCode()
	if _, err := db.AddStudent(ctx, results.OrganiserName, results.HashCode(code), true); err == nil {
		slips = append(slips, slip{results.OrganiserName, code, url})
	} else if !errors.Is(err, results.ErrTaken) {
		return nil, err
	}
	for _, n := range names {
		code := handin.NewCode()
		if _, err := db.AddStudent(ctx, n, results.HashCode(code), false); errors.Is(err, results.ErrTaken) {
			fmt.Fprintf(stderr, "judge roster: %s is already on the roster: skipped (judge roster reset %s gives a new code)\n", n, n)
			continue
		} else if err != nil {
			return nil, err
		}
		slips = append(slips, slip{n, code, url})
	}
	return slips, nil
}

// printSlips prints the codes, shown this once, and writes them as a
// sheet of slips when asked.
func printSlips(stdout io.Writer, slips []slip, sheet string) error {
	fmt.Fprintln(stdout, "Codes are shown now only: the roster keeps their hashes. Print or keep this.")
	for _, s := range slips {
		fmt.Fprintf(stdout, "%-24s %s\n", s.Name, s.Code)
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

type slip struct{ Name, Code, URL string }

// slipSheet is a page of slips, several to a printed page.
var slipSheet = template.Must(template.New("").Parse(`<!doctype html><html><head><meta charset="utf-8"><title>botjudge: hand-in codes</title>
<style>body{font:14pt sans-serif}.slip{display:inline-block;width:45%;margin:.3em;padding:.6em;border:1px dashed #888;break-inside:avoid}
.code{font:bold 18pt monospace;letter-spacing:.1em}</style></head><body>
{{range .}}<div class="slip"><div>botjudge · hand-in / rendu</div><div>{{.URL}}</div>
<div>Name / Nom : <b>{{.Name}}</b></div><div>Code : <span class="code">{{.Code}}</span></div></div>
{{end}}</body></html>
`))

// readNames reads the first column of a CSV file of names.
func readNames(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var names []string
	for i, row := range rows {
		if len(row) == 0 || strings.TrimSpace(row[0]) == "" {
			continue
		}
		n := strings.TrimSpace(row[0])
		if i == 0 && (strings.EqualFold(n, "name") || strings.EqualFold(n, "nom")) {
			continue
		}
		names = append(names, n)
	}
	return names, nil
}

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
	fmt.Fprint(tw, "student")
	for _, g := range names {
		fmt.Fprintf(tw, "\t%s", g)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprint(tw, r.Student.Name)
		for _, c := range r.Cells {
			if c.Last == nil {
				fmt.Fprint(tw, "\t-")
				continue
			}
			ready := ""
			if rep, err := handin.ReadReport(*c.Last); err == nil && c.Last.Status == results.StatusDone {
				ready = map[bool]string{true: " READY", false: " NOT READY"}[rep.Ready]
			}
			fmt.Fprintf(tw, "\t%s %s%s, %d versions", c.Last.At.Local().Format("01-02 15:04"), c.Last.Status, ready, c.Versions)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
