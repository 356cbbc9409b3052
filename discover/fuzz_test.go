package discover

import (
	"context"
	"regexp"
	"slices"
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
		`title:x`, `{a b}: c`, `x^y`, `"" "" "`, "\x00\xff", `“curly” "straight`, "a\u200db", strings.Repeat("ab ", 40),
		strings.Repeat(strings.Repeat("a", 200)+" ", 16), strings.Repeat(strings.Repeat("你", 80)+" ", 16),
		strings.Repeat(`"`+strings.Repeat("a ", 100)+`" `, 16)} {
		f.Add(s)
	}
	c := newCorpus(f)
	ix := openSynced(f, c, "")
	f.Fuzz(func(t *testing.T, q string) {
		terms := parseQuery(q)
		if len(terms) > maxTerms {
			t.Fatalf("%d terms", len(terms))
		}
		for _, tm := range terms {
			for _, p := range pieces(tm) {
				if p.gram && countable(p.text) > maxGramRunes || !p.gram && len(strings.FieldsFunc(p.text, func(r rune) bool { return !isWordRune(r) && !ignorable(r) })) > maxPhraseWords {
					t.Fatalf("query %q: piece %q over its bound", q, p.text)
				}
			}
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

// FuzzFind checks the highlighter's linear search against the obvious
// one: the same first match, and matches that are real and in order.
func FuzzFind(f *testing.F) {
	f.Add(strings.Repeat("a", 300), strings.Repeat("a", 40), true, false)
	f.Add("abababab abab", "abab", false, false)
	f.Add("the retry bug, retry", "retry", true, true)
	f.Add(strings.Repeat("你", 500), strings.Repeat("你", 9), false, false)
	f.Fuzz(func(t *testing.T, text, pat string, start, end bool) {
		if len(text) > 4096 || len(pat) > 256 {
			return
		}
		fl := fold(text)
		n := needle{runes: fold(pat).runes, start: start, end: end}
		got := n.find(&fl, 1<<20)
		naive := func() int {
			k := len(n.runes)
			for i := 0; k > 0 && i+k <= len(fl.runes); i++ {
				if !slices.Equal(fl.runes[i:i+k], n.runes) ||
					n.start && i > 0 && isWordRune(fl.runes[i-1]) ||
					n.end && i+k < len(fl.runes) && isWordRune(fl.runes[i+k]) {
					continue
				}
				return i
			}
			return -1
		}()
		if (naive < 0) != (len(got) == 0) || naive >= 0 && got[0][0] != naive {
			t.Fatalf("find %q in %q: %v, first by hand %d", pat, text, got, naive)
		}
		last := 0
		for _, m := range got {
			if m[0] < last || !slices.Equal(fl.runes[m[0]:m[1]], n.runes) {
				t.Fatalf("find %q in %q: bad match %v of %v", pat, text, m, got)
			}
			last = m[1]
		}
	})
}
