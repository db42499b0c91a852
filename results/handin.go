package results

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Student is one name of the hand-in roster (SPEC §6). Name is the bot's
// file name, Display the name as the school writes it, shown on every page.
// Organiser marks the organiser's own row.
type Student struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Display   string    `json:"display"`
	Organiser bool      `json:"organiser,omitempty"`
	Added     time.Time `json:"added"`
}

// OrganiserName is the roster's name of the organiser: no student may take it.
const OrganiserName = "organiser"

// ErrTaken is returned by AddStudent for a name already on the roster.
var ErrTaken = errors.New("results: already on the roster")

// HashCode is what the roster keeps of a log-in code. A code is a long
// random string drawn by crypto/rand (see judge/handin), not a password a
// person chose: no dictionary helps, so a fast hash is as strong as a slow
// one, and the database never holds the code itself.
func HashCode(code string) string {
	sum := sha256.Sum256([]byte("botjudge hand-in code\x00" + code))
	return hex.EncodeToString(sum[:])
}

// AddStudent puts a name on the roster, shown as it is, with the hash of
// its code, or returns ErrTaken.
func (d *DB) AddStudent(ctx context.Context, name, codeHash string, organiser bool) (Student, error) {
	return d.AddToRoster(ctx, Student{Name: name, Display: name, Organiser: organiser}, codeHash)
}

// AddToRoster puts s (its file name and display name) on the roster with
// the hash of its code, or returns ErrTaken when its file name is there
// already. File names are compared without regard to case.
func (d *DB) AddToRoster(ctx context.Context, s Student, codeHash string) (Student, error) {
	name := s.Name
	s.Added = time.Now()
	err := d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO students (name, display, code, organiser, added) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (name) DO NOTHING`, name, s.Display, codeHash, s.Organiser, s.Added.UnixNano())
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrTaken
		}
		s.ID, err = res.LastInsertId()
		return err
	})
	if errors.Is(err, ErrTaken) {
		return Student{}, fmt.Errorf("%s: %w", name, ErrTaken)
	}
	if err != nil {
		return Student{}, fmt.Errorf("results: add %s to the roster: %w", name, err)
	}
	return s, nil
}

// SetCode replaces the code hash of a name on the roster (a lost code), or
// returns ErrNotFound.
func (d *DB) SetCode(ctx context.Context, name, codeHash string) error {
	res, err := d.db.ExecContext(ctx, `UPDATE students SET code = ? WHERE name = ?`, codeHash, name)
	if err != nil {
		return fmt.Errorf("results: new code for %s: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("results: %s is not on the roster: %w", name, ErrNotFound)
	}
	return nil
}

// LogIn returns the roster's row of name when codeHash is its code's hash,
// else ErrNotFound (the same for an unknown name and a wrong code).
func (d *DB) LogIn(ctx context.Context, name, codeHash string) (Student, error) {
	var s Student
	var stored string
	var added int64
	err := d.db.QueryRowContext(ctx, `SELECT id, name, display, organiser, added, code FROM students WHERE name = ?`, name).
		Scan(&s.ID, &s.Name, &s.Display, &s.Organiser, &added, &stored)
	if errors.Is(err, sql.ErrNoRows) {
		return Student{}, ErrNotFound
	}
	if err != nil {
		return Student{}, fmt.Errorf("results: log in: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(stored), []byte(codeHash)) != 1 {
		return Student{}, ErrNotFound
	}
	s.Added = time.Unix(0, added).UTC()
	return s, nil
}

// Students lists the roster (the organiser left out), by name.
func (d *DB) Students(ctx context.Context) ([]Student, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT id, name, display, added FROM students WHERE organiser = 0 ORDER BY name COLLATE NOCASE`)
	if err != nil {
		return nil, fmt.Errorf("results: roster: %w", err)
	}
	defer rows.Close()
	var list []Student
	for rows.Next() {
		var s Student
		var added int64
		if err := rows.Scan(&s.ID, &s.Name, &s.Display, &added); err != nil {
			return nil, fmt.Errorf("results: roster: %w", err)
		}
		s.Added = time.Unix(0, added).UTC()
		list = append(list, s)
	}
	return list, rows.Err()
}

// Student returns one row of the roster by id, or ErrNotFound.
func (d *DB) Student(ctx context.Context, id int64) (Student, error) {
	return d.student(ctx, "id", id)
}

// StudentNamed returns the row of the roster whose file name is name
// (without regard to case), or ErrNotFound.
func (d *DB) StudentNamed(ctx context.Context, name string) (Student, error) {
	return d.student(ctx, "name", name)
}

func (d *DB) student(ctx context.Context, column string, key any) (Student, error) {
	var s Student
	var added int64
	err := d.db.QueryRowContext(ctx, `SELECT id, name, display, organiser, added FROM students WHERE `+column+` = ?`, key).
		Scan(&s.ID, &s.Name, &s.Display, &s.Organiser, &added)
	if errors.Is(err, sql.ErrNoRows) {
		return Student{}, fmt.Errorf("results: student %v: %w", key, ErrNotFound)
	}
	s.Added = time.Unix(0, added).UTC()
	return s, err
}

// HandIn is one version of a student's bot for one game.
type HandIn struct {
	ID        int64 `json:"id"`
	StudentID int64 `json:"student_id"`
	// Student is its student's file name, Display their name as written.
	Student string    `json:"student"`
	Display string    `json:"display"`
	Game    string    `json:"game"`
	At      time.Time `json:"at"`
	// Kind is "file" or "folder"; Ext is a file's extension (".py", or ""
	// for a script with a shebang).
	Kind string `json:"kind"`
	Ext  string `json:"ext"`
	// Content is the file, or the folder as a tar; nil in lists.
	Content []byte `json:"-"`
	SHA256  string `json:"sha256"`
	Size    int64  `json:"size"`
	// Status is where its check stands: queued, checking, playing, done,
	// or failed (the judge's own failure).
	Status string `json:"status"`
	// Report is the check's report as JSON (judge/handin writes it).
	Report json.RawMessage `json:"report,omitempty"`
	// Current says this version is the one in submissions/ now.
	Current bool `json:"current"`
}

// Hand-in statuses.
const (
	StatusQueued   = "queued"
	StatusChecking = "checking"
	StatusPlaying  = "playing"
	StatusDone     = "done"
	StatusFailed   = "failed"
)

// AddHandIn stores a new version, queued for its check, and returns it with
// its id. It does not make it current: SetCurrent does, once it is in
// submissions/.
func (d *DB) AddHandIn(ctx context.Context, h HandIn) (HandIn, error) {
	if h.At.IsZero() {
		h.At = time.Now()
	}
	sum := sha256.Sum256(h.Content)
	h.SHA256, h.Size, h.Status = hex.EncodeToString(sum[:]), int64(len(h.Content)), StatusQueued
	res, err := d.db.ExecContext(ctx, `INSERT INTO handins (student_id, game, at, kind, ext, content, sha256, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		h.StudentID, h.Game, h.At.UnixNano(), h.Kind, h.Ext, h.Content, h.SHA256, h.Status)
	if err != nil {
		return HandIn{}, fmt.Errorf("results: hand-in: %w", err)
	}
	h.ID, err = res.LastInsertId()
	return h, err
}

// SetCurrent records h as the version of its student's bot in submissions/.
func (d *DB) SetCurrent(ctx context.Context, h HandIn) error {
	_, err := d.db.ExecContext(ctx, `INSERT INTO current_handins (student_id, game, handin_id) VALUES (?, ?, ?)
		ON CONFLICT (student_id, game) DO UPDATE SET handin_id = excluded.handin_id`, h.StudentID, h.Game, h.ID)
	if err != nil {
		return fmt.Errorf("results: current version: %w", err)
	}
	return nil
}

// ClearCurrent records that a student has no bot of game in submissions/.
func (d *DB) ClearCurrent(ctx context.Context, studentID int64, game string) error {
	_, err := d.db.ExecContext(ctx, `DELETE FROM current_handins WHERE student_id = ? AND game = ?`, studentID, game)
	return err
}

// SetStatus records where a version's check stands, and its report so far.
func (d *DB) SetStatus(ctx context.Context, id int64, status string, report json.RawMessage) error {
	if err := validJSON("report", report); err != nil {
		return err
	}
	_, err := d.db.ExecContext(ctx, `UPDATE handins SET status = ?, report = ? WHERE id = ?`, status, jsonArg(report), id)
	if err != nil {
		return fmt.Errorf("results: status of hand-in %d: %w", id, err)
	}
	return nil
}

const handInColumns = `h.id, h.student_id, s.name, s.display, h.game, h.at, h.kind, h.ext, h.sha256, length(h.content), h.status, h.report,
	EXISTS (SELECT 1 FROM current_handins c WHERE c.handin_id = h.id)`

func scanHandIn(row interface{ Scan(...any) error }, extra ...any) (HandIn, error) {
	var h HandIn
	var at int64
	var report []byte
	dest := append([]any{&h.ID, &h.StudentID, &h.Student, &h.Display, &h.Game, &at, &h.Kind, &h.Ext, &h.SHA256, &h.Size, &h.Status, &report, &h.Current}, extra...)
	if err := row.Scan(dest...); err != nil {
		return HandIn{}, err
	}
	h.At = time.Unix(0, at)
	h.Report = toJSON(report)
	return h, nil
}

// HandIn returns one version with its content, or ErrNotFound.
func (d *DB) HandIn(ctx context.Context, id int64) (HandIn, error) {
	var content []byte
	h, err := scanHandIn(d.db.QueryRowContext(ctx, `SELECT `+handInColumns+`, h.content FROM handins h JOIN students s ON s.id = h.student_id WHERE h.id = ?`, id), &content)
	if errors.Is(err, sql.ErrNoRows) {
		return HandIn{}, fmt.Errorf("results: hand-in %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return HandIn{}, fmt.Errorf("results: hand-in %d: %w", id, err)
	}
	h.Content = content
	return h, nil
}

// HandIns lists versions without their content, newest first: a student's
// (studentID > 0) or everyone's, of one game or (game "") of all.
func (d *DB) HandIns(ctx context.Context, studentID int64, game string) ([]HandIn, error) {
	var where []string
	var args []any
	if studentID > 0 {
		where, args = append(where, "h.student_id = ?"), append(args, studentID)
	}
	if game != "" {
		where, args = append(where, "h.game = ?"), append(args, game)
	}
	q := `SELECT ` + handInColumns + ` FROM handins h JOIN students s ON s.id = h.student_id`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := d.db.QueryContext(ctx, q+` ORDER BY h.at DESC, h.id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("results: hand-ins: %w", err)
	}
	defer rows.Close()
	var list []HandIn
	for rows.Next() {
		h, err := scanHandIn(rows)
		if err != nil {
			return nil, fmt.Errorf("results: hand-ins: %w", err)
		}
		list = append(list, h)
	}
	return list, rows.Err()
}

// Current returns the version of a student's bot in submissions/, or
// ErrNotFound.
func (d *DB) Current(ctx context.Context, studentID int64, game string) (HandIn, error) {
	var id int64
	err := d.db.QueryRowContext(ctx, `SELECT handin_id FROM current_handins WHERE student_id = ? AND game = ?`, studentID, game).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return HandIn{}, ErrNotFound
	}
	if err != nil {
		return HandIn{}, fmt.Errorf("results: current version: %w", err)
	}
	return d.HandIn(ctx, id)
}

// PrivateTournament returns the private tournament of game with these
// settings, creating it if needed: where hand-ins' sparring games go.
func (d *DB) PrivateTournament(ctx context.Context, game string, settings json.RawMessage) (Tournament, error) {
	t, err := d.EnsureTournament(ctx, game, 0, settings)
	if err != nil {
		return t, err
	}
	if !t.Private {
		if _, err := d.db.ExecContext(ctx, `UPDATE tournaments SET private = 1 WHERE id = ?`, t.ID); err != nil {
			return t, fmt.Errorf("results: private tournament: %w", err)
		}
		t.Private = true
	}
	return t, nil
}

// SaveSparring stores a sparring game of a hand-in in a private tournament.
func (d *DB) SaveSparring(ctx context.Context, handInID int64, g Game) (int64, error) {
	id, err := d.SaveGame(ctx, g)
	if err != nil {
		return 0, err
	}
	if _, err := d.db.ExecContext(ctx, `INSERT INTO sparring (game_id, handin_id) VALUES (?, ?)`, id, handInID); err != nil {
		return 0, fmt.Errorf("results: sparring game: %w", err)
	}
	return id, nil
}

// GameOwner says whose hand-in a game was a sparring game of: ok is false
// for a game of a tournament, which is everyone's to see.
func (d *DB) GameOwner(ctx context.Context, gameID int64) (studentID int64, ok bool, err error) {
	err = d.db.QueryRowContext(ctx, `SELECT h.student_id FROM sparring sp JOIN handins h ON h.id = sp.handin_id WHERE sp.game_id = ?`, gameID).Scan(&studentID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("results: owner of game %d: %w", gameID, err)
	}
	return studentID, true, nil
}
