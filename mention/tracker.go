package mention

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Span is a mention token in an editor's text: the bytes [Start, End)
// hold [Chip] of its Reference, and the canonical text holds Mention in
// its place.
type Span struct {
	Start, End int
	// Reference is the session and its label.
	Reference sessionref.Reference
	// Mention is the canonical @[label](dsh-session:…) text.
	Mention string
}

// Chip is how a reference shows in an editor: "@" and its label (its id
// when it has none) as the picker shows a session's label
// ([picker.MentionLabel]: safe to draw, at most [picker.MaxLabelWidth]
// cells, never cut inside a character or an escape).
func Chip(ref sessionref.Reference) string {
	return "@" + picker.MentionLabel(ref.LabelOrID())
}

// TakesRest reports whether a pick of label, made with the cursor inside
// an @word, replaces the rest of the word after the cursor too: only
// when query (the word up to the cursor, without '@') and rest together
// are in label, ignoring case, as a query matches — the user went back
// into "@pars" to pick "the parser". Otherwise the rest was there before
// the '@' was typed in front of it ("@spe|hello") and stays. The
// composer and [Tracker] apply it.
func TakesRest(query, rest, label string) bool {
	return rest == "" || strings.Contains(strings.ToLower(label), strings.ToLower(query+rest))
}

// EndsQuery reports whether typing text while p is open for an @query
// ends the query as prose: a space typed after a query whose answers are
// all in and hold no row in any section (no session, no hit, no host
// item) — the '@' was not a mention after all. The composer and
// [Textarea] apply it; an editor of its own closes the picker and
// dismisses the query ([Tracker.Dismiss]) before it takes the space.
func EndsQuery(p picker.Model, text string) bool {
	return p.IsOpen() && text != "" && strings.TrimFunc(text, unicode.IsSpace) == "" &&
		p.Settled() && p.Err() == nil && p.Len() == 0
}

// Tracker follows the mentions of a text that an editor it does not own
// changes: it keeps the spans of the tokens through any edit, knows when a
// mention query is pending, and gives the canonical text to send. It
// works in byte offsets of the editor's text.
//
// After every change of the editor's text or cursor — typing, paste,
// delete-word, kill-line, SetValue, Reset, a recalled history entry, a
// move — call [Tracker.Follow] with the new text and cursor. It compares
// them with what it saw last: spans before the edit stay, spans after it
// move with it, and a span the edit touched inside turns back into plain
// text. Canonical mentions that the edit brought in (a paste of sent
// text, a recalled draft) become tokens, shown as their chips; Follow
// then returns the text the editor should hold.
//
// The zero Tracker is ready to use, on an empty text.
type Tracker struct {
	text  string
	spans []Span

	open bool
	at   int // the open query's '@'

	dismissed    bool
	dismissedAt  int // the '@' of a dismissed @word…
	dismissedEnd int // …and where that word ended
}

// Result is what the editor shows after a call, and the pending query.
type Result struct {
	// Text is the text the editor should hold, and Cursor its cursor's
	// byte offset in it. When Rewrite is false, they are what was given.
	Text   string
	Cursor int
	// Rewrite reports that Text differs from the editor's text: canonical
	// mentions became tokens, a token was deleted whole, a pick was made.
	Rewrite bool
	// Open reports a pending query: the picker shows Query, and the popup
	// hangs from the '@' at byte offset At.
	Open  bool
	Query string
	At    int
}

// Text returns the text the tracker last saw.
func (t *Tracker) Text() string { return t.text }

// Spans returns the tokens, in text order.
func (t *Tracker) Spans() []Span { return slices.Clone(t.spans) }

// References returns the referenced sessions, in text order.
func (t *Tracker) References() []sessionref.Reference {
	out := make([]sessionref.Reference, len(t.spans))
	for i, s := range t.spans {
		out[i] = s.Reference
	}
	return out
}

// Canonical returns the text to send: the editor's text with every token
// replaced by its canonical mention. [sessionref.ParseText] reads it back
// as the same references, in the same order.
func (t *Tracker) Canonical() string {
	if len(t.spans) == 0 {
		return t.text
	}
	var b strings.Builder
	last := 0
	for _, s := range t.spans {
		b.WriteString(t.text[last:s.Start])
		b.WriteString(s.Mention)
		last = s.End
	}
	b.WriteString(t.text[last:])
	return b.String()
}

// Open reports whether a query is pending, and its '@'.
func (t *Tracker) Open() (at int, ok bool) { return t.at, t.open }

// Reset forgets the text, the tokens and any query.
func (t *Tracker) Reset() { *t = Tracker{} }

// SetValue starts over from canonical text (a saved draft, a recalled
// message): its valid mentions become tokens. The result's Text is what
// the editor should hold, with the cursor at its end.
func (t *Tracker) SetValue(canonical string) Result {
	t.Reset()
	return t.Follow(canonical, len(canonical), false)
}

// Dismiss closes the pending query and makes its @word plain text: it
// stays closed while the cursor moves over it or text is typed after it,
// until the user edits inside it (Esc, a click outside the popup).
func (t *Tracker) Dismiss() {
	if !t.open {
		return
	}
	t.open = false
	t.dismissed, t.dismissedAt, t.dismissedEnd = true, t.at, t.wordEnd(t.at)
}

// Close closes the pending query without making it text: the next edit
// in the @word opens it again.
func (t *Tracker) Close() { t.open = false }

// wordEnd is where the word starting at i ends: at whitespace, a token or
// the end of the text.
func (t *Tracker) wordEnd(i int) int {
	for j, r := range t.text[i:] {
		if unicode.IsSpace(r) || t.spanStartingAt(i+j) >= 0 {
			return i + j
		}
	}
	return len(t.text)
}

func (t *Tracker) spanStartingAt(i int) int {
	k, ok := slices.BinarySearchFunc(t.spans, i, func(s Span, i int) int { return s.Start - i })
	if !ok {
		return -1
	}
	return k
}

// spanEndingAt returns the index of the span ending at i, or -1.
func (t *Tracker) spanEndingAt(i int) int {
	k, ok := slices.BinarySearchFunc(t.spans, i, func(s Span, i int) int { return s.End - i })
	if !ok {
		return -1
	}
	return k
}

// DeleteBefore removes the token that ends at cursor, whole: what
// Backspace does at a token's end. It reports false (and changes nothing)
// when no token ends there.
func (t *Tracker) DeleteBefore(cursor int) (Result, bool) {
	k := t.spanEndingAt(cursor)
	if k < 0 {
		return Result{}, false
	}
	return t.remove(k), true
}

// DeleteAfter removes the token that starts at cursor, whole: what Delete
// does at a token's start.
func (t *Tracker) DeleteAfter(cursor int) (Result, bool) {
	k := t.spanStartingAt(cursor)
	if k < 0 {
		return Result{}, false
	}
	return t.remove(k), true
}

func (t *Tracker) remove(k int) Result {
	s := t.spans[k]
	text := t.text[:s.Start] + t.text[s.End:]
	r := t.Follow(text, s.Start, false)
	r.Rewrite = true
	return r
}

// Pick replaces the pending query — the '@' and the rest of the @word the
// cursor is in — with ref's token and a space (unless a space follows),
// and closes the query. It reports false when no query is pending or ref
// cannot be written as a mention.
func (t *Tracker) Pick(ref sessionref.Reference, cursor int) (Result, bool) {
	if !t.open {
		return Result{}, false
	}
	return t.PickUntil(ref, t.queryEnd(cursor, ref.LabelOrID()), cursor)
}

// queryEnd is where a pick of label replaces the pending query up to:
// the cursor, or the end of its @word when the rest belongs to label
// ([TakesRest]).
func (t *Tracker) queryEnd(cursor int, label string) int {
	end := max(t.wordEnd(t.at), cursor)
	if cursor > t.at && cursor < end && !TakesRest(t.text[t.at+1:cursor], t.text[cursor:end], label) {
		return cursor
	}
	return end
}

// PickUntil is Pick for a pick that waited for its answer while the user
// typed on: only the query's text up to end (where it was when the pick
// was asked for) is replaced, and the cursor, after it, moves with the
// text it is in.
func (t *Tracker) PickUntil(ref sessionref.Reference, end, cursor int) (Result, bool) {
	if !t.open || end < t.at || end > len(t.text) {
		return Result{}, false
	}
	mention, err := sessionref.FormatMention(ref)
	if err != nil {
		return Result{}, false
	}
	return t.replace(Chip(ref), &Span{Reference: ref, Mention: mention}, t.at, end, cursor), true
}

// Replace replaces the pending query (the '@' and the rest of its @word)
// with text — a host's own completion, a file path — and closes the
// query. With tok set, text becomes that token. A space follows the
// inserted text unless one is there already. With no query pending, text
// goes in at the cursor.
func (t *Tracker) Replace(text string, tok *Span, cursor int) Result {
	start, end := cursor, cursor
	if t.open {
		start, end = t.at, t.queryEnd(cursor, text)
	}
	return t.replace(text, tok, start, end, cursor)
}

func (t *Tracker) replace(text string, tok *Span, start, end, cursor int) Result {
	start, end = min(max(start, 0), len(t.text)), min(max(end, start, 0), len(t.text))
	insert := text
	if r, _ := utf8.DecodeRuneInString(t.text[end:]); text != "" && (end == len(t.text) || !unicode.IsSpace(r) || r == '\n') {
		insert += " "
	}
	newText := t.text[:start] + insert + t.text[end:]
	newCursor := start + len(insert)
	if cursor > end {
		newCursor = cursor + len(insert) - (end - start) // typed on meanwhile
	}
	t.open = false
	// The inserted text is no query, whatever it holds.
	r := t.follow(newText, newCursor, false, tok, start, start+len(text))
	r.Rewrite = true
	return r
}

// Follow takes the editor's text and cursor (a byte offset) after any
// change and returns what the editor should show and the pending query.
// reopen says the change was one that may open a query although the text
// did not change (in the composer, a move along the line); an edit always
// may.
func (t *Tracker) Follow(text string, cursor int, reopen bool) Result {
	return t.follow(text, cursor, reopen, nil, 0, 0)
}

func (t *Tracker) follow(text string, cursor int, reopen bool, tok *Span, tokStart, tokEnd int) Result {
	cursor = min(max(cursor, 0), len(text))
	edited := text != t.text
	res := Result{Text: text, Cursor: cursor}
	if edited {
		p, oldEnd, newEnd := diff(t.text, text, cursor)
		t.shift(text, p, oldEnd, newEnd)
		t.text = text
		if tok != nil {
			s := *tok
			s.Start, s.End = tokStart, tokEnd
			t.insertSpan(s)
		} else if newEnd > p {
			// Canonical mentions brought in by the edit become tokens.
			if nt, nc, ok := t.adopt(p, newEnd, cursor); ok {
				res.Text, res.Cursor, res.Rewrite = nt, nc, true
				cursor = nc
			}
		}
		t.check()
	}
	t.query(cursor, edited || reopen, &res)
	return res
}

// diff finds the edit that turned old into new: old[p:oldEnd] became
// new[p:newEnd]. Of the edits that explain the change it takes the one
// that ends (an insertion) or starts (a deletion) at the cursor, as
// typing does, and otherwise the longest common prefix and suffix.
func diff(old, new string, cursor int) (p, oldEnd, newEnd int) {
	delta := len(new) - len(old)
	switch {
	case delta > 0 && cursor-delta >= 0 && cursor <= len(new):
		q := cursor - delta
		if old[:q] == new[:q] && old[q:] == new[cursor:] {
			return q, q, cursor
		}
	case delta < 0 && cursor <= len(new) && cursor-delta <= len(old):
		if old[:cursor] == new[:cursor] && old[cursor-delta:] == new[cursor:] {
			return cursor, cursor - delta, cursor
		}
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
	for p > 0 && p < len(new) && !utf8.RuneStart(new[p]) {
		p--
	}
	oldEnd, newEnd = len(old)-s, len(new)-s
	for oldEnd < len(old) && !utf8.RuneStart(old[oldEnd]) {
		oldEnd++
		newEnd++
	}
	return p, oldEnd, newEnd
}

// shift moves what lies after an edit (old[p:oldEnd] became
// new[p:newEnd]) and drops what the edit touched inside.
func (t *Tracker) shift(new string, p, oldEnd, newEnd int) {
	delta := newEnd - oldEnd
	kept := t.spans[:0]
	for _, s := range t.spans {
		switch {
		case s.End <= p:
		case s.Start >= oldEnd:
			s.Start += delta
			s.End += delta
		default:
			continue // edited inside: plain text now
		}
		kept = append(kept, s)
	}
	t.spans = kept
	if t.open {
		switch {
		case t.at < p:
		case t.at >= oldEnd:
			t.at += delta
		default:
			t.open = false // the '@' itself went
		}
	}
	if t.dismissed {
		switch {
		case oldEnd <= t.dismissedAt:
			t.dismissedAt += delta
			t.dismissedEnd += delta
		case p >= t.dismissedEnd:
			// After the word: typing on after it leaves it text, and
			// what is typed right after it joins it.
			if p == t.dismissedEnd && oldEnd == p && !strings.ContainsFunc(new[p:newEnd], unicode.IsSpace) {
				t.dismissedEnd = newEnd
			}
		default:
			t.dismissed = false // edited inside: a query again
		}
	}
}

// insertSpan adds s, in order.
func (t *Tracker) insertSpan(s Span) {
	k, _ := slices.BinarySearchFunc(t.spans, s.Start, func(x Span, i int) int { return x.Start - i })
	t.spans = slices.Insert(t.spans, k, s)
}

// adopt turns the valid canonical mentions in text[from:to] into tokens.
// It returns the new text and where the cursor goes (after what it was
// after), or false when there were none.
func (t *Tracker) adopt(from, to, cursor int) (string, int, bool) {
	region := t.text[from:to]
	if !strings.Contains(region, "](") {
		return "", 0, false
	}
	ms := sessionref.FindValidMentions(region)
	if len(ms) == 0 {
		return "", 0, false
	}
	var b strings.Builder
	b.WriteString(t.text[:from])
	var add []Span
	last := from
	newCursor := cursor
	for _, m := range ms {
		start, end := from+m.Start, from+m.End
		if t.covered(start, end) {
			continue
		}
		ref := m.Reference
		if !m.Markdown {
			ref.Label = nil // a bare URI shows its id
		}
		mention, err := sessionref.FormatMention(ref)
		if err != nil {
			continue
		}
		b.WriteString(t.text[last:start])
		chip := Chip(ref)
		at := b.Len()
		b.WriteString(chip)
		add = append(add, Span{Start: at, End: at + len(chip), Reference: ref, Mention: mention})
		switch {
		case cursor >= end:
			newCursor += len(chip) - (end - start)
		case cursor > start:
			newCursor = at + len(chip)
		}
		last = end
	}
	if len(add) == 0 {
		return "", 0, false
	}
	b.WriteString(t.text[last:])
	newText := b.String()
	delta := len(newText) - len(t.text)
	for i := range t.spans {
		if t.spans[i].Start >= to {
			t.spans[i].Start += delta
			t.spans[i].End += delta
		}
	}
	if t.dismissed && t.dismissedAt >= to {
		t.dismissedAt += delta
		t.dismissedEnd += delta
	}
	t.text = newText
	for _, s := range add {
		t.insertSpan(s)
	}
	return newText, newCursor, true
}

// covered reports whether [start, end) overlaps a token.
func (t *Tracker) covered(start, end int) bool {
	for _, s := range t.spans {
		if s.Start < end && start < s.End {
			return true
		}
	}
	return false
}

// check drops any span that no longer holds its chip: whatever happened,
// a token is only ever where its text is.
func (t *Tracker) check() {
	kept := t.spans[:0]
	prevEnd := 0
	for _, s := range t.spans {
		if s.Start >= prevEnd && s.End <= len(t.text) && t.text[s.Start:s.End] == Chip(s.Reference) {
			kept = append(kept, s)
			prevEnd = s.End
		}
	}
	t.spans = kept
	if t.open && (t.at >= len(t.text) || t.text[t.at] != '@') {
		t.open = false
	}
	if t.dismissed && (t.dismissedAt >= len(t.text) || t.text[t.dismissedAt] != '@' || t.dismissedEnd > len(t.text)) {
		t.dismissed = false
	}
}

// query updates the pending query for the cursor; with mayOpen, a closed
// query opens when the cursor is in an @word (not a dismissed one).
func (t *Tracker) query(cursor int, mayOpen bool, res *Result) {
	if t.inSpan(cursor) {
		t.open = false
		return
	}
	if t.open {
		if q, ok := t.queryAt(t.at, cursor); ok {
			res.Open, res.Query, res.At = true, q, t.at
			return
		}
		t.open = false
	}
	if !mayOpen {
		return
	}
	from := cursor
	for from > 0 && cursor-from <= MaxQuery {
		r, n := utf8.DecodeLastRuneInString(t.text[:from])
		if r == '\n' || t.spanEndingAt(from) >= 0 {
			break
		}
		from -= n
	}
	j, ok := WordStart(t.text[from:cursor], t.afterSpace(from))
	if !ok {
		return
	}
	at := from + j
	if t.dismissed && at == t.dismissedAt {
		return // Esc made it text
	}
	if q, ok := t.queryAt(at, cursor); ok {
		t.open, t.at = true, at
		res.Open, res.Query, res.At = true, q, at
	}
}

// queryAt is the query of the '@' at byte at, with the cursor at cursor.
func (t *Tracker) queryAt(at, cursor int) (string, bool) {
	if cursor <= at || cursor-at > MaxQuery+1 || t.covered(at, cursor) {
		return "", false
	}
	return QueryText(t.text[at:cursor], t.afterSpace(at))
}

// afterSpace reports whether byte i starts a line or follows whitespace
// (a token is not whitespace).
func (t *Tracker) afterSpace(i int) bool {
	if i == 0 {
		return true
	}
	if t.spanEndingAt(i) >= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(t.text[:i])
	return unicode.IsSpace(r)
}

// inSpan reports whether the cursor is strictly inside a token.
func (t *Tracker) inSpan(cursor int) bool {
	for _, s := range t.spans {
		if s.Start < cursor && cursor < s.End {
			return true
		}
	}
	return false
}
