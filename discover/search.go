package discover

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	ix.dbMu.RLock()
	defer ix.dbMu.RUnlock()
	hits, rowids, err := ix.rank(ctx, t, words, tri, limit)
	if err != nil {
		return nil, ix.searchErr(ctx, err)
	}
	ns := needles(terms)
	for i := range hits {
		if err := ctx.Err(); err != nil {
			return nil, ix.searchErr(ctx, err)
		}
		var title, body string
		err := ix.db.QueryRowContext(ctx, `SELECT title, body FROM docs WHERE rowid = ?`, rowids[i]).Scan(&title, &body)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, ix.searchErr(ctx, err)
		}
		hits[i].Snippet, hits[i].Match = snippet(ctx, title, body, ns)
	}
	return hits, nil
}

// scored is one matching session with its bm25 score (lower is better).
type scored struct {
	rowid  int64
	score  float64
	hit    Hit
	aff    int  // 0 in t's directory, 1 without one, 2 elsewhere
	found  bool // its session was read
	unsure bool // rows not read may score as well
}

// rank finds the best limit sessions matching the expressions, in
// Search's order, and their rowids. FTS5 scores every match; only the
// best few by score are then looked up and ordered by the tie-breakers:
// a session of score s is among the answer only if fewer than limit
// others score below s, so when limit sessions score below the last one
// read, nothing unread can change the answer. Otherwise (a tie across
// that boundary, which takes many identical scores) every match is
// ordered in full.
func (ix *Index) rank(ctx context.Context, t sessionref.Target, words, tri string, limit int) ([]Hit, []int64, error) {
	const (
		w = `SELECT rowid AS rid, bm25(words, 4.0, 1.0) AS score FROM words WHERE words MATCH ?1 AND rowid BETWEEN ?3 AND ?4`
		g = `SELECT rowid AS rid, bm25(tri, 4.0, 1.0) AS score FROM tri WHERE tri MATCH ?2 AND rowid BETWEEN ?3 AND ?4`
	)
	var q string
	switch {
	case words != "" && tri != "":
		q = `SELECT w.rid, w.score + g.score AS score FROM (` + w + `) w JOIN (` + g + `) g ON g.rid = w.rid`
	case words != "":
		q = w + ` AND ?2 IS NULL`
	default:
		q = g + ` AND ?1 IS NULL`
	}
	parts, err := ix.parts(ctx)
	if err != nil {
		return nil, nil, err
	}
	// One more than the answer, and a margin for ties and for t's own
	// session.
	read := min(limit, 1<<20)*2 + 8
	top, err := ix.scoreParts(ctx, q+` ORDER BY score LIMIT ?5`, words, tri, parts, read)
	if err != nil {
		return nil, nil, err
	}
	all := !complete(top, limit)
	if all {
		if top, err = ix.scoreParts(ctx, q, words, tri, parts, -1); err != nil {
			return nil, nil, err
		}
	}
	if err := ix.sessionsOf(ctx, t, top); err != nil {
		return nil, nil, err
	}
	if !all && slices.ContainsFunc(top, func(s scored) bool { return !s.found }) {
		// A Sync removed a session between the scoring and now: what was
		// read may no longer hold the answer. Order every match instead.
		if top, err = ix.scoreParts(ctx, q, words, tri, parts, -1); err != nil {
			return nil, nil, err
		}
		if err := ix.sessionsOf(ctx, t, top); err != nil {
			return nil, nil, err
		}
	}
	self := clean(t.ID)
	top = slices.DeleteFunc(top, func(s scored) bool { return !s.found || s.hit.SessionID == self })
	slices.SortFunc(top, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.aff, b.aff),
			cmp.Compare(b.hit.CreatedAt, a.hit.CreatedAt), strings.Compare(a.hit.SessionID, b.hit.SessionID))
	})
	top = top[:min(limit, len(top))]
	hits := make([]Hit, len(top))
	rowids := make([]int64, len(top))
	for i, s := range top {
		hits[i], rowids[i] = s.hit, s.rowid
	}
	return hits, rowids, nil
}

// part is a range of rowids [lo, hi] scored on its own connection.
type part struct{ lo, hi int64 }

// splitFrom is the span of rowids (about the number of sessions) from
// which a search is scored in
// two halves at once: bm25 costs a little for every match, and the two
// halves take two cores.
var splitFrom int64 = 2048

// parts divides the index's rowids into the ranges a search scores at
// once. The halves' scores compare: bm25 reads the statistics of the
// whole table.
func (ix *Index) parts(ctx context.Context) ([]part, error) {
	var lo, hi int64
	// Two subqueries: SQLite answers a lone min or max from the index's
	// ends, but scans the table for both in one.
	if err := ix.db.QueryRowContext(ctx, `SELECT coalesce((SELECT min(rowid) FROM sessions), 0), coalesce((SELECT max(rowid) FROM sessions), 0)`).Scan(&lo, &hi); err != nil {
		return nil, err
	}
	if hi-lo < splitFrom {
		return []part{{math.MinInt64, math.MaxInt64}}, nil
	}
	mid := lo + (hi-lo)/2
	return []part{{math.MinInt64, mid}, {mid + 1, math.MaxInt64}}, nil
}

// partScores is what one part's ranking query read.
type partScores struct {
	rows      []scored
	truncated bool // it read as many rows as it was allowed
	err       error
}

// scoreParts runs a ranking query over each part at once, each reading
// at most read rows (all when read < 0), and merges them best first.
// Rows not read score no better than the last row of their part, so the
// merged rows are complete below the lowest such last score; rows at or
// above it are marked unsure.
func (ix *Index) scoreParts(ctx context.Context, q, words, tri string, parts []part, read int) ([]scored, error) {
	res := make([]partScores, len(parts))
	// A part that fails stops the others: the search fails anyway.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := []any{nullIfEmpty(words), nullIfEmpty(tri), p.lo, p.hi}
			if read >= 0 {
				args = append(args, read)
			}
			r := &res[i]
			r.rows, r.err = ix.scores(ctx, q, args)
			r.truncated = read >= 0 && len(r.rows) == read
			if r.err != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	// The error that stopped the others, not theirs.
	if i := slices.IndexFunc(res, func(r partScores) bool { return r.err != nil && !errors.Is(r.err, context.Canceled) }); i >= 0 {
		return nil, res[i].err
	}
	var all []scored
	sure := math.Inf(1)
	for _, r := range res {
		if r.err != nil {
			return nil, r.err
		}
		all = append(all, r.rows...)
		if r.truncated {
			sure = min(sure, r.rows[len(r.rows)-1].score)
		}
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Compare(a.score, b.score) })
	for i := range all {
		all[i].unsure = all[i].score >= sure
	}
	return all, nil
}

// complete reports whether rows, best first, hold Search's answer of
// limit sessions: a session is among the answer only if fewer than limit
// others score below it, so when more than limit rows (one may be the
// target's own session) score below every row not read, no row not read
// can change it.
func complete(rows []scored, limit int) bool {
	sure := 0
	for _, r := range rows {
		if r.unsure {
			return sure > limit
		}
		sure++
	}
	return true
}

// scores runs a ranking query: rowids and scores, best first.
func (ix *Index) scores(ctx context.Context, q string, args []any) ([]scored, error) {
	rows, err := ix.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.rowid, &s.score); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// sessionsOf reads the session of each scored row: its id, label, cwd,
// age and rank for t. A row whose session is gone is left not found.
func (ix *Index) sessionsOf(ctx context.Context, t sessionref.Target, top []scored) error {
	if len(top) == 0 {
		return nil
	}
	at := make(map[int64]int, len(top))
	ids := make([]string, len(top))
	for i, s := range top {
		at[s.rowid] = i
		ids[i] = strconv.FormatInt(s.rowid, 10)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT rowid, id, cwd, created, title FROM sessions
		WHERE rowid IN (SELECT value FROM json_each(?))`, "["+strings.Join(ids, ",")+"]")
	if err != nil {
		return err
	}
	defer rows.Close()
	var tcwd string
	if t.Cwd != nil {
		tcwd = clean(*t.Cwd)
	}
	for rows.Next() {
		var (
			rowid int64
			h     Hit
			cwd   sql.NullString
			title sql.NullString
		)
		if err := rows.Scan(&rowid, &h.SessionID, &cwd, &h.CreatedAt, &title); err != nil {
			return err
		}
		h.Label = h.SessionID
		if title.Valid {
			h.Label = title.String
		}
		s := &top[at[rowid]]
		switch {
		case !cwd.Valid:
			s.aff = 1
		case t.Cwd != nil && cwd.String == tcwd:
			s.aff = 0
		default:
			s.aff = 2
		}
		if cwd.Valid {
			c := cwd.String
			h.Cwd = &c
		}
		h.Rank = sessionref.RankOf(t, h.Cwd)
		s.hit, s.found = h, true
	}
	return rows.Err()
}

func (ix *Index) searchErr(ctx context.Context, err error) error {
	ix.markDamaged(err)
	if ctx.Err() != nil {
		return fmt.Errorf("discover: search: %w", context.Cause(ctx))
	}
	if isCorrupt(err) {
		return fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return fmt.Errorf("discover: search: %w", err)
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
