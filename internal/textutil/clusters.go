package textutil

import (
	"sync/atomic"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// Every routine of this package measures text in one pass: each grapheme
// cluster is found and measured once, with the segmentation and widths
// [Width] uses, so a routine's cost is linear in its input whatever its
// shape (one long word, a line of wide characters, a base under a million
// combining marks).

// measured counts the bytes handed to grapheme segmentation and width
// measurement since the program started: a deterministic measure of the
// work text layout does (see [Measured]).
var measured atomic.Int64

// Measured is how many bytes of text this package has segmented into
// grapheme clusters or measured, since the program started. It is a count
// of work, not of time: a test reads it before and after a routine to
// check that the routine looks at each byte of its input a bounded number
// of times, which no timing could show without flaking.
func Measured() int64 { return measured.Load() }

// piece is one piece of styled text: a grapheme cluster and its width, or
// (esc) bytes that take no cell: an escape sequence, a control.
type piece struct {
	text  string
	width int
	esc   bool
}

// pieces calls yield for each piece of s in order, stopping when it
// returns false. The widths are those [Width] adds up: x/ansi's own walk,
// one measurement a cluster.
func pieces(s string, yield func(p piece) bool) {
	pstate := parser.GroundState
	escAt := -1 // where the pending run of escape bytes started
	flush := func(end int) bool {
		if escAt < 0 {
			return true
		}
		p := piece{text: s[escAt:end], esc: true}
		escAt = -1
		return yield(p)
	}
	for i := 0; i < len(s); {
		state, action := parser.Table.Transition(pstate, s[i])
		if action == parser.PrintAction || state == parser.Utf8State {
			if !flush(i) {
				return
			}
			c, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			if c == "" {
				c = s[i : i+1]
			}
			measured.Add(int64(len(c)))
			if !yield(piece{text: c, width: w}) {
				return
			}
			i += len(c)
			pstate = parser.GroundState
			continue
		}
		if escAt < 0 {
			escAt = i
		}
		pstate = state
		i++
	}
	flush(len(s))
}

// clusters calls yield with the byte offset, length and width of each
// grapheme cluster of plain text s (no escape sequences), in order,
// stopping when it returns false.
func clusters(s string, yield func(at, n, w int) bool) {
	for i := 0; i < len(s); {
		c, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		if c == "" {
			c = s[i : i+1]
		}
		measured.Add(int64(len(c)))
		if !yield(i, len(c), w) {
			return
		}
		i += len(c)
	}
}
