package discover

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// operands is the only shape a MATCH expression may have: FTS5 strings
// (quotes doubled inside), each maybe marked a prefix, joined by AND.
var operands = regexp.MustCompile(`^"(?:[^"]|"")*"(?: \*)?(?: AND "(?:[^"]|"")*"(?: \*)?)*$`)

// FuzzQuery checks that no input reaches MATCH as FTS5 syntax and that no
// query fails or yields an unsafe hit.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"", `"`, `*`, `NEAR(a b)`, `-x`, `AND OR NOT`, `a"b`, `"retry bug`, `崩溃 🎉`, "cafe\u0301",
		`title:x`, `{a b}: c`, `x^y`, `"" "" "`, "\x00\xff", `“curly” "straight`, "a\u200db", strings.Repeat("ab ", 40)} {
		f.Add(s)
	}
	c := newCorpus(f)
	ix := openSynced(f, c, "")
	f.Fuzz(func(t *testing.T, q string) {
		terms := parseQuery(q)
		if len(terms) > maxTerms {
			t.Fatalf("%d terms", len(terms))
		}
		words, tri := matchExprs(terms)
		for _, e := range []string{words, tri} {
			if e != "" && !operands.MatchString(e) {
				t.Fatalf("query %q became MATCH expression %q", q, e)
			}
		}
		if (words == "" && tri == "") != (len(terms) == 0) {
			t.Fatalf("query %q: terms %v but expressions %q %q", q, terms, words, tri)
		}
		hits, err := ix.Search(context.Background(), sessionref.Target{}, q, 5)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		for _, h := range hits {
			checkHit(t, q, h)
		}
	})
}
