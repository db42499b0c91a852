package results

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"botjudge/results/scoring"
)

// arenaSettings name the private tournament of a game's arena games.
var arenaSettings = json.RawMessage(`{"arena":true}`)

// ArenaTournament returns the private tournament that holds game's arena
// games, creating it if needed.
func (d *DB) ArenaTournament(ctx context.Context, game string) (Tournament, error) {
	return d.PrivateTournament(ctx, game, arenaSettings)
}

// JoinArena puts a bot on game's ladder: a student's version (handInID) or,
// with handInID 0, an example bot. Joining again makes an example active,
// and ties the bot to the hand-in given (the same content handed in again
// is the same bot).
func (d *DB) JoinArena(ctx context.Context, game string, botID, handInID int64) error {
	hand := sql.NullInt64{Int64: handInID, Valid: handInID > 0}
	_, err := d.db.ExecContext(ctx, `INSERT INTO arena_bots (bot_id, game, handin_id, added) VALUES (?, ?, ?, ?)
		ON CONFLICT (bot_id) DO UPDATE SET active = 1, handin_id = excluded.handin_id`, botID, game, hand, unixNano(time.Now()))
	if err != nil {
		return fmt.Errorf("results: bot %d on the %s arena: %w", botID, game, err)
	}
	return nil
}

// PlayedInArena says whether a bot of student's played game gameID as a
// version on an arena's ladder: the student may replay it.
func (d *DB) PlayedInArena(ctx context.Context, gameID, student int64) (bool, error) {
	var n int
	err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM players p JOIN arena_bots a ON a.bot_id = p.bot_id
		JOIN handins h ON h.id = a.handin_id WHERE p.game_id = ? AND h.student_id = ?`, gameID, student).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("results: players of game %d: %w", gameID, err)
	}
	return n > 0, nil
}

// ArenaBot is a bot on a game's ladder now.
type ArenaBot struct {
	BotID int64
	// Name is the student's as the roster writes it, or the example bot's.
	Name string
	// Example is an example bot; HandIn and At are then zero.
	Example bool
	HandIn  int64
	At      time.Time
	SHA256  string
}

// Arena is what a game's ladder is computed from: the bots on it now and
// every game the arena played, in the order played (games with bots no
// longer on the ladder too, for the scores that replay them).
type Arena struct {
	Bots  []ArenaBot
	Games []scoring.Game
	// Keys are the stored games' keys.
	Keys map[string]bool
}

// Arena reads game's ladder: the current versions of the students (their
// hand-in is current) and the active example bots, and the arena's games.
// A game without an arena has an empty one.
func (d *DB) Arena(ctx context.Context, game string) (Arena, error) {
	var a Arena
	rows, err := d.db.QueryContext(ctx, `SELECT a.bot_id, coalesce(s.display, s.name, b.name), a.handin_id IS NULL, coalesce(h.id, 0), coalesce(h.at, 0), b.sha256
		FROM arena_bots a JOIN bots b ON b.id = a.bot_id
		LEFT JOIN handins h ON h.id = a.handin_id LEFT JOIN students s ON s.id = h.student_id
		WHERE a.game = ? AND CASE WHEN a.handin_id IS NULL THEN a.active = 1
			ELSE EXISTS (SELECT 1 FROM current_handins c WHERE c.handin_id = a.handin_id) END
		ORDER BY a.bot_id`, game)
	if err != nil {
		return a, fmt.Errorf("results: %s arena: %w", game, err)
	}
	defer rows.Close()
	for rows.Next() {
		var b ArenaBot
		var at int64
		if err := rows.Scan(&b.BotID, &b.Name, &b.Example, &b.HandIn, &at, &b.SHA256); err != nil {
			return a, fmt.Errorf("results: %s arena: %w", game, err)
		}
		if at != 0 {
			b.At = time.Unix(0, at).UTC()
		}
		a.Bots = append(a.Bots, b)
	}
	if err := rows.Err(); err != nil {
		return a, fmt.Errorf("results: %s arena: %w", game, err)
	}
	a.Games, a.Keys, err = d.arenaGames(ctx, game)
	return a, err
}

// arenaGames are the games of game's arena tournament, in the order they
// were stored, as scoring reads them, and their keys.
func (d *DB) arenaGames(ctx context.Context, game string) ([]scoring.Game, map[string]bool, error) {
	var id int64
	err := d.db.QueryRowContext(ctx, `SELECT id FROM tournaments WHERE game = ? AND seed = 0 AND settings = ?`, game, string(arenaSettings)).Scan(&id)
	if err == sql.ErrNoRows {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("results: %s arena: %w", game, err)
	}
	rows, err := d.db.QueryContext(ctx, `SELECT p.game_id, p.bot_id, p.rank, p.timeouts, p.crashes, p.illegal
		FROM games g JOIN players p ON p.game_id = g.id WHERE g.tournament_id = ? ORDER BY g.id, p.seat`, id)
	if err != nil {
		return nil, nil, fmt.Errorf("results: %s arena: %w", game, err)
	}
	defer rows.Close()
	games, err := scanScored(rows, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("results: %s arena: %w", game, err)
	}
	keys, err := d.PlayedKeys(ctx, id)
	return games, keys, err
}
