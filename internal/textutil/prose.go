package textutil

import (
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
			at := lastClusterAt(prev) // whole clusters: a mark stays on its base
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

// lastClusterAt is the byte offset where s's last grapheme cluster
// starts (0 for an empty s).
func lastClusterAt(s string) int {
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
