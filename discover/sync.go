package discover

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// SeqLister is an optional fast path a SessionQuery may offer: the
// CapturedThroughSeq that ReadSurface would report now for each id
// (aligned with ids; nil for an empty log), without reading surfaces.
// With it Sync reads only the surfaces of sessions that changed; without
// it Sync reads every surface to learn its seq, and still writes only
// what changed.
type SeqLister interface {
	CapturedSeqs(ctx context.Context, ids []string) ([]*int64, error)
}

// VersionLister is an optional interface a SessionQuery may offer: a
// token per id (aligned with ids; "" when it has none) that changes
// whenever what the session holds may have changed, even with the same
// seqs: a log replaced by another, a message rewritten in place. dshlog
// gives its log file's identity and version. Sync reads a session again
// when its token changed, and re-indexes it only when its text did.
type VersionLister interface {
	SessionVersions(ctx context.Context, ids []string) ([]string, error)
}

// SurfaceWalker is an optional fast path a SessionQuery may offer: the
// events ReadSurface would return, passed to fn one at a time in surface
// order until fn returns false, and the surface's CapturedThroughSeq.
// fn neither keeps nor changes an event. With it Sync builds a session's
// indexed text as the events come and stops reading when the text is
// full, so no whole surface is held (dshlog's Store is one).
type SurfaceWalker interface {
	WalkSurface(ctx context.Context, id string, fn func(e *sessionref.Event) bool) (captured *int64, err error)
}

// SyncStats is what one Sync did.
type SyncStats struct {
	// Sessions is how many sessions the store listed.
	Sessions int
	// Indexed sessions were new or changed and were (re)indexed.
	Indexed int
	// Unchanged sessions were left as they were.
	Unchanged int
	// Removed sessions were no longer in the store.
	Removed int
	// Failed sessions could not be read; an older entry of theirs, if
	// any, stays searchable. FirstErr is the first such error.
	Failed   int
	FirstErr error
	// Bytes is the text indexed.
	Bytes int64
	// Duration is how long the Sync took.
	Duration time.Duration
}

// state is what the index knows of one session.
type state struct {
	cwd      sql.NullString
	created  int64
	title    sql.NullString
	titleSeq sql.NullInt64
	captured sql.NullInt64
	version  sql.NullString
	bodyHash sql.NullInt64
}

// doc is a session ready to write.
type doc struct {
	id       string
	cwd      *string
	created  int64
	title    *sessionref.Title
	captured *int64
	version  string
	body     string
	metaOnly bool // only the header changed: no text is rewritten
}

// Sync brings the index up to date with the store: sessions that are new,
// or whose surface (capture seq) or title (title event seq) changed, are
// indexed again; sessions that are gone are removed; the rest are not
// touched. Work is committed in batches, so searches see it as it goes
// and a cancelled Sync keeps what it finished; it returns ctx's error. A
// session that cannot be read is counted in Failed, not an error. Only
// one Sync of an Index runs at a time; two Index values on one file may
// sync together (each batch is one immediate transaction).
func (ix *Index) Sync(ctx context.Context) (SyncStats, error) {
	return ix.SyncReporting(ctx, nil)
}

// SyncReporting is Sync that also reports its own progress to report, for
// this call only: after each session it handles, with the count of
// sessions listed (as WithProgress does for every Sync of the Index).
// report runs on the Sync's goroutine and must not block for long; a
// program hands the news to its UI through a channel.
func (ix *Index) SyncReporting(ctx context.Context, report func(Progress)) (SyncStats, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	ix.callReport = report
	defer func() { ix.callReport = nil }()
	if ix.closed.Load() {
		return SyncStats{}, ErrClosed
	}
	// A damage a search or an earlier write met, or (once per Index) one
	// a check of the whole file finds, is repaired first.
	cause := ix.damaged.Load()
	if cause == nil && !ix.checked {
		if err := ix.verify(ctx); err != nil {
			if ctx.Err() != nil {
				return SyncStats{}, ctx.Err()
			}
			if !isCorrupt(err) {
				return SyncStats{}, fmt.Errorf("discover: check index: %w", err)
			}
			cause = &err
		}
	}
	if cause != nil {
		if err := ix.rebuild(*cause); err != nil {
			return SyncStats{}, err
		}
	}
	ix.checked = true
	stats, err := ix.sync(ctx)
	if isCorrupt(err) {
		if rerr := ix.rebuild(err); rerr != nil {
			return stats, rerr
		}
		stats, err = ix.sync(ctx)
	}
	ix.markDamaged(err)
	return stats, err
}

// sync is one pass: list the store, plan what must be read, remove what
// is gone, then apply each session in the store's order, committing in
// batches. Its steps are the functions below it.
func (ix *Index) sync(ctx context.Context) (stats SyncStats, err error) {
	start := time.Now()
	defer func() { stats.Duration = time.Since(start) }()
	if ix.closed.Load() {
		return stats, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return stats, err
	}
	headers, titles, err := list(ctx, ix.q)
	if err != nil {
		return stats, fmt.Errorf("discover: list sessions: %w", storeError{err})
	}
	stats.Sessions = len(headers)
	db := ix.conn()
	known, err := ix.knownStates(ctx, db)
	if err != nil {
		return stats, err
	}
	plan, err := ix.plan(ctx, headers, titles, known)
	if err != nil {
		return stats, err
	}
	w := &writer{ix: ix, db: db}
	// Whatever happens, commit what was done; DB work is not cancelled
	// half-way, only between sessions.
	wctx := context.WithoutCancel(ctx)
	defer w.rollback()
	if stats.Removed, err = removeGone(wctx, w, headers, known); err != nil {
		return stats, err
	}
	ra := ix.readAhead(ctx, headers, plan.needs)
	defer ra.stop()

	ix.report(Progress{Done: 0, Total: len(headers)})
	for i := range headers {
		if err := ctx.Err(); err != nil {
			if cerr := w.commit(); cerr != nil {
				return stats, cerr
			}
			return stats, err
		}
		out, err := ix.applyOne(ctx, wctx, w, ra, plan, known, headers, titles, i)
		if err != nil {
			return stats, err
		}
		switch out.kind {
		case outCancelled:
			continue // reported at the top of the loop
		case outFailed:
			stats.fail(out.err)
		case outUnchanged:
			stats.Unchanged++
		case outIndexed:
			stats.Indexed++
			stats.Bytes += out.bytes
		}
		if out.written && (w.n >= ix.opts.batch || w.bytes >= 16<<20) {
			if err := w.commit(); err != nil {
				return stats, err
			}
		}
		ix.report(Progress{Done: i + 1, Total: len(headers)})
	}
	if err := w.commit(); err != nil {
		return stats, err
	}
	return stats, ctx.Err()
}

// knownStates returns a copy of the index's session states, loaded again
// when another Index changed the file since they were read.
func (ix *Index) knownStates(ctx context.Context, db *sql.DB) (map[string]state, error) {
	var gen int64
	if err := db.QueryRowContext(ctx, `SELECT v FROM meta WHERE k = 'gen'`).Scan(&gen); err != nil {
		return nil, fmt.Errorf("discover: read index: %w", err)
	}
	if ix.known == nil || ix.knownGen != gen {
		ix.known = nil
		states, err := loadStates(ctx, db)
		if err != nil {
			return nil, err
		}
		ix.known, ix.knownGen = states, gen
	}
	return maps.Clone(ix.known), nil // the pass reads it as it was
}

// syncPlan is what a pass knows before it reads any surface: each
// session's version token and capture seq (when the store gives them)
// and whether its surface must be read.
type syncPlan struct {
	versions []string
	seqs     []*int64 // nil: the store gives no seqs
	needs    []bool
}

// plan asks the store for the versions and seqs of the sessions the
// index holds (a new session is read whatever its seq, so its seq is not
// asked for: a store may have to decode a log to know it), and marks for
// reading every session but those whose seq, title and version say they
// are unchanged.
func (ix *Index) plan(ctx context.Context, headers []sessionref.SessionHeader, titles []sessionref.TitleResult, known map[string]state) (syncPlan, error) {
	var ids []string
	var at []int
	for i := range headers {
		if _, had := known[clean(headers[i].ID)]; had {
			ids = append(ids, headers[i].ID)
			at = append(at, i)
		}
	}
	p := syncPlan{versions: make([]string, len(headers))}
	if err := ix.planVersions(ctx, &p, ids, at); err != nil {
		return p, err
	}
	if err := ix.planSeqs(ctx, &p, len(headers), ids, at); err != nil {
		return p, err
	}
	p.needs = make([]bool, len(headers))
	for i := range headers {
		title := titleAt(titles, i)
		st, had := known[clean(headers[i].ID)]
		unchanged := p.seqs != nil && had && sameSeq(st.captured, p.seqs[i]) &&
			sameSeq(st.titleSeq, titleSeq(title)) && st.title == nullTitle(title) &&
			st.version == nullVersion(p.versions[i])
		p.needs[i] = !(i < len(titles) && titles[i].Err != nil) && !unchanged
	}
	return p, nil
}

// planVersions asks a VersionLister for the versions of ids, the
// sessions at headers[at[k]].
func (ix *Index) planVersions(ctx context.Context, p *syncPlan, ids []string, at []int) error {
	vl, ok := ix.q.(VersionLister)
	if !ok || len(ids) == 0 {
		return nil
	}
	got, err := vl.SessionVersions(ctx, ids)
	if err != nil {
		return fmt.Errorf("discover: read versions: %w", storeError{err})
	}
	if len(got) == len(ids) {
		for k, i := range at {
			p.versions[i] = got[k]
		}
	}
	return nil
}

// planSeqs asks a SeqLister for the captured seqs of ids; p.seqs stays
// nil when the store gives none.
func (ix *Index) planSeqs(ctx context.Context, p *syncPlan, n int, ids []string, at []int) error {
	sl, ok := ix.q.(SeqLister)
	if !ok {
		return nil
	}
	p.seqs = make([]*int64, n)
	if len(ids) == 0 {
		return nil
	}
	got, err := sl.CapturedSeqs(ctx, ids)
	if err != nil {
		return fmt.Errorf("discover: read seqs: %w", storeError{err})
	}
	if len(got) != len(ids) {
		p.seqs = nil
		return nil
	}
	for k, i := range at {
		p.seqs[i] = got[k]
	}
	return nil
}

// titleAt is session i's title, if the listing gave one.
func titleAt(titles []sessionref.TitleResult, i int) *sessionref.Title {
	if i < len(titles) {
		return titles[i].Title
	}
	return nil
}

// removeGone removes the sessions the index holds that the store no
// longer lists, and returns how many.
func removeGone(wctx context.Context, w *writer, headers []sessionref.SessionHeader, known map[string]state) (int, error) {
	present := make(map[string]bool, len(headers))
	for i := range headers {
		present[clean(headers[i].ID)] = true
	}
	n := 0
	for id := range known {
		if !present[id] {
			if err := w.remove(wctx, id); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// outcome is what applying one session came to.
type outcome struct {
	kind    outcomeKind
	err     error // outFailed: why
	bytes   int64 // outIndexed: the text indexed
	written bool  // a row was written (a batch may be due)
}

type outcomeKind uint8

const (
	outUnchanged outcomeKind = iota // nothing to write, or only its metadata
	outIndexed                      // its text was indexed
	outFailed                       // its title or surface could not be read
	outCancelled                    // its read ended with the Sync's context
)

// applyOne brings session i of the listing up to date: its metadata
// alone when its surface was not read or its text did not change, its
// text otherwise. An error is the index's, and ends the pass.
func (ix *Index) applyOne(ctx, wctx context.Context, w *writer, ra *readAhead, plan syncPlan, known map[string]state,
	headers []sessionref.SessionHeader, titles []sessionref.TitleResult, i int) (outcome, error) {
	h := &headers[i]
	if i < len(titles) && titles[i].Err != nil {
		return outcome{kind: outFailed, err: titles[i].Err}, nil
	}
	title := titleAt(titles, i)
	st, had := known[clean(h.ID)]
	d := doc{id: h.ID, cwd: h.Cwd, created: h.CreatedAt, title: title, version: plan.versions[i]}
	if !plan.needs[i] {
		d.captured, d.metaOnly = plan.seqs[i], true
	} else {
		r := ra.next(i)
		if r.err != nil {
			if ctx.Err() != nil {
				return outcome{kind: outCancelled}, nil
			}
			return outcome{kind: outFailed, err: r.err}, nil
		}
		d.captured, d.body = r.captured, r.body
		// Unchanged by its seqs and token, or by the text it gives the
		// index: a session read again for a new token (a log replaced, a
		// store without seqs) is rewritten only when its text changed.
		d.metaOnly = had && sameSeq(st.titleSeq, titleSeq(title)) && st.title == nullTitle(title) &&
			st.bodyHash == nullInt(ptr(bodyHash(d.body)))
	}
	if d.metaOnly && had && st.cwd == nullString(d.cwd) && st.created == d.created && st.title == nullTitle(d.title) &&
		st.version == nullVersion(d.version) && sameSeq(st.captured, d.captured) {
		return outcome{kind: outUnchanged}, nil
	}
	if err := w.put(wctx, &d); err != nil {
		return outcome{}, err
	}
	if d.metaOnly {
		return outcome{kind: outUnchanged, written: true}, nil
	}
	return outcome{kind: outIndexed, bytes: int64(len(d.body)), written: true}, nil
}

func (s *SyncStats) fail(err error) {
	s.Failed++
	if s.FirstErr == nil {
		s.FirstErr = err
	}
}

// report tells the Index's WithProgress and the running SyncReporting's
// report; the caller holds syncMu.
func (ix *Index) report(p Progress) {
	if ix.opts.progress != nil {
		ix.opts.progress(p)
	}
	if ix.callReport != nil {
		ix.callReport(p)
	}
}

// list returns every header with its title, from a TitleLister when the
// store is one.
func list(ctx context.Context, q sessionref.SessionQuery) ([]sessionref.SessionHeader, []sessionref.TitleResult, error) {
	if tl, ok := q.(sessionref.TitleLister); ok {
		h, t, err := tl.ListSessionsWithTitles(ctx)
		if err == nil && len(t) != len(h) {
			err = errors.New("title listing is not aligned with the headers")
		}
		return h, t, err
	}
	headers, err := q.ListSessions(ctx)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(headers))
	for i := range headers {
		ids[i] = headers[i].ID
	}
	titles, err := q.ReadTitles(ctx, ids)
	if err == nil && len(titles) != len(ids) {
		err = errors.New("ReadTitles returned a result count that is not the id count")
	}
	return headers, titles, err
}

func loadStates(ctx context.Context, db *sql.DB) (map[string]state, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, cwd, created, title, title_seq, captured_seq, version, body_hash FROM sessions`)
	if err != nil {
		return nil, fmt.Errorf("discover: read index: %w", err)
	}
	defer rows.Close()
	out := map[string]state{}
	for rows.Next() {
		var id string
		var st state
		if err := rows.Scan(&id, &st.cwd, &st.created, &st.title, &st.titleSeq, &st.captured, &st.version, &st.bodyHash); err != nil {
			return nil, fmt.Errorf("discover: read index: %w", err)
		}
		out[id] = st
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("discover: read index: %w", err)
	}
	return out, nil
}

// bodyHash is a hash of a session's indexed text, kept to tell a session
// read again whose text did not change.
func bodyHash(body string) int64 {
	h := fnv.New64a()
	h.Write([]byte(body))
	return int64(h.Sum64())
}

func ptr[T any](v T) *T { return &v }

func nullVersion(v string) sql.NullString {
	if v == "" {
		return sql.NullString{}
	}
	return sql.NullString{String: v, Valid: true}
}

func titleSeq(t *sessionref.Title) *int64 {
	if t == nil {
		return nil
	}
	return &t.EventSeq
}

func sameSeq(a sql.NullInt64, b *int64) bool {
	if b == nil {
		return !a.Valid
	}
	return a.Valid && a.Int64 == *b
}

func nullString(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: clean(*s), Valid: true}
}

func nullTitle(t *sessionref.Title) sql.NullString {
	if t == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: readable(t.Text), Valid: true}
}

func nullInt(p *int64) sql.NullInt64 {
	if p == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: *p, Valid: true}
}

// writer writes sessions in batches, one immediate transaction each.
type writer struct {
	ix      *Index
	pending map[string]*state // what this batch wrote; nil: removed
	db      *sql.DB
	tx      *sql.Tx
	n       int
	bytes   int
}

func (w *writer) begin(ctx context.Context) error {
	if w.tx != nil {
		return nil
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("discover: write index: %w", err)
	}
	w.tx = tx
	return nil
}

func (w *writer) exec(ctx context.Context, query string, args ...any) error {
	if _, err := w.tx.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("discover: write index: %w", err)
	}
	return nil
}

// put writes one session, replacing what the index held for its id.
func (w *writer) put(ctx context.Context, d *doc) error {
	if err := w.begin(ctx); err != nil {
		return err
	}
	id := clean(d.id)
	var rowid int64
	err := w.tx.QueryRowContext(ctx, `SELECT rowid FROM sessions WHERE id = ?`, id).Scan(&rowid)
	had := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("discover: write index: %w", err)
	}
	title := nullTitle(d.title)
	cwd := nullString(d.cwd)
	version := nullVersion(d.version)
	st := &state{cwd: cwd, created: d.created, title: title, titleSeq: nullInt(titleSeq(d.title)), captured: nullInt(d.captured), version: version}
	if d.metaOnly && had {
		if old, ok := w.ix.known[id]; ok {
			st.bodyHash = old.bodyHash
		}
		w.note(id, st)
		w.n++
		return w.exec(ctx, `UPDATE sessions SET cwd = ?, created = ?, title = ?, captured_seq = ?, version = ? WHERE rowid = ?`,
			cwd, d.created, title, nullInt(d.captured), version, rowid)
	}
	hash := bodyHash(d.body)
	st.bodyHash = nullInt(&hash)
	w.note(id, st)
	if had {
		for _, q := range []string{`DELETE FROM docs WHERE rowid = ?`, `DELETE FROM words WHERE rowid = ?`, `DELETE FROM tri WHERE rowid = ?`} {
			if err := w.exec(ctx, q, rowid); err != nil {
				return err
			}
		}
		if err := w.exec(ctx, `UPDATE sessions SET cwd = ?, created = ?, title = ?, title_seq = ?, captured_seq = ?, version = ?, body_hash = ? WHERE rowid = ?`,
			cwd, d.created, title, nullInt(titleSeq(d.title)), nullInt(d.captured), version, hash, rowid); err != nil {
			return err
		}
	} else {
		// Not RETURNING: a statement that returns rows opens a savepoint,
		// which makes FTS5 flush its pending terms for every session.
		res, err := w.tx.ExecContext(ctx, `INSERT INTO sessions(id, cwd, created, title, title_seq, captured_seq, version, body_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id, cwd, d.created, title, nullInt(titleSeq(d.title)), nullInt(d.captured), version, hash)
		if err == nil {
			rowid, err = res.LastInsertId()
		}
		if err != nil {
			return fmt.Errorf("discover: write index: %w", err)
		}
	}
	if err := w.exec(ctx, `INSERT INTO docs(rowid, title, body) VALUES (?, ?, ?)`, rowid, title.String, d.body); err != nil {
		return err
	}
	if err := w.exec(ctx, `INSERT INTO words(rowid, title, body) VALUES (?, ?, ?)`, rowid, withGrams(title.String), withGrams(d.body)); err != nil {
		return err
	}
	if t, b := gramRuns(title.String), gramRuns(d.body); t != "" || b != "" {
		if err := w.exec(ctx, `INSERT INTO tri(rowid, title, body) VALUES (?, ?, ?)`, rowid, t, b); err != nil {
			return err
		}
	}
	w.n++
	w.bytes += len(d.body)
	return nil
}

// remove deletes one session from the index.
func (w *writer) remove(ctx context.Context, id string) error {
	if err := w.begin(ctx); err != nil {
		return err
	}
	var rowid int64
	err := w.tx.QueryRowContext(ctx, `SELECT rowid FROM sessions WHERE id = ?`, id).Scan(&rowid)
	if errors.Is(err, sql.ErrNoRows) {
		w.note(id, nil)
		return nil
	}
	if err != nil {
		return fmt.Errorf("discover: write index: %w", err)
	}
	for _, q := range []string{`DELETE FROM docs WHERE rowid = ?`, `DELETE FROM words WHERE rowid = ?`, `DELETE FROM tri WHERE rowid = ?`, `DELETE FROM sessions WHERE rowid = ?`} {
		if err := w.exec(ctx, q, rowid); err != nil {
			return err
		}
	}
	w.note(id, nil)
	w.n++
	return nil
}

func (w *writer) commit() error {
	if w.tx == nil {
		return nil
	}
	ctx := context.Background()
	var gen int64
	err := w.tx.QueryRowContext(ctx, `UPDATE meta SET v = v + 1 WHERE k = 'gen' RETURNING v`).Scan(&gen)
	if err == nil {
		err = w.tx.Commit()
	}
	w.tx, w.n, w.bytes = nil, 0, 0
	if err != nil {
		w.ix.known = nil
		return fmt.Errorf("discover: write index: %w", err)
	}
	// The batch applied to the states in memory is the file's state, unless
	// another writer committed in between.
	if w.ix.known != nil && gen == w.ix.knownGen+1 {
		for id, st := range w.pending {
			if st == nil {
				delete(w.ix.known, id)
			} else {
				w.ix.known[id] = *st
			}
		}
		w.ix.knownGen = gen
	} else {
		w.ix.known = nil
	}
	clear(w.pending)
	return nil
}

func (w *writer) rollback() {
	if w.tx != nil {
		w.tx.Rollback()
		w.tx = nil
		w.ix.known = nil // the batch's states are not the file's
	}
}

// note records what the batch wrote for id (nil: removed).
func (w *writer) note(id string, st *state) {
	if w.pending == nil {
		w.pending = map[string]*state{}
	}
	w.pending[id] = st
}
