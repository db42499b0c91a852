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

// ArenaBot is a bot that joined a game's ladder.
type ArenaBot struct {
	BotID int64
	// Name is the student's as the roster writes it, or the example bot's.
	Name string
	// Student is the student's id on the roster, 0 for an example bot.
	Student int64
	// Example is an example bot; Student, HandIn and At are then zero.
	Example bool
	HandIn  int64
	At      time.Time
	SHA256  string
	// OnLadder: the bot is on the ladder now (a student's current version,
	// an active example bot), not a version since replaced.
	OnLadder bool
}

// Arena is what a game's ladder is computed from: the bots on it now and
// every game the arena played, in the order played (games with bots no
// longer on the ladder too, for the scores that replay them).
type Arena struct {
	Bots []ArenaBot
	// Joined are every bot that was ever on the ladder, by bot ID: the
	// games of past versions name them.
	Joined map[int64]ArenaBot
	Games  []scoring.Game
	// Keys are the stored games' keys.
	Keys map[string]bool
}

// Arena reads game's ladder: the current versions of the students (their
// hand-in is current) and the active example bots, and the arena's games.
// A game without an arena has an empty one.
func (d *DB) Arena(ctx context.Context, game string) (Arena, error) {
	var a Arena
	joined, err := d.ArenaBots(ctx, game)
	if err != nil {
		return a, err
	}
	a.Joined = make(map[int64]ArenaBot, len(joined))
	for _, b := range joined {
		a.Joined[b.BotID] = b
		if b.OnLadder {
			a.Bots = append(a.Bots, b)
		}
	}
	a.Games, a.Keys, err = d.arenaGames(ctx, game)
	return a, err
}

// ArenaBots lists every bot that joined game's ladder, by bot ID: those on
// it now and the students' versions since replaced.
func (d *DB) ArenaBots(ctx context.Context, game string) ([]ArenaBot, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT a.bot_id, coalesce(s.display, s.name, b.name), coalesce(s.id, 0), a.handin_id IS NULL,
			coalesce(h.id, 0), coalesce(h.at, 0), b.sha256,
			CASE WHEN a.handin_id IS NULL THEN a.active = 1
				ELSE EXISTS (SELECT 1 FROM current_handins c WHERE c.handin_id = a.handin_id) END
		FROM arena_bots a JOIN bots b ON b.id = a.bot_id
		LEFT JOIN handins h ON h.id = a.handin_id LEFT JOIN students s ON s.id = h.student_id
		WHERE a.game = ? ORDER BY a.bot_id`, game)
	if err != nil {
		return nil, fmt.Errorf("results: %s arena: %w", game, err)
	}
	defer rows.Close()
	var list []ArenaBot
	for rows.Next() {
		var b ArenaBot
		var at int64
		if err := rows.Scan(&b.BotID, &b.Name, &b.Student, &b.Example, &b.HandIn, &at, &b.SHA256, &b.OnLadder); err != nil {
			return nil, fmt.Errorf("results: %s arena: %w", game, err)
		}
		if at != 0 {
			b.At = time.Unix(0, at).UTC()
		}
		list = append(list, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("results: %s arena: %w", game, err)
	}
	return list, nil
}

// IsArena says whether t holds a game's arena games.
func (t Tournament) IsArena() bool {
	return t.Private && string(t.Settings) == string(arenaSettings)
}

// PseudonymKey is this database's own random key, which the arena's
// pseudonyms are derived from (migration 0010).
func (d *DB) PseudonymKey(ctx context.Context) ([]byte, error) {
	var key []byte
	if err := d.db.QueryRowContext(ctx, `SELECT value FROM secrets WHERE name = 'pseudonyms'`).Scan(&key); err != nil {
		return nil, fmt.Errorf("results: the pseudonyms' key: %w", err)
	}
	return key, nil
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
