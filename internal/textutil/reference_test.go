package textutil

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// The layout routines before they were made linear, kept as the
// reference the linear ones must agree with: the same lines, cuts and
// widths on every input they were written for.

func refTruncate(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	if t := ansi.Truncate(s, w, tail); Width(t) <= w {
		return t
	}
	best := ""
	for lo, hi := 0, w-1; lo <= hi; {
		mid := (lo + hi) / 2
		if t := ansi.Truncate(s, mid, tail); Width(t) <= w {
			best, lo = t, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best
}
func refLastCells(s string, w int) string {
	var ends []int // byte offset where each cluster starts
	var widths []int
	for i := 0; i < len(s); {
		c, cw := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if c == "" {
			c, cw = s[i:i+1], 0
		}
		ends, widths = append(ends, i), append(widths, cw)
		i += len(c)
	}
	start, used := len(s), 0
	for k := len(ends) - 1; k >= 0 && used+widths[k] <= w; k-- {
		used += widths[k]
		start = ends[k]
	}
	return s[start:]
}
func refWrap(s string, w int) []string {
	w = max(w, 1)
	if Width(s) <= w {
		return []string{s}
	}
	var lines []string
	line, lineW := "", 0
	flush := func() {
		lines = append(lines, strings.TrimRight(line, " "))
		line, lineW = "", 0
	}
	for _, word := range strings.Split(s, " ") {
		ww := Width(word)
		switch {
		case lineW > 0 && lineW+1+ww <= w:
			line, lineW = line+" "+word, lineW+1+ww
			continue
		case lineW > 0:
			flush()
		}
		for ww > w { // a word wider than a line: cut it between clusters
			head := refTruncate(word, w, "")
			if head == "" { // one cluster wider than w: a line of its own
				c, _ := ansi.FirstGraphemeCluster(word, ansi.GraphemeWidth)
				head = word[:max(len(c), 1)]
			}
			lines = append(lines, head)
			word = word[len(head):]
			ww = Width(word)
		}
		line, lineW = word, ww
	}
	if line != "" || len(lines) == 0 {
		flush()
	}
	return lines
}
func refHardWrap(s string, w int) []string {
	w = max(w, 1)
	if Width(s) <= w {
		return []string{s}
	}
	var lines []string
	var cur strings.Builder
	used := 0
	for len(s) > 0 {
		var piece string
		if s[0] == ansi.ESC {
			piece, _, _, _ = ansi.DecodeSequence(s, 0, nil)
		} else {
			piece, _ = ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		}
		if piece == "" {
			piece = s[:1]
		}
		s = s[len(piece):]
		cw := Width(piece)
		if cw > 0 && used+cw > w && used > 0 {
			lines = append(lines, cur.String())
			cur.Reset()
			used = 0
		}
		cur.WriteString(piece)
		used += cw
	}
	return append(lines, cur.String())
}

// FuzzLayoutAgreesWithReference: the one-pass Wrap, HardWrap, Truncate
// and LastCells give what the re-measuring versions gave.
func FuzzLayoutAgreesWithReference(f *testing.F) {
	for _, s := range []string{
		"a verylongwordindeed b", "会话会话会话 x", "two  spaces", "1\uFE0F\u20E31\uFE0F\u20E3x",
		"\x1b[1mbold\x1b[0m and plain text that runs on", "e\u0301" + strings.Repeat("x", 30),
		"👩\u200D💻 🇯🇵🇫🇷 界 x\u0301\u0302", " lead  and trail ", "\u200B\u200Bab",
		"(see xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx).", "(expected <root>/<project>/<session>/session.jsonl)", "a b ) ).",
	} {
		f.Add(s, 5, "…")
	}
	f.Fuzz(func(t *testing.T, s string, w int, tail string) {
		w = w % 40
		if w < 0 {
			w = -w
		}
		if len(s) > 600 || len(tail) > 12 {
			return
		}
		line := Inline(s)
		if got, want := Wrap(line, w), refWrap(line, w); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("Wrap(%+q, %d) = %+q, want %+q", line, w, got, want)
		}
		styled := "\x1b[1m" + line + "\x1b[0m \x1b[31mx\x1b[m"
		if got, want := HardWrap(styled, w), refHardWrap(styled, w); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("HardWrap(%+q, %d) = %+q, want %+q", styled, w, got, want)
		}
		// Text that is not made safe first: every byte kept, in order.
		if got := HardWrap(s, w); strings.Join(got, "") != s {
			t.Fatalf("HardWrap(%+q, %d) = %+q lost bytes", s, w, got)
		}
		if got, want := LastCells(line, w), refLastCells(line, w); got != want {
			t.Fatalf("LastCells(%+q, %d) = %+q, want %+q", line, w, got, want)
		}
		if got, want := WrapProse(line, max(w, 1)), refWrapProse(line, max(w, 1)); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("WrapProse(%+q, %d) = %+q, want %+q", line, w, got, want)
		}
		tail = Inline(tail)
		for _, s := range []string{line, styled} {
			got, want := Truncate(s, w, tail), refTruncate(s, w, tail)
			if got != want {
				t.Fatalf("Truncate(%+q, %d, %+q) = %+q, want %+q", s, w, tail, got, want)
			}
		}
		// Text that is not made safe first: never wider than w.
		if got := Truncate(s, w, tail); Width(got) > w {
			t.Fatalf("Truncate(%+q, %d, %+q) = %+q is %d cells", s, w, tail, got, Width(got))
		}
	})
}

func refWrapProse(s string, w int) []string {
	w = max(w, 1)
	lines := strings.Split(ansi.Wrap(s, w, " /"), "\n")
	for i := 1; i < len(lines); i++ {
		// A mark cut from its base by a hard wrap goes back to it: it
		// takes no cell.
		for {
			r, n := utf8.DecodeRuneInString(lines[i])
			if n == 0 || !unicode.In(r, unicode.Mn, unicode.Me) {
				break
			}
			lines[i-1], lines[i] = lines[i-1]+lines[i][:n], lines[i][n:]
		}
		for OnlyPunct(lines[i]) { // move characters down until one is not punctuation
			prev := strings.TrimRight(lines[i-1], " ")
			at := refLastClusterAt(prev) // whole clusters: a mark stays on its base
			if at < 1 {
				break
			}
			moved := prev[at:] + strings.TrimLeft(lines[i], " ")
			if Width(moved) > w {
				break
			}
			lines[i-1], lines[i] = prev[:at], moved
		}
	}
	return lines
}
func refLastClusterAt(s string) int {
	at := 0
	for i := 0; i < len(s); {
		c, _ := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if c == "" {
			c = s[i : i+1]
		}
		at = i
		i += len(c)
	}
	return at
}
