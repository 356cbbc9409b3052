package discover

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/dshkit/mentions/sessionref"
)

// Hit is one session found by what was said in it.
type Hit struct {
	// Candidate is the session as the picker shows any candidate: its id,
	// label (latest title, else the id), working directory and rank.
	sessionref.Candidate
	// Snippet is one line of the matching text (a message line, or the
	// title when only the title matched), plain and safe to print: no
	// control or escape characters, at most a few hundred bytes.
	Snippet string
	// Match holds the byte ranges [start, end) of the matched terms in
	// Snippet, in order and not overlapping.
	Match [][2]int
}

// Search returns up to limit sessions whose title or messages match
// query, best first: by relevance (bm25, a title match weighing more),
// then in t's working directory, without one, elsewhere (as candidates
// rank), then newest. t's own session is never a hit.
//
// A query is what a person types: every word must occur, "quoted
// phrases" must occur as written, and the last word, still being typed,
// may be the start of a longer word. Case and accents do not matter.
// Nothing typed is FTS syntax: an empty or all-punctuation query gives
// no hits and no error. A limit below 1 is [ErrLimit]; when ctx ends the
// error wraps its cause (errors.Is(err, context.Canceled)).
func (ix *Index) Search(ctx context.Context, t sessionref.Target, query string, limit int) ([]Hit, error) {
	if limit < 1 {
		return nil, ErrLimit
	}
	if ix.closed.Load() {
		return nil, ErrClosed
	}
	terms := parseQuery(query)
	if len(terms) == 0 {
		return nil, nil
	}
	words, tri := matchExprs(terms)
	const (
		w = `SELECT rowid AS rid, bm25(words, 4.0, 1.0) AS score FROM words WHERE words MATCH ?1`
		g = `SELECT rowid AS rid, bm25(tri, 4.0, 1.0) AS score FROM tri WHERE tri MATCH ?2`
	)
	var rank string
	switch {
	case words != "" && tri != "":
		rank = `SELECT w.rid AS rid, w.score + g.score AS score FROM (` + w + `) w JOIN (` + g + `) g ON g.rid = w.rid`
	case words != "":
		rank = w + ` AND ?2 IS NULL`
	default:
		rank = g + ` AND ?1 IS NULL`
	}
	args := []any{nullIfEmpty(words), nullIfEmpty(tri)}
	var cwd any
	if t.Cwd != nil {
		cwd = clean(*t.Cwd)
	}
	args = append(args, clean(t.ID), cwd, limit)
	// Rank on the index alone; read the text of the few hits after.
	q := `WITH hit AS (` + rank + `)
		SELECT s.rowid, s.id, s.cwd, s.created, s.title
		FROM hit JOIN sessions s ON s.rowid = hit.rid
		WHERE s.id <> ?3
		ORDER BY hit.score, CASE WHEN s.cwd IS NULL THEN 1 WHEN s.cwd = ?4 THEN 0 ELSE 2 END, s.created DESC, s.id
		LIMIT ?5`

	ix.dbMu.RLock()
	defer ix.dbMu.RUnlock()
	hits, rowids, err := ix.rank(ctx, t, q, args)
	if err != nil {
		return nil, searchErr(ctx, err)
	}
	ns := needles(terms)
	for i := range hits {
		var title, body string
		err := ix.db.QueryRowContext(ctx, `SELECT title, body FROM docs WHERE rowid = ?`, rowids[i]).Scan(&title, &body)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, searchErr(ctx, err)
		}
		hits[i].Snippet, hits[i].Match = snippet(title, body, ns)
	}
	return hits, nil
}

func (ix *Index) rank(ctx context.Context, t sessionref.Target, q string, args []any) ([]Hit, []int64, error) {
	rows, err := ix.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var hits []Hit
	var rowids []int64
	for rows.Next() {
		var (
			rowid   int64
			h       Hit
			cwd     sql.NullString
			title   sql.NullString
			created int64
		)
		if err := rows.Scan(&rowid, &h.SessionID, &cwd, &created, &title); err != nil {
			return nil, nil, err
		}
		h.Label, h.CreatedAt = h.SessionID, created
		if title.Valid {
			h.Label = title.String
		}
		if cwd.Valid {
			c := cwd.String
			h.Cwd = &c
		}
		h.Rank = sessionref.RankOf(t, h.Cwd)
		hits = append(hits, h)
		rowids = append(rowids, rowid)
	}
	return hits, rowids, rows.Err()
}

func searchErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("discover: search: %w", context.Cause(ctx))
	}
	if isCorrupt(err) {
		return fmt.Errorf("discover: search: the index is damaged and is rebuilt by the next Sync: %w", err)
	}
	return fmt.Errorf("discover: search: %w", err)
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
