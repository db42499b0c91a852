package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"botjudge/results"
	"botjudge/sandbox/httpbot"
)

func cmdStandings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("standings", stderr)
	var c common
	addStore(fs, &c)
	format := fs.String("format", "table", "table, csv or json")
	gamesToo := fs.Bool("games", false, "list the games instead of the standings (csv and json)")
	points := fs.String("points", "", "points for win-draw-loss: 1-0.5-0 or 3-1-0 (default: the tournament's own)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("name at most one game")
	}
	db, err := openStore(c.db, false)
	if err != nil {
		return err
	}
	defer db.Close()
	ts, err := db.Tournaments(ctx)
	if err != nil {
		return err
	}
	shown := 0
	seen := map[string]bool{}
	for _, t := range ts {
		// Tournaments are listed newest first: the latest settings of each
		// game are the contest; older ones stay in the database.
		if seen[t.Game] || (fs.NArg() == 1 && t.Game != fs.Arg(0)) {
			continue
		}
		seen[t.Game] = true
		shown++
		scheme := results.Scheme(*points) // "": the latest run's
		if *points != "" {
			if scheme, err = results.ParseScheme(*points); err != nil {
				return usagef("unknown --points %q: use 1-0.5-0 or 3-1-0", *points)
			}
		}
		if err := showTournament(ctx, db, t, scheme, *format, *gamesToo, stdout); err != nil {
			return err
		}
	}
	if shown == 0 {
		if fs.NArg() == 1 {
			return fmt.Errorf("no %s tournament in %s: run `judge run %s` first", fs.Arg(0), c.db, fs.Arg(0))
		}
		return fmt.Errorf("no tournament in %s yet: run `judge run` (or `make run`) first", c.db)
	}
	return nil
}

func showTournament(ctx context.Context, db *results.DB, t results.Tournament, scheme results.Scheme, format string, gamesToo bool, w io.Writer) error {
	if gamesToo {
		gs, err := db.Games(ctx, t.ID, results.GameFilter{})
		if err != nil {
			return err
		}
		switch format {
		case "csv":
			return results.WriteGamesCSV(w, gs)
		case "json":
			return json.NewEncoder(w).Encode(gs)
		}
		return usagef("--games needs --format csv or json")
	}
	st, err := db.Standings(ctx, t.ID, scheme)
	if err != nil {
		return err
	}
	switch format {
	case "table":
		return printStandings(ctx, w, db, t, st)
	case "csv":
		return results.WriteStandingsCSV(w, st)
	case "json":
		return json.NewEncoder(w).Encode(st)
	}
	return usagef("unknown --format %q: use table, csv or json", format)
}

// printStandings draws the table for a terminal.
func printStandings(ctx context.Context, w io.Writer, db *results.DB, t results.Tournament, st []results.Standing) error {
	played, err := db.Games(ctx, t.ID, results.GameFilter{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s standings (%d bots, %d of %d games)\n", t.Game, len(st), len(played), t.Planned)
	width := 4
	byURL := false
	for _, s := range st {
		width = max(width, len([]rune(shownName(s.Bot))))
		byURL = byURL || httpbot.ByURL(s.Bot.Path)
	}
	// A swiss tournament adds Buchholz (after points, its first tie-break)
	// and the byes.
	swiss := t.Format == results.FormatSwiss
	extra := func(s results.Standing) string {
		if !swiss {
			return ""
		}
		return fmt.Sprintf(" %8.1f %4d", s.Buchholz, s.Byes)
	}
	head := ""
	if swiss {
		head = fmt.Sprintf(" %8s %4s", "buchholz", "byes")
	}
	fmt.Fprintf(w, "%3s  %-*s %6s%s %4s %4s %4s %4s %5s %8s  %s\n", "#", width, "bot", "points", head, "G", "W", "D", "L", "beat", "faults", "rating (95 %)")
	for _, s := range st {
		faults := fmt.Sprintf("%d/%d/%d", s.Timeouts, s.Crashes, s.Illegal)
		fmt.Fprintf(w, "%3d  %-*s %6s%s %4d %4d %4d %4d %5d %8s  %4.0f [%4.0f–%4.0f]\n",
			s.Rank, width, shownName(s.Bot), fmt.Sprintf("%.1f", s.Points), extra(s), s.Games, s.Wins, s.Draws, s.Losses, s.Beaten, faults, s.Rating, s.RatingLow, s.RatingHigh)
	}
	if swiss {
		fmt.Fprintf(w, "faults = timeouts/crashes/illegal moves; swiss, %d rounds: a bye is a match won; order: points, then Buchholz (the points of the opponents met), then head-to-head among tied bots, then wins, then Sonneborn–Berger\n", t.Rounds)
	} else {
		fmt.Fprintln(w, "faults = timeouts/crashes/illegal moves; order: points, then head-to-head among tied bots, then wins, then Sonneborn–Berger")
	}
	if byURL {
		fmt.Fprintln(w, urlMark+" = reached by URL, not sandboxed: it runs on its author's own server")
	}
	for _, s := range st {
		if !s.Check.At.IsZero() && !s.Check.OK {
			fmt.Fprintf(w, "  %s failed its check: %s: %s\n", s.Bot.Name, s.Check.Verdict, oneLine(s.Check.Detail))
		}
	}
	fmt.Fprintln(w)
	return nil
}

// urlMark follows the name of a bot reached by URL in the table.
const urlMark = "(by URL)"

// shownName is a bot's name as the table shows it: a bot reached by URL is
// marked, since nothing the sandbox promises holds for it.
func shownName(b results.Bot) string {
	if httpbot.ByURL(b.Path) {
		return b.Name + " " + urlMark
	}
	return b.Name
}
