package discover

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/dshkit/mentions/sessionref"
)

// schemaVersion is stored in the file's user_version; a file written
// with another version is rebuilt.
const schemaVersion = 4

// applicationID marks a SQLite file as one of this package's indexes
// (PRAGMA application_id), so a foreign database is never rebuilt over.
const applicationID = 0x6d656e64 // "mend"

// Index is a full-text index of a session store. It is safe for
// concurrent use: Search runs while Sync writes, and several Index
// values (in one process or several) may share one file.
type Index struct {
	q        sessionref.SessionQuery
	dbMu     sync.RWMutex
	db       *sql.DB // replaced only by rebuild
	path     string  // "" in memory
	opts     options
	syncMu   sync.Mutex       // one Sync at a time per Index; guards known
	known    map[string]state // the file's session states as of gen knownGen
	knownGen int64
	notices  []Notice
	noticeMu sync.Mutex
	closed   atomic.Bool
	// damaged holds the error of a search or write that found the file
	// damaged; the next Sync rebuilds it.
	damaged atomic.Pointer[error]
	// checked: a Sync of this Index verified the whole file once.
	checked bool

	// callReport is the running SyncReporting's report (under syncMu).
	callReport func(Progress)
}

// Option configures Open.
type Option func(*options)

type options struct {
	progress        func(Progress)
	refuse          []string
	maxMessageBytes int
	maxSessionBytes int
	batch           int
}

// WithProgress calls f as Sync works: once with Done 0 when the total is
// known, after every session it looked at, and once at the end. f runs
// on Sync's goroutine and must return quickly (a UI sends a message).
func WithProgress(f func(Progress)) Option { return func(o *options) { o.progress = f } }

// RefuseInside makes Open fail with [ErrInsideRoot] when the index path
// lies inside dir, such as a DeepSeek Harness sessions root, which must
// never be written. It may be given more than once.
func RefuseInside(dir string) Option {
	return func(o *options) { o.refuse = append(o.refuse, dir) }
}

// WithLimits bounds what one session puts in the index: at most
// perMessage bytes of each message (its head) and perSession bytes in
// all; defaults 16 KiB and 512 KiB. A zero or negative value keeps the
// default. The bound keeps the index size linear in the number of
// sessions whatever one session holds.
func WithLimits(perMessage, perSession int) Option {
	return func(o *options) {
		if perMessage > 0 {
			o.maxMessageBytes = perMessage
		}
		if perSession > 0 {
			o.maxSessionBytes = perSession
		}
	}
}

// Progress is how far a Sync is.
type Progress struct {
	// Done sessions of Total were looked at.
	Done, Total int
}

// Errors of Open and Search.
var (
	// ErrInsideRoot: the index path lies inside a directory given to
	// RefuseInside.
	ErrInsideRoot = errors.New("discover: index path is inside a sessions root")
	// ErrNotRegular: the index path exists and is not a regular file (a
	// directory, a link, a FIFO); it is left alone.
	ErrNotRegular = errors.New("discover: index path is not a regular file")
	// ErrForeign: the index path holds a SQLite database that is not an
	// index of this package; it is left alone.
	ErrForeign = errors.New("discover: index path holds another database")
	// ErrUnreadable: the index file exists but cannot be opened for
	// reading and writing (its permissions, or SQLite cannot open it);
	// it is left alone.
	ErrUnreadable = errors.New("discover: cannot open the search index")
	// ErrUnwritable: the index's directory cannot be written (read-only,
	// or its permissions): SQLite writes the index's journal beside it.
	ErrUnwritable = errors.New("discover: cannot write the search index")
	// ErrClosed: the Index was closed.
	ErrClosed = errors.New("discover: index is closed")
	// ErrDamaged: a search found the index file damaged; the next Sync
	// rebuilds it (with a NoticeCorrupt), and searches work after it.
	ErrDamaged = errors.New("discover: search: the index is damaged and is rebuilt by the next Sync")
	// ErrLimit: a Search limit below 1.
	ErrLimit = errors.New("discover: search limit must be at least 1")
)

// NoticeKind says why an index file was (re)built.
type NoticeKind int

// The notice kinds.
const (
	// NoticeCreated: there was no index file; a new one was made.
	NoticeCreated NoticeKind = iota + 1
	// NoticeCorrupt: the file was not a readable index; it was replaced.
	NoticeCorrupt
	// NoticeSchema: the file was written by another version of this
	// package; it was replaced.
	NoticeSchema
	// NoticeStaleJournal: a journal (-wal, -shm) that no process held
	// was found beside the file, left by a process that stopped or by
	// another index; it was set aside (renamed *.stale), not applied.
	// Err names the files.
	NoticeStaleJournal
)

// Notice reports that an index file was created or rebuilt, so the next
// Sync indexes every session again. It is information for the person,
// not a failure.
type Notice struct {
	Kind NoticeKind
	// Path is the index file.
	Path string
	// Err is what was wrong with the old file (NoticeCorrupt).
	Err error
}

func (n Notice) String() string {
	switch n.Kind {
	case NoticeCreated:
		return "discover: created search index " + n.Path
	case NoticeCorrupt:
		return fmt.Sprintf("discover: search index %s was unreadable (%v); rebuilt it", n.Path, n.Err)
	case NoticeSchema:
		return "discover: search index " + n.Path + " was from another version; rebuilt it"
	case NoticeStaleJournal:
		return "discover: search index " + n.Path + " had a journal left by a process that stopped or by another index; set it aside (.stale) unread, and sessions are indexed again as needed"
	}
	return "discover: notice about " + n.Path
}

// Open opens the index at path over the store q, creating it when it
// is missing and rebuilding it, with a [Notice], when it is corrupt or
// of an older schema. An empty path keeps the index in memory. Open does
// not read the store: call [Index.Sync].
func Open(path string, q sessionref.SessionQuery, opts ...Option) (*Index, error) {
	if q == nil {
		return nil, errors.New("discover: a SessionQuery is required")
	}
	o := options{maxMessageBytes: 16 << 10, maxSessionBytes: 512 << 10, batch: 1024}
	for _, f := range opts {
		f(&o)
	}
	ix := &Index{q: q, opts: o}
	if path == "" {
		// memdb has no WAL: a search waits for the batch being written, so
		// batches are kept short.
		o.batch = min(o.batch, 128)
		ix.opts = o
		db, err := openMemory()
		if err != nil {
			return nil, err
		}
		ix.db = db
		if err := createSchema(context.Background(), db); err != nil {
			db.Close()
			return nil, err
		}
		return ix, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("discover: index path: %w", err)
	}
	for _, root := range o.refuse {
		if inside(abs, root) {
			return nil, fmt.Errorf("%w: %s is in %s", ErrInsideRoot, abs, root)
		}
	}
	ix.path = abs
	if err := ix.openFile(); err != nil {
		return nil, err
	}
	return ix, nil
}

// openFile opens or creates the file, rebuilding it once when it is
// unreadable or of another schema.
func (ix *Index) openFile() error {
	if err := os.MkdirAll(filepath.Dir(ix.path), 0o700); err != nil {
		return fmt.Errorf("discover: index directory: %w", err)
	}
	fi, err := os.Lstat(ix.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		// Create it private before SQLite does with its default mode.
		f, err := os.OpenFile(ix.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("discover: create index: %w", err)
		}
		if f != nil {
			f.Close()
			ix.notice(Notice{Kind: NoticeCreated, Path: ix.path})
		}
	case err != nil:
		return fmt.Errorf("discover: index path: %w", err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: %s (%s)", ErrNotRegular, ix.path, fi.Mode().Type())
	}
	if err := checkAccess(ix.path); err != nil {
		return err
	}
	if err := ix.setAsideStaleJournal(); err != nil {
		return err
	}
	db, kind, cause, err := openChecked(ix.path)
	if err != nil {
		return err
	}
	if kind != 0 {
		// Another process may hold the old file open: take it away by
		// name only, never truncate what it reads.
		if err := removeIndexFiles(ix.path); err != nil {
			return fmt.Errorf("discover: remove unreadable index: %w", err)
		}
		ix.notice(Notice{Kind: kind, Path: ix.path, Err: cause})
		if db, kind, cause, err = openChecked(ix.path); err != nil {
			return err
		}
		if kind != 0 {
			return fmt.Errorf("discover: index %s unusable after rebuild: %w", ix.path, cause)
		}
	}
	ix.db = db
	holdPath(ix.path)
	return nil
}

// openChecked opens the file and makes sure it holds the current schema.
// A non-zero kind means the file must be rebuilt (db is then nil).
func openChecked(path string) (db *sql.DB, kind NoticeKind, cause, err error) {
	db, err = sql.Open("sqlite", fileDSN(path))
	if err != nil {
		return nil, 0, nil, fmt.Errorf("discover: open index: %w", err)
	}
	ctx := context.Background()
	var app, version int
	err = db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app)
	if err == nil {
		err = db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version)
	}
	if err != nil {
		db.Close()
		if isCorrupt(err) {
			return nil, NoticeCorrupt, err, nil
		}
		if cantOpen(err) {
			return nil, 0, nil, fmt.Errorf("%w: SQLite cannot open the index file %s or its journal beside it (%v)", ErrUnreadable, path, err)
		}
		return nil, 0, nil, fmt.Errorf("discover: open index %s: %w", path, err)
	}
	switch {
	case app == 0 && version == 0:
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
			db.Close()
			return nil, NoticeCorrupt, err, nil
		}
		if n > 0 {
			db.Close()
			return nil, 0, nil, fmt.Errorf("%w: %s", ErrForeign, path)
		}
		if err := createSchema(ctx, db); err != nil {
			db.Close()
			if isCorrupt(err) {
				return nil, NoticeCorrupt, err, nil
			}
			return nil, 0, nil, err
		}
	case app != applicationID:
		db.Close()
		return nil, 0, nil, fmt.Errorf("%w: %s", ErrForeign, path)
	case version != schemaVersion:
		db.Close()
		return nil, NoticeSchema, nil, nil
	}
	// Only a file known to be an index is switched to WAL (which writes
	// its header); the mode then stays with the file.
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode = WAL"); err != nil {
		db.Close()
		if isCorrupt(err) {
			return nil, NoticeCorrupt, err, nil
		}
		return nil, 0, nil, fmt.Errorf("discover: open index %s: %w", path, err)
	}
	if app == applicationID {
		// Touch every table the index uses, so a damaged schema shows now.
		for _, t := range []string{"meta", "sessions", "docs", "tri", "words"} {
			if _, err := db.ExecContext(ctx, "SELECT 1 FROM "+t+" LIMIT 1"); err != nil {
				db.Close()
				return nil, NoticeCorrupt, err, nil
			}
		}
	}
	return db, 0, nil, nil
}

// fileDSN is a SQLite URI for path: WAL so readers never wait for the
// writer, a busy timeout so two processes take turns, and immediate
// write transactions so two writers never deadlock on an upgrade.
func fileDSN(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	p = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
	return "file:" + p + "?_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate&_pragma=cache_size(-32768)"
}

var memoryDBs atomic.Int64

// openMemory opens a private in-memory database that every connection of
// the pool shares.
func openMemory() (*sql.DB, error) {
	name := fmt.Sprintf("file:/discover-%d-%d?vfs=memdb&_pragma=busy_timeout(10000)&_txlock=immediate", os.Getpid(), memoryDBs.Add(1))
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return nil, fmt.Errorf("discover: open memory index: %w", err)
	}
	// memdb frees the database when its last connection closes: keep one.
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	return db, nil
}

// createSchema creates the tables of an empty database.
func createSchema(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := []string{
		`CREATE TABLE IF NOT EXISTS sessions(
			rowid INTEGER PRIMARY KEY,
			id TEXT NOT NULL UNIQUE,
			cwd TEXT,
			created INTEGER NOT NULL,
			title TEXT,
			title_seq INTEGER,
			captured_seq INTEGER,
			version TEXT,
			body_hash INTEGER
		)`,
		// gen counts committed write batches, so a Sync knows whether the
		// states it keeps in memory are still those of the file.
		`CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v INTEGER NOT NULL)`,
		`INSERT OR IGNORE INTO meta(k, v) VALUES ('gen', 0)`,
		// The indexed text, for snippets.
		`CREATE TABLE IF NOT EXISTS docs(rowid INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL)`,
		// Words of every script, and the one- and two-character grams of
		// scripts written without spaces and of emoji.
		// Prefix indexes answer the word being typed (its first one to
		// three characters) without merging every word it starts.
		`CREATE VIRTUAL TABLE IF NOT EXISTS words USING fts5(title, body, content = '', contentless_delete = 1, prefix = '1 2 3', tokenize = 'unicode61 remove_diacritics 2')`,
		// The runs of those characters, for substrings of three and more.
		`CREATE VIRTUAL TABLE IF NOT EXISTS tri USING fts5(title, body, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1')`,
		// Flush pending terms less often: fewer, larger segments to merge.
		`INSERT INTO tri(tri, rank) VALUES ('hashsize', 33554432)`,
		`INSERT INTO words(words, rank) VALUES ('hashsize', 33554432)`,
		fmt.Sprintf("PRAGMA application_id = %d", applicationID),
		fmt.Sprintf("PRAGMA user_version = %d", schemaVersion),
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("discover: create index: %w", err)
		}
	}
	return tx.Commit()
}

// removeIndexFiles removes an index file with its WAL and shared-memory
// files.
func removeIndexFiles(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// isCorrupt reports whether err says the file is not a sound database:
// SQLite's codes for it, FTS5's own complaints about its structures,
// or a damage verify found.
func isCorrupt(err error) bool {
	if err == nil {
		return false
	}
	var st storeError
	if errors.As(err, &st) {
		return false // the store's, however it reads: the index is sound
	}
	var de *damageError
	if errors.As(err, &de) {
		return true
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	// FTS5 reports damage to its own structures as plain SQLite errors.
	msg := se.Error()
	return strings.Contains(msg, "malformed") || strings.Contains(msg, "fts5: corrupt") ||
		strings.Contains(msg, "corrupt structure") || strings.Contains(msg, "invalid fts5 file format")
}

// cantOpen reports SQLite's "unable to open database file" (whose text
// may add a misleading "out of memory").
func cantOpen(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CANTOPEN
}

// storeError is an error of the store the index reads (its listing, its
// seqs, its versions), never of the index's own file, whatever its text
// says: it never makes a Sync rebuild the index.
type storeError struct{ err error }

func (e storeError) Error() string { return e.err.Error() }
func (e storeError) Unwrap() error { return e.err }

// inside reports whether path is dir or lies under it, comparing the
// cleaned absolute forms and, where they exist, the forms with links
// resolved.
func inside(path, dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if under(path, d) {
		return true
	}
	rd, err1 := filepath.EvalSymlinks(d)
	rp, err2 := filepath.EvalSymlinks(filepath.Dir(path))
	if err1 == nil && err2 == nil {
		return under(filepath.Join(rp, filepath.Base(path)), rd)
	}
	return false
}

func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (ix *Index) notice(n Notice) {
	ix.noticeMu.Lock()
	ix.notices = append(ix.notices, n)
	ix.noticeMu.Unlock()
}

// Notices returns what happened to the index file since Open: created,
// or rebuilt and why. A host shows them once (a status line).
func (ix *Index) Notices() []Notice {
	ix.noticeMu.Lock()
	defer ix.noticeMu.Unlock()
	return append([]Notice(nil), ix.notices...)
}

// Path returns the index file, or "" for an index in memory.
func (ix *Index) Path() string { return ix.path }

// conn returns the current database handle.
func (ix *Index) conn() *sql.DB {
	ix.dbMu.RLock()
	defer ix.dbMu.RUnlock()
	return ix.db
}

// rebuild replaces an index found damaged while in use with a new,
// empty one, with a NoticeCorrupt. The caller holds syncMu.
func (ix *Index) rebuild(cause error) error {
	ix.dbMu.Lock()
	defer ix.dbMu.Unlock()
	if ix.closed.Load() {
		return ErrClosed
	}
	ix.db.Close()
	ix.known = nil
	ix.damaged.Store(nil)
	if ix.path == "" {
		ix.notice(Notice{Kind: NoticeCorrupt, Err: cause})
		db, err := openMemory()
		if err == nil {
			if err = createSchema(context.Background(), db); err != nil {
				db.Close()
			}
		}
		if err != nil {
			ix.db = closedDB()
			return err
		}
		ix.db = db
		return nil
	}
	if err := removeIndexFiles(ix.path); err != nil {
		ix.db = closedDB()
		return fmt.Errorf("discover: remove unreadable index: %w", err)
	}
	ix.notice(Notice{Kind: NoticeCorrupt, Path: ix.path, Err: cause})
	db, kind, why, err := openChecked(ix.path)
	if err == nil && kind != 0 {
		err = fmt.Errorf("discover: index %s unusable after rebuild: %w", ix.path, why)
	}
	if err != nil {
		ix.db = closedDB()
		return err
	}
	ix.db = db
	return nil
}

// closedDB is a closed handle: every call on it fails cleanly.
func closedDB() *sql.DB {
	db, _ := sql.Open("sqlite", "file:/discover-closed?vfs=memdb")
	db.Close()
	return db
}

// markDamaged records that err, met by a search or a write, says the
// file is damaged: the next Sync rebuilds it.
func (ix *Index) markDamaged(err error) {
	if isCorrupt(err) {
		ix.damaged.CompareAndSwap(nil, &err)
	}
}

// verify checks the whole file: the b-trees of every table (quick_check)
// and the structure of both full-text indexes (FTS5's integrity-check).
// It reads every page once, so it costs time linear in the file's size.
// It returns the error that says what is damaged, nil when it is sound.
func (ix *Index) verify(ctx context.Context) error {
	db := ix.conn()
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return err
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return err
		}
		if line != "ok" && len(problems) < 3 {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return &damageError{strings.Join(problems, "; ")}
	}
	for _, t := range []string{"words", "tri"} {
		if _, err := db.ExecContext(ctx, "INSERT INTO "+t+"("+t+") VALUES ('integrity-check')"); err != nil {
			return err
		}
	}
	return nil
}

// damageError is a problem PRAGMA quick_check reported.
type damageError struct{ what string }

func (e *damageError) Error() string { return "the index file is damaged: " + e.what }

// Close closes the index. Searches and a Sync in progress fail.
func (ix *Index) Close() error {
	if ix.closed.Swap(true) {
		return nil
	}
	err := ix.conn().Close()
	if ix.path != "" && ix.db != nil {
		releasePath(ix.path)
	}
	return err
}
