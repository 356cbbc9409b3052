package discover

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// fullOrder is every hit of q in Search's order, by one query that
// scores and orders all matches at once: the order Search must keep
// whatever its limit.
func fullOrder(t *testing.T, ix *Index, target sessionref.Target, q string) []string {
	t.Helper()
	words, tri := matchExprs(parseQuery(q))
	w := `SELECT rowid AS rid, bm25(words, 4.0, 1.0) AS score FROM words WHERE words MATCH ?1`
	g := `SELECT rowid AS rid, bm25(tri, 4.0, 1.0) AS score FROM tri WHERE tri MATCH ?2`
	var rank string
	switch {
	case words != "" && tri != "":
		rank = `SELECT w.rid AS rid, w.score + g.score AS score FROM (` + w + `) w JOIN (` + g + `) g ON g.rid = w.rid`
	case words != "":
		rank = w + ` AND ?2 IS NULL`
	default:
		rank = g + ` AND ?1 IS NULL`
	}
	var cwd any
	if target.Cwd != nil {
		cwd = *target.Cwd
	}
	rows, err := ix.db.Query(`WITH hit AS (`+rank+`)
		SELECT s.id FROM hit JOIN sessions s ON s.rowid = hit.rid
		WHERE s.id <> ?3
		ORDER BY hit.score, CASE WHEN s.cwd IS NULL THEN 1 WHEN s.cwd = ?4 THEN 0 ELSE 2 END, s.created DESC, s.id`,
		nullIfEmpty(words), nullIfEmpty(tri), target.ID, cwd)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// Search scores every match but orders only the best few in full; with
// many equal scores (sessions of the same text), across the limit's
// boundary, and with the index scored in two halves at once, every limit
// gives the first sessions of the full order.
func TestSearchKeepsTheFullOrderAtEveryLimit(t *testing.T) {
	c := &corpus{store: fakestore.New(), ids: map[string]string{}, at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	cwds := []*string{strp("/src/here"), nil, strp("/src/there")}
	texts := []string{
		"the retry loop times out",                       // many ties
		"the retry loop times out after the retry storm", // more of retry
		"timeout in the retry loop of the 修复测试 job",
		"修复测试 again: the retry loop",
		"unrelated words only",
	}
	n := 0
	for rep := 0; rep < 24; rep++ {
		for k, text := range texts {
			title := ""
			if rep%7 == 0 && k == 1 {
				title = "retry storm"
			}
			c.add(t, fmt.Sprintf("%04x", n), cwds[(rep+k)%len(cwds)], title, text)
			if rep%3 == 0 { // a second session created at the same moment
				n++
				c.at = c.at.Add(-time.Minute)
				c.add(t, fmt.Sprintf("%04x", n), cwds[(rep+k+1)%len(cwds)], title, text)
			}
			n++
		}
	}
	ix := openSynced(t, c, "")
	target := sessionref.Target{ID: c.ids["0005"], Cwd: strp("/src/here")}
	defer func(old int64) { splitFrom = old }(splitFrom)
	for _, split := range []int64{1 << 62, 8} {
		splitFrom = split
		for _, q := range []string{"retry loop", "retry tim", `"the retry loop"`, "修复测试 retry", "zebra"} {
			want := fullOrder(t, ix, target, q)
			for _, limit := range []int{1, 2, 3, 5, 9, 17, 33, len(want) + 1} {
				hits, err := ix.Search(context.Background(), target, q, limit)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, h := range hits {
					got = append(got, h.SessionID)
				}
				if w := want[:min(limit, len(want))]; !slices.Equal(got, w) {
					t.Fatalf("split from %d, %q, limit %d:\n got %v\nwant %v", split, q, limit, got, w)
				}
			}
		}
	}
}

// A limit too large to double is taken as every match, not an error.
func TestSearchHugeLimit(t *testing.T) {
	c := newCorpus(t)
	ix := openSynced(t, c, "")
	for _, limit := range []int{math.MaxInt / 2, math.MaxInt} {
		hits, err := ix.Search(context.Background(), sessionref.Target{}, "retry", limit)
		if err != nil || len(hits) != 2 {
			t.Fatalf("limit %d: %d hits, %v", limit, len(hits), err)
		}
	}
}
