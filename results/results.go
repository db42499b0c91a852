// Package results keeps everything a tournament produces in one SQLite file:
// bot versions and their checks, tournaments and their entries, finished games
// with every move, judge failures, live games for the screen, and the
// standings computed from them (the arithmetic is package scoring's: this
// one loads what it reads). It is the only package that talks to SQLite.
//
// The file is opened in WAL mode so that several processes can share it: a
// `judge run` writing games while a `judge serve` reads them. Every write is
// one short IMMEDIATE transaction (a finished game is exactly one), so a
// reader never sees half a game and writers queue on the busy timeout instead
// of failing.
package results

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrNotFound is returned when a tournament or game id does not exist.
var ErrNotFound = errors.New("results: not found")

// DB is an open results file. It is safe for concurrent use.
type DB struct {
	db *sql.DB
}

// ErrNoDatabase is returned by OpenExisting when there is no file to read.
var ErrNoDatabase = errors.New("results: no database")

// Open opens the results file at path for a run, creating the file (not its
// folder: a mistyped path must not scatter databases) if needed, and brings
// its schema up to date.
func Open(path string) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	if info, err := os.Stat(filepath.Dir(abs)); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("results: the folder %s does not exist: create it, or choose a database file in an existing folder", filepath.Dir(path))
	}
	return open(abs, path, false)
}

// OpenExisting opens the results file at path for reading what it holds (the
// standings, the screen): a missing file is ErrNoDatabase rather than a new
// empty database, and a file on read-only media (a USB stick, a CD, a
// read-only mount) is opened read-only, as it is.
func OpenExisting(path string) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("%w at %s (%v)", ErrNoDatabase, path, errors.Unwrap(err))
	}
	readOnly := syscall.Access(abs, unixWrite) != nil || syscall.Access(filepath.Dir(abs), unixWrite) != nil
	return open(abs, path, readOnly)
}

// unixWrite is access(2)'s W_OK.
const unixWrite = 2

// open opens abs (path is for messages). A read-only file cannot take the
// WAL's shared memory nor a migration: it is opened immutable, and its
// schema must be this judge's.
func open(abs, path string, readOnly bool) (*DB, error) {
	// A file: URI with an escaped path, so that '?' or '#' in a folder name
	// cannot be taken for parameters. _txlock=immediate takes the write lock at
	// BEGIN: a deferred transaction that reads then writes can fail with
	// SQLITE_BUSY at once, without waiting, when another process writes too.
	dsn := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	if readOnly {
		dsn += "?mode=ro&immutable=1&_foreign_keys=on"
	} else {
		dsn += "?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=5000&_synchronous=NORMAL&_txlock=immediate"
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("results: open %s: %w", path, err)
	}
	d := &DB{db: db}
	if readOnly {
		if err := d.current(path); err != nil {
			db.Close()
			return nil, err
		}
		return d, nil
	}
	if err := d.check(path); err != nil {
		db.Close()
		return nil, err
	}
	if err := d.migrate(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return d, nil
}

// current makes sure a database that cannot be migrated needs no migration.
func (d *DB) current(path string) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	var applied int
	if err := d.db.QueryRow(`SELECT count(*) FROM schema_version`).Scan(&applied); err != nil {
		return fmt.Errorf("results: open %s read-only: %w", path, err)
	}
	if applied != len(names) {
		return fmt.Errorf("results: %s is read-only and was written by another version of the judge: copy it somewhere writable to read it", path)
	}
	return nil
}

// check makes sure the file opened in WAL mode: without it a reader in
// another process would block the judge's writes.
func (d *DB) check(path string) error {
	var mode string
	if err := d.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("results: open %s: %w", path, err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("results: open %s: journal mode is %q, not WAL", path, mode)
	}
	return nil
}

// Close closes the file.
func (d *DB) Close() error {
	return d.db.Close()
}

// migrate applies the embedded migrations that the file has not seen yet,
// each in its own transaction together with its schema_version row. The
// version is read inside the transaction, so two processes opening a new
// file at once apply each migration exactly once.
func (d *DB) migrate(ctx context.Context) error {
	if _, err := d.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY,
		name    TEXT NOT NULL,
		applied INTEGER NOT NULL
	)`); err != nil {
		return fmt.Errorf("results: migrate: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("results: migrate: %w", err)
	}
	type migration struct {
		version int
		name    string
	}
	var list []migration
	for _, name := range names {
		base := filepath.Base(name)
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return fmt.Errorf("results: migration %s has no number", base)
		}
		list = append(list, migration{v, name})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].version < list[j].version })
	for _, m := range list {
		script, err := migrations.ReadFile(m.name)
		if err != nil {
			return fmt.Errorf("results: migrate: %w", err)
		}
		err = d.tx(ctx, func(tx *sql.Tx) error {
			var done int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, m.version).Scan(&done); err != nil {
				return err
			}
			if done > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, string(script)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)`,
				m.version, filepath.Base(m.name), unixNano(time.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("results: migration %s: %w", filepath.Base(m.name), err)
		}
	}
	return nil
}

// tx runs fn in one transaction, committed when fn returns nil.
func (d *DB) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// unixNano stores a time; the zero time is stored as NULL (unknown).
func unixNano(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// fromUnixNano reads a time stored by unixNano.
func fromUnixNano(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// nullDuration stores a duration that may be unknown (nil) as NULL.
func nullDuration(d *time.Duration) any {
	if d == nil {
		return nil
	}
	return int64(*d)
}

// jsonArg stores JSON as TEXT (a []byte would be stored as a BLOB, which
// SQLite's JSON functions take for its binary JSONB format); empty is NULL.
func jsonArg(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return string(raw)
}

// validJSON checks a JSON field before it is stored: a record that
// encoding/json cannot write back would break every export of the game.
func validJSON(field string, raw json.RawMessage) error {
	if len(raw) > 0 && !json.Valid(raw) {
		return fmt.Errorf("results: %s is not valid JSON", field)
	}
	return nil
}

// toJSON reads a column stored by jsonArg.
func toJSON(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return json.RawMessage(b)
}
