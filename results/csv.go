package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"
)

// WriteStandingsCSV writes one header line and one line per standing.
// Ratings are rounded to whole points; check is "ok", the failing verdict,
// or empty when the bot was never checked. Buchholz and byes, a swiss
// tournament's, come last (0 in a round robin), so that the columns before
// them stay where earlier exports had them.
func WriteStandingsCSV(w io.Writer, st []Standing) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "name", "sha256", "points", "games", "wins", "draws", "losses", "beaten",
		"timeouts", "crashes", "illegal", "head_to_head", "sb", "rating", "rating_low", "rating_high",
		"tie_break", "check", "check_detail", "buchholz", "byes"})
	for _, s := range st {
		cw.Write([]string{
			strconv.Itoa(s.Rank), s.Bot.Name, s.Bot.SHA256, num(s.Points),
			strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses),
			strconv.Itoa(s.Beaten), strconv.Itoa(s.Timeouts), strconv.Itoa(s.Crashes), strconv.Itoa(s.Illegal),
			num(s.HeadToHead), num(s.SB),
			strconv.FormatFloat(s.Rating, 'f', 0, 64), strconv.FormatFloat(s.RatingLow, 'f', 0, 64),
			strconv.FormatFloat(s.RatingHigh, 'f', 0, 64),
			s.TieBreak, checkText(s.Check), s.Check.Detail, num(s.Buchholz), strconv.Itoa(s.Byes),
		})
	}
	cw.Flush()
	return cw.Error()
}

func checkText(c Check) string {
	switch {
	case c.At.IsZero():
		return ""
	case c.OK:
		return "ok"
	}
	return c.Verdict
}

// WriteGamesCSV writes one line per game: the game's columns, then seven
// columns per seat (seatN_bot, seatN_sha256, seatN_rank, seatN_score,
// seatN_faults, seatN_charged_s, seatN_wall_s, N from 1) for as many seats
// as the widest game has. A time is empty in games recorded before times
// were kept per seat.
func WriteGamesCSV(w io.Writer, gs []Game) error {
	seats := 0
	for _, g := range gs {
		seats = max(seats, len(g.Players))
	}
	header := []string{"id", "key", "round", "seed", "reason", "started", "finished", "image"}
	for n := 1; n <= seats; n++ {
		for _, col := range []string{"bot", "sha256", "rank", "score", "faults", "charged_s", "wall_s"} {
			header = append(header, fmt.Sprintf("seat%d_%s", n, col))
		}
	}
	cw := csv.NewWriter(w)
	cw.Write(header)
	for _, g := range gs {
		line := []string{strconv.FormatInt(g.ID, 10), g.Key, strconv.Itoa(g.Round), strconv.FormatInt(g.Seed, 10),
			g.Reason, timeText(g.Started), timeText(g.Finished), g.Image}
		for n := range seats {
			if n >= len(g.Players) {
				line = append(line, "", "", "", "", "", "", "")
				continue
			}
			p := g.Players[n]
			line = append(line, p.Name, p.SHA256, strconv.Itoa(p.Rank), strconv.Itoa(p.Score), strconv.Itoa(p.Faults),
				seconds(p.Charged), seconds(p.Wall))
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// seconds writes a duration in seconds to the millisecond; unknown is empty.
func seconds(d *time.Duration) string {
	if d == nil {
		return ""
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

func num(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
