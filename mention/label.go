package mention

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// MaxLabelWidth is the most cells a token's label takes: what an editor
// shows of a mention is all that is sent.
const MaxLabelWidth = 40

// schemeBreak stands for the ':' of "dsh-session:" inside a label: a
// title that spells a mention (@[P](dsh-session:…)) must not make the
// readable text, "@" + label, reference another session.
const schemeBreak = "\u2236" // RATIO, which reads as a colon

// Label is the label a token carries, on the chip and on the wire alike,
// made from a session's title or a pasted mention's label. A label is
// untrusted and becomes part of the user's own message, outside the
// snapshot's envelope, so it is reduced to what a chip shows: terminal
// escape sequences removed; one line through the UI's sanitiser (other
// control, format and bidi characters escaped visibly); runs of white
// space folded to one space; the scheme "dsh-session:" written with a
// ratio sign (U+2236) for its colon, so the readable text never spells a
// reference; the '@' signs it starts with dropped; and at most
// [MaxLabelWidth] cells, ending in "…" when cut, never inside an escape.
// Label is idempotent; a title with nothing left gives "".
func Label(title string) string {
	words := strings.Fields(ansi.Strip(strings.ToValidUTF8(title, "\uFFFD")))
	// A mention is drawn after an '@' of its own: the ones a title starts
	// with go ("@alice's notes" reads "@alice's notes", not "@@…").
	joined := strings.TrimLeft(strings.Join(words, " "), "@＠ ")
	joined = strings.ReplaceAll(joined, sessionref.Scheme, schemeSafe)
	s := textutil.Inline(joined)
	if textutil.Width(s) <= MaxLabelWidth {
		return s
	}
	// Cut whole: each cluster of the text with its escape, if any.
	var b strings.Builder
	w := 0
	for rest := joined; rest != ""; {
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

var schemeSafe = strings.TrimSuffix(sessionref.Scheme, ":") + schemeBreak

// Chip is how a reference shows in an editor: "@" and its label made
// safe ([Label]; the id's when the label is nil or has nothing left).
// A token made by [Model] carries that label already, so its chip is "@"
// and exactly the label on the wire.
func Chip(ref sessionref.Reference) string { return "@" + tokenLabel(ref) }

// tokenLabel is the label a token of ref carries.
func tokenLabel(ref sessionref.Reference) string {
	if l := Label(ref.LabelOrID()); l != "" {
		return l
	}
	return Label(ref.SessionID)
}

// TakesRest reports whether a pick of label, made with the cursor inside
// an @word, replaces the rest of the word after the cursor too: only
// when query (the word up to the cursor, without '@') and rest together
// are in label, ignoring case, as a query matches — the user went back
// into "@pars" to pick "the parser". Otherwise the rest was there before
// the '@' was typed in front of it ("@spe|hello") and stays.
func TakesRest(query, rest, label string) bool {
	return rest == "" || strings.Contains(strings.ToLower(label), strings.ToLower(query+rest))
}
