package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"botjudge/games"
	"botjudge/judge/arena"
)

func cmdArena(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("arena", stderr)
	var c common
	addStore(fs, &c)
	format := fs.String("format", "text", "text or json")
	names := arena.RealNames
	fs.Var(&names, "names", "how the ladder names the students: `real|pseudonyms` (as judge serve --arena-names does)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("name one game: judge arena GAME (one of %s)", strings.Join(games.Names(), ", "))
	}
	rules, ok := games.Lookup(fs.Arg(0))
	if !ok {
		return usagef("unknown game %q: use one of %s", fs.Arg(0), strings.Join(games.Names(), ", "))
	}
	if *format != "text" && *format != "json" {
		return usagef("unknown --format %q: use text or json", *format)
	}
	db, err := openStore(c.db, false)
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := db.Arena(ctx, rules.Name())
	if err != nil {
		return err
	}
	n, err := arena.NewNamer(ctx, db, names)
	if err != nil {
		return err
	}
	l := arena.Rank(rules, a, n)
	if *format == "json" {
		return json.NewEncoder(stdout).Encode(l)
	}
	printLadder(stdout, l)
	return nil
}

// seedScoreNames head the seed's score column.
var seedScoreNames = map[string]string{games.SeedBrainJar: "BrainJar", games.SeedElo: "Elo"}

// printLadder draws the ladder for a terminal.
func printLadder(w io.Writer, l arena.Ladder) {
	if len(l.Rows) == 0 {
		fmt.Fprintf(w, "%s arena: nobody on the ladder yet (it starts with `judge serve --hand-in --arena`)\n", l.Game)
		return
	}
	fmt.Fprintf(w, "%s arena (%d bots, %d games)\n", l.Game, len(l.Rows), l.Games)
	width := 4
	for _, r := range l.Rows {
		width = max(width, len([]rune(rowName(r))))
	}
	fmt.Fprintf(w, "%3s  %-*s %-22s %4s %4s %4s %4s  %s\n", "#", width, "name", "rating (95 %)", "G", "W", "D", "L", seedScoreNames[l.SeedScore])
	for _, r := range l.Rows {
		seed := ""
		if r.SeedScore != nil {
			seed = fmt.Sprintf("%.2f", *r.SeedScore)
		}
		fmt.Fprintf(w, "%3d  %-*s %-22s %4d %4d %4d %4d  %s\n", r.Rank, width, rowName(r),
			fmt.Sprintf("%.0f [%.0f, %.0f]", r.Rating, r.Low, r.High), r.Games, r.Wins, r.Draws, r.Losses, seed)
	}
}

// rowName marks the example bots.
func rowName(r arena.Row) string {
	if r.Examples {
		return r.Name + " (example)"
	}
	return r.Name
}
