package mention

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/sessionref"
)

// query updates the open query for the cursor after a change; with
// mayOpen, a closed query opens when the cursor is in an @word that Esc
// did not make text.
func (m *Model) query(mayOpen bool) {
	if m.open && m.waiting {
		if m.cursor < m.pickEnd {
			m.close() // went back into the query: the pick is dropped
		}
		return
	}
	if m.inToken(m.cursor) {
		m.close()
		return
	}
	if m.open {
		if _, ok := m.queryAt(m.at, m.cursor); ok {
			return
		}
		m.close()
	}
	if !mayOpen {
		return
	}
	from := m.cursor
	for from > 0 && m.cursor-from <= MaxQuery {
		r, n := utf8.DecodeLastRuneInString(m.text[:from])
		if r == '\n' || m.tokenEndingAt(from) >= 0 {
			break
		}
		from -= n
	}
	j, ok := WordStart(m.text[from:m.cursor], m.afterSpace(from))
	if !ok {
		return
	}
	at := from + j
	if m.dismissed && at == m.dAt {
		return // Esc made it text
	}
	if _, ok := m.queryAt(at, m.cursor); ok {
		m.open, m.at = true, at
	}
}

// queryAt is the query of the '@' at byte at, with the cursor at cursor.
func (m *Model) queryAt(at, cursor int) (string, bool) {
	if cursor <= at || cursor-at > MaxQuery+1 || m.covered(at, cursor) {
		return "", false
	}
	return QueryText(m.text[at:cursor], m.afterSpace(at))
}

// afterSpace reports whether byte i starts a line or follows whitespace
// (a token is not whitespace).
func (m *Model) afterSpace(i int) bool {
	if i == 0 {
		return true
	}
	if m.tokenEndingAt(i) >= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(m.text[:i])
	return unicode.IsSpace(r)
}

// wordEnd is where the word starting at i ends: at whitespace, a token or
// the end of the text.
func (m *Model) wordEnd(i int) int {
	for j, r := range m.text[i:] {
		if unicode.IsSpace(r) || m.tokenStartingAt(i+j) >= 0 {
			return i + j
		}
	}
	return len(m.text)
}

func (m *Model) close() { m.open, m.waiting = false, false }

// Close closes the query without making it text: the next edit in its
// @word opens it again. A pick waiting for its answer is dropped.
func (m *Model) Close() { m.close() }

// Dismiss closes the query and makes its @word plain text (Esc, a click
// outside the popup): it stays closed while the cursor moves over it or
// text is typed after it, until an edit inside it.
func (m *Model) Dismiss() {
	if !m.open {
		return
	}
	m.close()
	m.dismissed, m.dAt, m.dEnd = true, m.at, m.wordEnd(m.at)
}

// EndsQuery is told of text about to be typed, and whether the picker's
// answers for the open query are all in and hold nothing to pick. A
// space after a query that matched nothing ends it as prose: the query
// is dismissed (as by Esc) and EndsQuery reports true. Both editors
// call it before they take the text.
func (m *Model) EndsQuery(text string, matchedNothing bool) bool {
	if !m.open || m.waiting || !matchedNothing || text == "" || strings.TrimFunc(text, unicode.IsSpace) != "" {
		return false
	}
	m.Dismiss()
	return true
}

// AwaitPick notes a pick asked for before the picker's answer came (Tab
// or Enter while it fetches): the query ends where the cursor is now.
// Text typed meanwhile goes after it; an edit or a move into the query
// drops the pick and closes the query.
func (m *Model) AwaitPick() {
	if m.open && !m.waiting {
		m.waiting, m.pickEnd = true, m.cursor
	}
}

// NoPick is told that the answer a pick waited for held nothing to pick:
// the query stays open when the cursor is still where the pick was asked
// for (the picker says why), and closes when the user typed on.
func (m *Model) NoPick() {
	if !m.waiting {
		return
	}
	m.waiting = false
	if m.cursor != m.pickEnd {
		m.close()
	}
}

// Pick replaces the open query — the '@' and the rest of its @word when
// that belongs to the label ([TakesRest]) — with ref's token and a
// space, or the space already there, and puts the cursor after it. A
// pick that waited for its answer replaces the query up to where it was
// asked for, and the cursor stays with what was typed after it. It
// reports false when no query is open or ref cannot be written as a
// mention.
func (m *Model) Pick(ref sessionref.Reference) bool {
	if !m.open {
		return false
	}
	tok, ok := newToken(ref)
	if !ok {
		return false
	}
	m.replaceQuery("@"+*tok.Reference.Label, &tok, ref.LabelOrID())
	return true
}

// ReplaceQuery replaces the open query with text (a host's item, a
// file path) as [Model.Pick] does; canonical mentions in text become
// tokens, and empty text only removes the query. It reports false when
// no query is open.
func (m *Model) ReplaceQuery(text string) bool {
	if !m.open {
		return false
	}
	m.replaceQuery(normalize(text), nil, text)
	return true
}

func (m *Model) replaceQuery(ins string, tok *Token, label string) {
	start, end, cur := m.at, m.cursor, m.cursor
	if m.waiting {
		end = m.pickEnd
	} else if we := max(m.wordEnd(start), cur); cur > start && cur < we && TakesRest(m.text[start+1:cur], m.text[cur:we], label) {
		end = we
	} else if cur <= start {
		end = we
	}
	typedOn := cur > end
	m.close()
	m.justPicked = false
	m.splice(start, end, ins, tok)
	after := start + len(ins)
	if ins != "" {
		if r, _ := utf8.DecodeRuneInString(m.text[after:]); after == len(m.text) || !unicode.IsSpace(r) || r == '\n' {
			m.splice(after, after, " ", nil)
		}
		after++
	}
	if tok == nil {
		m.adopt(start, after, true)
	}
	m.check()
	if !typedOn {
		m.cursor = m.clamp(after)
		if tok == nil {
			// canonical mentions adopted from ins moved what follows
			m.cursor = m.clamp(m.cursor)
		}
		m.justPicked = ins != ""
	}
}

// Canonical returns the text to send: the readable text with every token
// replaced by its canonical mention. [sessionref.ParseText] reads it back
// as exactly the tokens' references, in order. Plain text that would
// reference a session no token stands for is written inert, with a word
// joiner (U+2060): in the scheme of a valid URI not (yet) a token (one
// typed with the cursor still at its end), after its "dsh-session", and
// in an unclosed "@[" that a token would close, after its '@'. A
// malformed URI stays as it is: it references nothing, and
// sessionref.ParseText rejects it, so a send says so.
func (m *Model) Canonical() string {
	if len(m.toks) == 0 && !strings.Contains(m.text, sessionref.Scheme) {
		return m.text
	}
	var b strings.Builder
	b.Grow(len(m.text) + 64*len(m.toks))
	last := 0
	for _, t := range m.toks {
		writeInert(&b, m.text[last:t.Start], true)
		b.WriteString(t.Mention)
		last = t.End
	}
	writeInert(&b, m.text[last:], false)
	return b.String()
}

// wordJoiner breaks "@[" in plain text that would open a mention
// reaching into the token after it.
const wordJoiner = "\u2060"

var inertScheme = strings.TrimSuffix(sessionref.Scheme, ":") + wordJoiner + ":"

// writeInert writes plain text that a token follows: an "@[" with no
// ']' after it in the text would make the token's "](…)" close a
// mention it opened.
func writeInert(b *strings.Builder, s string, beforeToken bool) {
	s = inertURIs(s)
	if !beforeToken {
		b.WriteString(s)
		return
	}
	for {
		i := strings.Index(s, "@[")
		if i < 0 {
			b.WriteString(s)
			return
		}
		if closes(s[i+2:]) {
			b.WriteString(s[:i+2])
		} else {
			b.WriteString(s[:i+1])
			b.WriteString(wordJoiner)
			b.WriteString("[")
		}
		s = s[i+2:]
	}
}

// inertURIs breaks the scheme of each valid mention or bare URI in
// plain text s (one typed with the cursor still at its end). A
// malformed one is left as it is: it references nothing, and a send
// says so.
func inertURIs(s string) string {
	if !strings.Contains(s, sessionref.Scheme) {
		return s
	}
	ms := sessionref.FindValidMentions(s)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m.Start])
		b.WriteString(strings.ReplaceAll(s[m.Start:m.End], sessionref.Scheme, inertScheme))
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// closes reports whether a mention that starts with s ("@[" cut off)
// ends in s: an unescaped ']' is in it and, when "(" follows, a ')'
// after that. Otherwise the token after s would close it.
func closes(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ']':
			rest := s[i+1:]
			return !strings.HasPrefix(rest, "(") || strings.Contains(rest, ")")
		case '\\':
			i++
		}
	}
	return false
}
