package discover

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/textutil"
)

// Bounds on what a query can ask, so a pasted megabyte costs no more than
// a sentence. Cutting a term only widens its match (a substring of the
// term must occur), it never changes what a term means.
const (
	maxQueryBytes = 4 << 10
	maxTerms      = 16
	maxTermBytes  = 256
	// FTS5 matches a phrase (or a run of trigrams) at every position of
	// its first token, one token after another, so its cost is the
	// positions times its length: a phrase keeps its first
	// maxPhraseWords words, a run of gram characters its first
	// maxGramRunes characters (maxGramRunes-2 trigrams).
	maxPhraseWords = 4
	maxGramRunes   = 5
	// At most maxOperands operands reach each table: more only narrow
	// a match that is rarely wider without them, at a cost each.
	maxOperands = 8
)

// term is one condition of a query; every term must match.
type term struct {
	text   string // no control characters, no quotes, spaces collapsed
	phrase bool   // written in quotes
	prefix bool   // the word being typed: the last one, unquoted or unclosed
}

// parseQuery splits what a person typed into terms: words separated by
// spaces, and "quoted phrases" (straight or curly quotes; an unclosed
// quote runs to the end). Punctuation around a word is dropped, and a
// term with no letter, digit or symbol such as an emoji is no term at
// all. Nothing in the input has a syntax of its own beyond that.
func parseQuery(q string) []term {
	q = textutil.CutUTF8(q, maxQueryBytes)
	var (
		terms   []term
		cur     strings.Builder
		inQuote bool
	)
	flush := func(phrase, prefix bool) {
		s := cur.String()
		cur.Reset()
		if phrase {
			s = strings.TrimSpace(s)
		} else {
			s = strings.TrimFunc(s, unicode.IsPunct)
		}
		if !meaningful(s) || len(terms) == maxTerms {
			return
		}
		t := term{text: textutil.CutUTF8(s, maxTermBytes), phrase: phrase, prefix: prefix}
		for i := range terms {
			if terms[i].text == t.text && terms[i].phrase == t.phrase {
				// The same term again asks nothing more; a typed prefix
				// is widened into the whole word written before it.
				terms[i].prefix = terms[i].prefix && t.prefix
				return
			}
		}
		terms = append(terms, t)
	}
	for i, r := range q {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(q[i:]); size == 1 {
				r = ' '
			}
		}
		switch {
		case isQuote(r):
			flush(inQuote, false)
			inQuote = !inQuote
		case unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != '\u200d':
			if inQuote {
				if s := cur.String(); s != "" && !strings.HasSuffix(s, " ") {
					cur.WriteByte(' ')
				}
				continue
			}
			flush(false, false)
		default:
			cur.WriteRune(r)
		}
	}
	// What is still open when the input ends is being typed.
	flush(inQuote, true)
	return terms
}

func isQuote(r rune) bool {
	switch r {
	case '"', '\u201c', '\u201d', '\u201e', '\uff02':
		return true
	}
	return false
}

// meaningful reports whether s holds something a search can find: a
// letter, a digit, or a symbol outside ASCII (an emoji).
func meaningful(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || isGram(r) {
			return true
		}
	}
	return false
}

// piece is one part of a term: a run of gram characters (CJK, emoji) or
// a run of anything else (words of spaced scripts and what joins them).
type piece struct {
	text   string
	gram   bool
	prefix bool // the last piece of the term being typed
}

// pieces splits a term into its gram and word runs. A word run with no
// letter or digit (punctuation between two CJK words) is dropped.
func pieces(tm term) []piece {
	var out []piece
	var cur strings.Builder
	gram := false
	flush := func() {
		s := cur.String()
		cur.Reset()
		if gram && countable(s) > 0 || !gram && hasWordChar(s) {
			if gram {
				s = cutRunes(s, maxGramRunes)
			} else {
				s = cutWords(s, maxPhraseWords)
			}
			out = append(out, piece{text: s, gram: gram})
		}
	}
	for _, r := range tm.text {
		if ignorable(r) {
			cur.WriteRune(r)
			continue
		}
		if g := isGram(r); g != gram && cur.Len() > 0 {
			flush()
		}
		gram = isGram(r)
		cur.WriteRune(r)
	}
	flush()
	if n := len(out); n > 0 && tm.prefix {
		out[n-1].prefix = true
	}
	return out
}

// matchExprs translates terms into the two FTS5 MATCH expressions. words
// (unicode61) answers words, phrases and the word being typed (a
// prefix), and gram runs of one or two characters by their gram tokens;
// tri (trigram) answers gram runs of three characters or more as
// substrings. Every operand is an FTS5 string, so no input is ever read
// as FTS5 syntax, and operands are joined by AND. An expression is ""
// when no term needs it.
func matchExprs(terms []term) (words, tri string) {
	var w, t []string
	for _, tm := range terms {
		for _, p := range pieces(tm) {
			switch {
			case p.gram && countable(p.text) >= 3:
				t = append(t, ftsString(p.text))
			case p.gram:
				var rs []rune
				for _, r := range p.text {
					if !ignorable(r) {
						rs = append(rs, r)
					}
				}
				w = append(w, ftsString(gramToken(rs...)))
			default:
				op := ftsString(p.text)
				if p.prefix {
					op += " *"
				}
				w = append(w, op)
			}
		}
	}
	// An operand twice asks nothing more, and costs a second pass.
	w, t = distinct(w, maxOperands), distinct(t, maxOperands)
	return strings.Join(w, " AND "), strings.Join(t, " AND ")
}

func hasWordChar(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}

// countable is the number of characters of s that a tokenizer sees,
// combining marks and joiners left out.
func countable(s string) int {
	n := 0
	for _, r := range s {
		if !ignorable(r) {
			n++
		}
	}
	return n
}

// ftsString quotes s as an FTS5 string, the one form in which FTS5 reads
// nothing as an operator.
func ftsString(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// cutRunes returns s up to its n-th countable character (with the marks
// and joiners that follow it).
func cutRunes(s string, n int) string {
	seen := 0
	for i, r := range s {
		if ignorable(r) {
			continue
		}
		if seen == n {
			return s[:i]
		}
		seen++
	}
	return s
}

// cutWords returns s up to the end of its n-th word, as unicode61 splits
// words.
func cutWords(s string, n int) string {
	words, in := 0, false
	for i, r := range s {
		w := unicode.IsLetter(r) || unicode.IsNumber(r) || ignorable(r)
		if w && !in {
			if words == n {
				return strings.TrimRightFunc(s[:i], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
			}
			words++
		}
		in = w
	}
	return s
}

// distinct returns the first n distinct strings of xs, in order.
func distinct(xs []string, n int) []string {
	var out []string
	for _, x := range xs {
		if len(out) < n && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
