package textutil

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// WrapProse wraps a sentence (a status line, a notice) to w cells, at spaces and after slashes (paths), and
// cuts a word longer than a line. A line that would hold nothing but
// punctuation (the ")" after a long path) takes the last character of
// the line above with it, so it is never an orphan.
func WrapProse(s string, w int) []string {
	w = max(w, 1)
	measured.Add(int64(len(s)))
	lines := strings.Split(ansi.Wrap(s, w, " /"), "\n")
	for i := 1; i < len(lines); i++ {
		// Marks cut from their base by a hard wrap go back to it: they
		// take no cell.
		if n := leadingMarks(lines[i]); n > 0 {
			lines[i-1], lines[i] = lines[i-1]+lines[i][:n], lines[i][n:]
		}
		if !OnlyPunct(lines[i]) {
			continue
		}
		// Move characters down until one is not punctuation: whole
		// clusters (a mark stays on its base). The clusters of the line
		// above are found once.
		starts := clusterStarts(lines[i-1])
		for OnlyPunct(lines[i]) {
			prev := strings.TrimRight(lines[i-1], " ")
			k, _ := slices.BinarySearch(starts, len(prev))
			if k--; k < 1 || starts[k] < 1 {
				break
			}
			at := starts[k]
			moved := prev[at:] + strings.TrimLeft(lines[i], " ")
			if Width(moved) > w {
				break
			}
			lines[i-1], lines[i] = prev[:at], moved
		}
	}
	return lines
}

// leadingMarks is the length in bytes of the combining marks s starts
// with.
func leadingMarks(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			break
		}
		n += size
	}
	return n
}

// clusterStarts is the byte offset where each grapheme cluster of s
// starts.
func clusterStarts(s string) []int {
	var at []int
	pos := 0
	pieces(s, func(p piece) bool {
		at = append(at, pos)
		pos += len(p.text)
		return true
	})
	return at
}

// OnlyPunct reports whether l has text and all of it is punctuation or
// symbols: a line WrapProse never leaves alone.
func OnlyPunct(l string) bool {
	l = strings.TrimSpace(l)
	if l == "" {
		return false
	}
	for _, r := range l {
		if !unicode.IsPunct(r) && !unicode.IsSymbol(r) {
			return false
		}
	}
	return true
}
