package discover

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/dshkit/mentions/internal/textutil"
)

// snippetRunes is the most characters a snippet shows; snippetLead is
// how many come before the first match when the line is cut.
const (
	snippetRunes = 160
	snippetLead  = 40
)

// needle is one term as the highlighter looks for it: folded like the
// tokenizers fold (case, diacritics), and for a short word, anchored at
// a word start (and end, unless it is being typed).
type needle struct {
	runes      []rune
	start, end bool  // must begin / end at a word boundary
	fail       []int // its failure table (see failure), made once
}

func needles(terms []term) []needle {
	var out []needle
	add := func(text string, start, end bool) {
		f := fold(text)
		if len(f.runes) == 0 || len(out) == 2*maxOperands {
			return
		}
		for _, n := range out {
			if slices.Equal(n.runes, f.runes) && n.start == start && n.end == end {
				return // the same needle twice finds nothing more
			}
		}
		n := needle{runes: f.runes, start: start, end: end}
		n.fail = n.failure() // a snippet search tries it on every line
		out = append(out, n)
	}
	for _, t := range terms {
		for _, p := range pieces(t) {
			if p.gram {
				add(p.text, false, false)
				continue
			}
			// Each word of a word run, as unicode61 splits it.
			words := strings.FieldsFunc(p.text, func(r rune) bool { return !isWordRune(r) && !ignorable(r) })
			for i, w := range words {
				add(w, true, !(p.prefix && i == len(words)-1))
			}
		}
	}
	return out
}

// folded is text with case and diacritics folded away, one entry per
// kept character, each pointing back at the bytes it came from: from
// its start up to the next one's (the marks and joiners after a
// character are its bytes), the last one's up to the end of the text.
type folded struct {
	runes []rune
	start []int32 // byte offset in the original of runes[i]
	size  int     // the original's length
}

// end is the byte offset in the original where runes[i]'s bytes end.
func (f *folded) end(i int) int {
	if i+1 < len(f.start) {
		return int(f.start[i+1])
	}
	return f.size
}

// fold folds s for matching: lower case, a character's base without its
// accents, combining marks and joiners dropped (their bytes join the
// character before). It holds 8 bytes a character of s, allocated once.
func fold(s string) folded {
	if len(s) > math.MaxInt32 {
		s = textutil.CutUTF8(s, math.MaxInt32)
	}
	n := utf8.RuneCountInString(s)
	f := folded{runes: make([]rune, 0, n), start: make([]int32, 0, n), size: len(s)}
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		case ignorable(r):
			i += size
			continue
		default:
			if d := norm.NFD.PropertiesString(s[i:]).Decomposition(); d != nil {
				if base, _ := utf8.DecodeRune(d); base != utf8.RuneError {
					r = base
				}
			}
			r = unicode.ToLower(r)
		}
		f.runes = append(f.runes, r)
		f.start = append(f.start, int32(i))
		i += size
	}
	return f
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// find returns the folded-rune ranges where n occurs in f, at most
// limit of them, in time linear in f whatever n (Knuth-Morris-Pratt: a
// run of one letter searched for in a run of it costs no more than any
// other text).
func (n needle) find(f *folded, limit int) [][2]int {
	var out [][2]int
	k := len(n.runes)
	if k == 0 {
		return nil
	}
	fail := n.fail
	if fail == nil {
		fail = n.failure()
	}
	for i, m := 0, 0; i < len(f.runes) && len(out) < limit; i++ {
		for m > 0 && f.runes[i] != n.runes[m] {
			m = fail[m-1]
		}
		if f.runes[i] == n.runes[m] {
			m++
		}
		if m < k {
			continue
		}
		m = fail[m-1]
		at := i + 1 - k
		if n.start && at > 0 && isWordRune(f.runes[at-1]) {
			continue
		}
		if n.end && i+1 < len(f.runes) && isWordRune(f.runes[i+1]) {
			continue
		}
		out = append(out, [2]int{at, i + 1})
		m = 0 // matches do not overlap
	}
	return out
}

// failure is the needle's KMP failure function: for each prefix, the
// length of its longest proper prefix that is also its suffix.
func (n needle) failure() []int {
	fail := make([]int, len(n.runes))
	for i, m := 1, 0; i < len(n.runes); i++ {
		for m > 0 && n.runes[i] != n.runes[m] {
			m = fail[m-1]
		}
		if n.runes[i] == n.runes[m] {
			m++
		}
		fail[i] = m
	}
	return fail
}

// snippet picks the line of the title or body that matches the most
// terms (the body first: the title is already the label), cuts it to a
// window around its first match, makes it safe to print on one line and
// returns it with the byte ranges of the matches in it.
func snippet(ctx context.Context, title, body string, ns []needle) (string, [][2]int) {
	best, bestScore := "", 0
	score := func(line string) int {
		f := fold(line)
		n := 0
		for _, nd := range ns {
			if len(nd.find(&f, 1)) > 0 {
				n++
			}
		}
		return n
	}
	rest := body
	for scanned := 0; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		if scanned += len(line); scanned > 32<<10 {
			// A cancelled search stops here, with the best line so far.
			if scanned = 0; ctx.Err() != nil {
				break
			}
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if s := score(line); s > bestScore {
			best, bestScore = line, s
			if s == len(ns) {
				break
			}
		}
	}
	if bestScore == 0 {
		if score(title) > 0 {
			best = title
		} else if best = firstLine(body); best == "" {
			best = title
		}
	}
	text := window(strings.TrimSpace(best), ns)
	text = textutil.Inline(text)
	return text, highlights(text, ns)
}

func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) != "" {
			return line
		}
	}
	return ""
}

// window cuts line to at most snippetRunes characters, starting a little
// before its first match, with "…" where it was cut.
func window(line string, ns []needle) string {
	if utf8.RuneCountInString(line) <= snippetRunes {
		return line
	}
	f := fold(line)
	first := -1
	for _, n := range ns {
		if m := n.find(&f, 1); len(m) > 0 && (first < 0 || m[0][0] < first) {
			first = m[0][0]
		}
	}
	startByte := 0
	if first > snippetLead {
		startByte = int(f.start[first-snippetLead])
	}
	out := line[startByte:]
	cut := false
	if utf8.RuneCountInString(out) > snippetRunes {
		i, n := 0, 0
		for i = range out {
			if n == snippetRunes {
				break
			}
			n++
		}
		out, cut = out[:i], true
	}
	if startByte > 0 {
		out = "…" + out
	}
	if cut {
		out += "…"
	}
	return out
}

// highlights returns the merged byte ranges of every match in text.
func highlights(text string, ns []needle) [][2]int {
	f := fold(text)
	var spans [][2]int
	for _, n := range ns {
		for _, m := range n.find(&f, 64) {
			spans = append(spans, [2]int{int(f.start[m[0]]), f.end(m[1] - 1)})
		}
	}
	if len(spans) == 0 {
		return nil
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if s[0] <= last[1] {
			last[1] = max(last[1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}
