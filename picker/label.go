package picker

import (
	"strings"

	"github.com/dshkit/mentions/internal/textutil"
)

// MaxLabelWidth is the most cells a picked mention's label takes: the
// composer shows a chip that long whole, so what the user sees of the
// label is all that is sent.
const MaxLabelWidth = 40

// MentionLabel is the label a pick writes into the mention, made from a
// session's title. A title is untrusted and the label becomes part of the
// user's own message, outside the snapshot's envelope, so it is reduced
// to what a chip shows: one line through the UI's sanitiser (control,
// format and bidi characters escaped visibly), runs of white space folded
// to one space, and at most [MaxLabelWidth] cells, ending in "…" when
// cut. A title with nothing left gives "".
func MentionLabel(title string) string {
	s := strings.Join(strings.Fields(textutil.Inline(title)), " ")
	if textutil.Width(s) > MaxLabelWidth {
		s = strings.TrimRight(textutil.Truncate(s, MaxLabelWidth-1, ""), " ") + "…"
	}
	return s
}
