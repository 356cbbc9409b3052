package picker

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
)

// MaxLabelWidth is the most cells a picked mention's label takes: the
// composer shows a chip that long whole, so what the user sees of the
// label is all that is sent.
const MaxLabelWidth = 40

// MentionLabel is the label a pick writes into the mention, made from a
// session's title. A title is untrusted and the label becomes part of the
// user's own message, outside the snapshot's envelope, so it is reduced
// to what a chip shows: terminal escape sequences (colours, OSC strings)
// removed, as a terminal would not show them as text; one line through
// the UI's sanitiser (other control, format and bidi characters escaped
// visibly); runs of white space folded to one space; and at most
// [MaxLabelWidth] cells, ending in "…" when cut, never inside an escape.
// The '@' signs a title starts with go too, as a mention is drawn after
// one of its own ("@alice's notes" reads "@alice's notes", not "@@…").
// A title with nothing left gives "".
func MentionLabel(title string) string {
	text := strings.Join(strings.Fields(ansi.Strip(strings.ToValidUTF8(title, "\uFFFD"))), " ")
	text = strings.TrimLeft(text, "@＠ ")
	s := textutil.Inline(text)
	if textutil.Width(s) <= MaxLabelWidth {
		return s
	}
	// Cut whole: each cluster of the text with its escape, if any.
	var b strings.Builder
	w := 0
	for rest := text; rest != ""; {
		c, _ := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		if c == "" {
			c = rest[:1]
		}
		rest = rest[len(c):]
		piece := textutil.Inline(c)
		pw := textutil.Width(piece)
		if w+pw > MaxLabelWidth-1 {
			break
		}
		b.WriteString(piece)
		w += pw
	}
	return strings.TrimRight(b.String(), " ") + "…"
}
