package mention

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/sessionref"
)

// Token is a mention in the readable text: the bytes [Start, End) of
// [Model.Readable] hold its chip, "@" and the label, and the canonical
// text holds Mention in its place.
type Token struct {
	Start, End int
	// Reference is the session and its label, made safe and capped
	// ([Label]) once, when the token was made: the chip shows exactly
	// the label the wire carries.
	Reference sessionref.Reference
	// Mention is the canonical @[label](dsh-session:…) text.
	Mention string
}

// Change says what kind of change a call follows, which decides whether
// it may open a mention query.
type Change int

const (
	// Edit is typing or deleting: it may open a query at the cursor.
	Edit Change = iota
	// Move is a move along the line (a character, a word, line start or
	// end, a click): it may open a query the cursor lands in.
	Move
	// Jump is a vertical move or a jump to the start or end of the text:
	// an open query stays while the cursor is still in it, none opens.
	Jump
	// Paste is a paste or a text set from outside: canonical mentions in
	// it become tokens, and any query closes.
	Paste
)

// Model is the mention model every editor of this module keeps: the
// readable text (tokens shown as their chips), the tokens' spans, the
// cursor, the @query (open, closed, dismissed by Esc, reopened by an edit
// inside it) and the pick protocol. It draws nothing and knows no
// picker: an editor turns keys into its edits, shows its text, and tells
// it what the picker did (a pick, a pick asked for before its answer, a
// query that matched nothing, a close).
//
// All offsets are bytes of [Model.Readable]. The zero Model is an empty
// text, ready to use. A copy is a snapshot: edits to the original never
// show in it, nor the other way round.
//
// Invariants, after every call: tokens are in order, do not overlap and
// hold their chips; the plain text between them holds no valid canonical
// mention or bare URI (one that arrives, however it arrives, becomes a
// token), and [Model.Canonical] writes it so that
// [sessionref.ParseText] finds exactly the tokens, in order.
type Model struct {
	text   string
	toks   []Token
	cursor int

	open bool
	at   int // the open query's '@'

	dismissed  bool
	dAt, dEnd  int // a dismissed @word's '@' and where it ends
	waiting    bool
	pickEnd    int // where the query ended when the pick was asked for
	justPicked bool

	// The change since the last TakeChange: text[from:newEnd] replaced
	// what was [from:oldEnd) then.
	changed              bool
	from, oldEnd, newEnd int
}

// Readable returns the text as a person reads it, each token as its chip
// "@label". It is raw text: escape it before printing it anywhere else
// than an editor that sanitises.
func (m *Model) Readable() string { return m.text }

// Tokens returns the tokens, in text order.
func (m *Model) Tokens() []Token { return append([]Token(nil), m.toks...) }

// References returns the referenced sessions, in text order, duplicates
// included.
func (m *Model) References() []sessionref.Reference {
	out := make([]sessionref.Reference, len(m.toks))
	for i, t := range m.toks {
		out[i] = t.Reference
	}
	return out
}

// Cursor returns the cursor's byte offset.
func (m *Model) Cursor() int { return m.cursor }

// Query returns the open @query: what the picker searches for and the
// byte offset of its '@'. While a pick waits for its answer
// ([Model.AwaitPick]) the query is the one the pick was asked for.
func (m *Model) Query() (query string, at int, ok bool) {
	if !m.open {
		return "", 0, false
	}
	end := m.cursor
	if m.waiting {
		end = m.pickEnd
	}
	q, ok := m.queryAt(m.at, end)
	if !ok && m.waiting {
		q, ok = "", true
	}
	return q, m.at, ok
}

// Waiting reports whether a pick asked for before its answer waits for
// it (see [Model.AwaitPick]).
func (m *Model) Waiting() bool { return m.open && m.waiting }

// JustPicked reports whether the cursor sits right after a pick and the
// space it put after the token: a space typed now is not doubled.
func (m *Model) JustPicked() bool { return m.justPicked }

// TakeChange returns what changed in the readable text since the last
// call: text[from:newEnd] now holds what [from:oldEnd) held then. It
// reports false when nothing changed. An editor that derives its own
// units from the text (graphemes, lines) redoes only that part.
func (m *Model) TakeChange() (from, oldEnd, newEnd int, ok bool) {
	if !m.changed {
		return 0, 0, 0, false
	}
	m.changed = false
	return m.from, m.oldEnd, m.newEnd, true
}

// Reset empties the text and forgets the tokens and any query.
func (m *Model) Reset() { m.SetValue("") }

// SetValue starts over from canonical text (a saved draft, a recalled
// message): its valid mentions and bare URIs become tokens, the cursor
// goes to the end and no query is open.
func (m *Model) SetValue(canonical string) {
	prev := len(m.text) // the text's length at the last TakeChange
	if m.changed {
		prev -= m.newEnd - m.oldEnd
	}
	*m = Model{}
	m.splice(0, 0, normalize(canonical), nil)
	m.oldEnd = prev // all of it was replaced
	m.adopt(0, len(m.text), true)
	m.cursor = len(m.text)
}

// normalize is text as an editor holds it: CR LF and CR become LF and a
// tab four spaces, so what is shown is what is sent.
func normalize(s string) string {
	if !strings.ContainsAny(s, "\r\t") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\t", "    ")
}

// Type inserts typed text at the cursor, which may open a query. A space
// typed right after a pick is not taken: the pick wrote one. It reports
// whether the text was taken.
func (m *Model) Type(s string) bool {
	if s == "" || m.justPicked && s == " " {
		m.justPicked = false
		return false
	}
	m.edit(m.cursor, m.cursor, normalize(s), Edit, -1)
	return true
}

// Paste inserts pasted text at the cursor: canonical mentions and bare
// URIs in it become tokens, and it never opens a query (an open one
// closes).
func (m *Model) Paste(s string) { m.edit(m.cursor, m.cursor, normalize(s), Paste, -1) }

// Delete removes the bytes [from, to): a token it covers goes whole, a
// token it cuts into becomes plain text. The cursor stays before what
// was removed, or at from when it was inside.
func (m *Model) Delete(from, to int) {
	from, to = m.clamp(from), m.clamp(to)
	if from >= to {
		return
	}
	m.edit(from, to, "", Edit, -1)
}

// DeleteBackward removes the token that ends at the cursor, whole: what
// Backspace does at a token's end. It reports false, and changes
// nothing, when no token ends there.
func (m *Model) DeleteBackward() bool {
	k := m.tokenEndingAt(m.cursor)
	if k < 0 {
		return false
	}
	m.edit(m.toks[k].Start, m.toks[k].End, "", Edit, -1)
	return true
}

// DeleteForward removes the token that starts at the cursor, whole: what
// Delete does at a token's start.
func (m *Model) DeleteForward() bool {
	k := m.tokenStartingAt(m.cursor)
	if k < 0 {
		return false
	}
	m.edit(m.toks[k].Start, m.toks[k].End, "", Edit, -1)
	return true
}

// Move puts the cursor at byte offset c (kept off the inside of a
// UTF-8 sequence); how is [Move] or [Jump].
func (m *Model) Move(c int, how Change) {
	c = m.clamp(c)
	if c != m.cursor {
		m.justPicked = false
	}
	m.cursor = c
	m.afterChange(how)
}

// Follow takes an editor's text and cursor after a change the model did
// not make itself (a textarea's own edit, a host's SetValue): it finds
// the edit that turned the text it holds into text, keeps the tokens
// before it, moves those after it, turns one it touched inside back into
// plain text, and makes tokens of canonical mentions and bare URIs in the
// plain text around it. It reports whether the editor must be given
// [Model.Readable] and [Model.Cursor] because they differ from what it
// holds. how is [Paste] for a paste, else the kind of key; a change of
// the text is an [Edit] at least.
func (m *Model) Follow(text string, cursor int, how Change) bool {
	cursor = min(max(cursor, 0), len(text))
	for cursor > 0 && cursor < len(text) && !utf8.RuneStart(text[cursor]) {
		cursor--
	}
	if text == m.text {
		m.Move(cursor, how)
		return m.cursor != cursor
	}
	p, oldEnd, newEnd := diff(m.text, text, cursor)
	if how != Paste {
		how = Edit
	}
	m.edit(p, oldEnd, text[p:newEnd], how, cursor)
	return m.text != text || m.cursor != cursor
}

// edit replaces text[p:oldEnd] with ins and follows it: the cursor moves
// to the end of a typed insertion or stays with the text it is in, the
// plain text around the edit is searched for mentions, and the query is
// brought up to date. A cursor of -1 is derived as said; any other is
// the cursor in the edited text (a textarea's).
func (m *Model) edit(p, oldEnd int, ins string, how Change, cursor int) {
	m.justPicked = false
	typedAtCursor := m.cursor == p && p == oldEnd
	m.splice(p, oldEnd, ins, nil)
	switch {
	case cursor >= 0:
		m.cursor = cursor
	case typedAtCursor:
		m.cursor = p + len(ins)
	}
	m.adopt(p, p+len(ins), how == Paste)
	m.afterChange(how)
}

// afterChange checks the invariants and updates the query.
func (m *Model) afterChange(how Change) {
	m.check()
	if how == Paste {
		m.close()
		return
	}
	m.query(how == Edit || how == Move)
}

// splice replaces text[p:oldEnd] with ins (and with tok, a token of ins,
// when not nil), moving everything after it: tokens after the edit
// shift, one the edit touched is dropped (its text stays, plain), and
// the query's '@', a dismissed word and a waiting pick's end follow. The
// cursor shifts with the text after the edit, and goes to the end of
// ins from inside the replaced part. Every slice it changes is a new
// one, so a copy of the model keeps its own.
func (m *Model) splice(p, oldEnd int, ins string, tok *Token) {
	delta := len(ins) - (oldEnd - p)
	m.text = m.text[:p] + ins + m.text[oldEnd:]
	toks := make([]Token, 0, len(m.toks)+1)
	for _, t := range m.toks {
		switch {
		case t.End <= p:
		case t.Start >= oldEnd:
			t.Start += delta
			t.End += delta
		default:
			continue // edited inside: plain text now
		}
		toks = append(toks, t)
	}
	if tok != nil {
		t := *tok
		t.Start, t.End = p, p+len(ins)
		k := 0
		for k < len(toks) && toks[k].Start < t.Start {
			k++
		}
		toks = append(toks[:k], append([]Token{t}, toks[k:]...)...)
	}
	m.toks = toks
	m.shiftState(p, oldEnd, delta, ins)
	m.note(p, oldEnd, len(ins))
}

// shiftState moves the cursor, the query and a dismissed word with an
// edit of text[p:oldEnd] into ins.
func (m *Model) shiftState(p, oldEnd, delta int, ins string) {
	switch {
	case m.cursor >= oldEnd && m.cursor > p:
		m.cursor += delta
	case m.cursor > p:
		m.cursor = p + len(ins)
	}
	if m.open {
		switch {
		case m.waiting && p < m.pickEnd:
			m.close() // the query a pick waits for was edited
		case m.at >= oldEnd:
			m.at += delta
			if m.waiting {
				m.pickEnd += delta
			}
		case m.at < p:
		default:
			m.close() // the '@' itself went
		}
	}
	if m.dismissed {
		switch {
		case oldEnd <= m.dAt:
			m.dAt += delta
			m.dEnd += delta
		case p >= m.dEnd:
			// After the word: what is typed right after it joins it.
			if p == m.dEnd && oldEnd == p && !strings.ContainsFunc(ins, unicode.IsSpace) {
				m.dEnd += len(ins)
			}
		default:
			m.dismissed = false // edited inside: a query again
		}
	}
}

// note adds an edit of [p, oldEnd) into n bytes to the change since the
// last TakeChange.
func (m *Model) note(p, oldEnd, n int) {
	if !m.changed {
		m.changed, m.from, m.oldEnd, m.newEnd = true, p, oldEnd, p+n
		return
	}
	endCur := max(m.newEnd, oldEnd)
	m.oldEnd = endCur - (m.newEnd - m.oldEnd)
	m.newEnd = endCur + n - (oldEnd - p)
	m.from = min(m.from, p)
}

func (m *Model) clamp(i int) int {
	i = min(max(i, 0), len(m.text))
	for i > 0 && i < len(m.text) && !utf8.RuneStart(m.text[i]) {
		i--
	}
	return i
}

// diff finds the edit that turned old into new: old[p:oldEnd] became
// new[p:newEnd]. Of the edits that explain the change it takes the one
// that ends (an insertion) or starts (a deletion) at the cursor, as
// typing does, and otherwise the longest common prefix and suffix.
func diff(old, new string, cursor int) (p, oldEnd, newEnd int) {
	if p, oldEnd, newEnd, ok := typedAt(old, new, cursor); ok {
		return p, oldEnd, newEnd
	}
	n := min(len(old), len(new))
	for p < n && old[p] == new[p] {
		p++
	}
	s := 0
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	// Never split a UTF-8 sequence: the edit's ends sit on rune starts.
	for p > 0 && (p < len(new) && !utf8.RuneStart(new[p]) || p < len(old) && !utf8.RuneStart(old[p])) {
		p--
	}
	oldEnd, newEnd = len(old)-s, len(new)-s
	for oldEnd < len(old) && !utf8.RuneStart(old[oldEnd]) {
		oldEnd++
		newEnd++
	}
	return p, oldEnd, newEnd
}

// typedAt reports the edit that explains old becoming new as typing at
// the cursor does: an insertion that ends there, or a deletion that
// starts there.
func typedAt(old, new string, cursor int) (p, oldEnd, newEnd int, ok bool) {
	delta := len(new) - len(old)
	switch {
	case delta > 0 && cursor-delta >= 0 && cursor <= len(new):
		q := cursor - delta
		if old[:q] == new[:q] && old[q:] == new[cursor:] {
			return q, q, cursor, true
		}
	case delta < 0 && cursor <= len(new) && cursor-delta <= len(old):
		if old[:cursor] == new[:cursor] && old[cursor-delta:] == new[cursor:] {
			return cursor, cursor - delta, cursor, true
		}
	}
	return 0, 0, 0, false
}

// segment is the plain text around [from, to): from the end of the
// token before it (or the start) to the start of the token after it (or
// the end).
func (m *Model) segment(from, to int) (int, int) {
	start, end := 0, len(m.text)
	for _, t := range m.toks {
		if t.End <= from {
			start = t.End
		} else if t.Start >= to {
			end = t.Start
			break
		}
	}
	return start, end
}

// adopt makes tokens of the valid canonical mentions and bare URIs in the
// plain text around [from, to): wherever a mention arrives from — a
// paste, a SetValue, keys that complete it, a textarea's edit whose '@'
// lies before the edit — it ends up a token. Unless all is set (a paste,
// a text set from outside), a mention that ends at the cursor is left
// until the cursor leaves it: the user may be typing it still, and a
// bare URI is a prefix of a longer one or of a mention's "…)".
// [Model.Canonical] keeps it inert meanwhile.
func (m *Model) adopt(from, to int, all bool) {
	start, end := m.segment(from, to)
	if !strings.Contains(m.text[start:end], sessionref.Scheme) {
		return
	}
	ms := sessionref.FindValidMentions(m.text[start:end])
	for i := len(ms) - 1; i >= 0; i-- { // from the end: offsets before stay
		mt := ms[i]
		if !all && start+mt.End == m.cursor {
			continue
		}
		ref := mt.Reference
		if !mt.Markdown {
			ref.Label = nil // a bare URI shows its id
		}
		tok, ok := newToken(ref)
		if !ok {
			continue
		}
		s, e := start+mt.Start, start+mt.End
		chip := "@" + *tok.Reference.Label
		m.splice(s, e, chip, &tok)
	}
}

// newToken makes the token of ref, its label made safe and capped.
func newToken(ref sessionref.Reference) (Token, bool) {
	label := tokenLabel(ref)
	ref.Label = &label
	mention, err := sessionref.FormatMention(ref)
	if err != nil {
		return Token{}, false
	}
	return Token{Reference: ref, Mention: mention}, true
}

// check drops any token that no longer holds its chip and a query or a
// dismissed word whose '@' went: whatever happened, a token is only ever
// where its text is.
func (m *Model) check() {
	prevEnd := 0
	for _, t := range m.toks {
		if t.Start < prevEnd || t.End > len(m.text) || m.text[t.Start:t.End] != "@"+*t.Reference.Label {
			m.toks = m.validTokens()
			break
		}
		prevEnd = t.End
	}
	if m.open && (m.at >= len(m.text) || m.text[m.at] != '@') {
		m.close()
	}
	if m.dismissed && (m.dAt >= len(m.text) || m.text[m.dAt] != '@' || m.dEnd > len(m.text)) {
		m.dismissed = false
	}
	m.cursor = m.clamp(m.cursor)
}

func (m *Model) validTokens() []Token {
	var kept []Token
	prevEnd := 0
	for _, t := range m.toks {
		if t.Start >= prevEnd && t.End <= len(m.text) && m.text[t.Start:t.End] == "@"+*t.Reference.Label {
			kept = append(kept, t)
			prevEnd = t.End
		}
	}
	return kept
}

func (m *Model) tokenStartingAt(i int) int {
	for k, t := range m.toks {
		if t.Start == i {
			return k
		}
	}
	return -1
}

func (m *Model) tokenEndingAt(i int) int {
	for k, t := range m.toks {
		if t.End == i {
			return k
		}
	}
	return -1
}

// covered reports whether [start, end) overlaps a token.
func (m *Model) covered(start, end int) bool {
	for _, t := range m.toks {
		if t.Start < end && start < t.End {
			return true
		}
	}
	return false
}

// inToken reports whether byte i is strictly inside a token.
func (m *Model) inToken(i int) bool {
	for _, t := range m.toks {
		if t.Start < i && i < t.End {
			return true
		}
	}
	return false
}
