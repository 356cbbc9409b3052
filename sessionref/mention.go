package sessionref

import (
	"strings"
	"unicode/utf8"
)

// Reference names one session to reference, as typed in a message.
type Reference struct {
	// SessionID is the referenced session's id.
	SessionID string `json:"sessionId"`
	// Label is what the message shows for it; nil means the id.
	Label *string `json:"label,omitempty"`
}

// LabelOrID returns the label, or the id when the label is nil.
func (r Reference) LabelOrID() string {
	if r.Label != nil {
		return *r.Label
	}
	return r.SessionID
}

// FormatMention returns the canonical Markdown mention of ref:
// @[label](dsh-session:…), with '\' and ']' in the label escaped by a
// backslash. [ParseText] gives back the same label for every label.
func FormatMention(ref Reference) (string, error) {
	uri, err := EncodeURI(ref.SessionID)
	if err != nil {
		return "", err
	}
	label := ref.LabelOrID()
	if !utf8.ValidString(label) {
		return "", newError(CodeInvalidReference, "mention label "+quote(label)+" is not valid UTF-8", nil)
	}
	var b strings.Builder
	b.Grow(len(label) + len(uri) + 8)
	b.WriteString("@[")
	for i := 0; i < len(label); i++ {
		if c := label[i]; c == '\\' || c == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(label[i])
	}
	b.WriteString("](")
	b.WriteString(uri)
	b.WriteByte(')')
	return b.String(), nil
}

// ParsedText is a message text with its mentions replaced by @label.
type ParsedText struct {
	// Text is the readable text: each mention became "@" + its label.
	Text string
	// References lists the mentions in order of appearance, duplicates
	// included.
	References []Reference
}

// Mention is one mention found by [FindMentions].
type Mention struct {
	// Start and End are the byte offsets of the mention in the text.
	Start, End int
	// Reference is the decoded session and its label.
	Reference Reference
	// Markdown is true for @[label](uri), false for a bare URI.
	Markdown bool
}

// ParseText replaces every mention in text by "@" + its label and returns
// the references. Two forms are recognised, scanning left to right without
// overlap: @[label](dsh-session:…) and a bare dsh-session:… URI. A mention
// whose URI does not decode fails the whole parse with
// [CodeInvalidReference]; text that only looks like a URI is left alone.
func ParseText(text string) (ParsedText, error) {
	var out ParsedText
	var b strings.Builder
	last := 0
	err := scanMentions(text, false, func(m Mention) {
		if b.Cap() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[last:m.Start])
		b.WriteByte('@')
		b.WriteString(*m.Reference.Label)
		last = m.End
		out.References = append(out.References, m.Reference)
	})
	if err != nil {
		return ParsedText{}, err
	}
	if out.References == nil {
		out.Text = text
		return out, nil
	}
	b.WriteString(text[last:])
	out.Text = b.String()
	return out, nil
}

// FindMentions returns the mentions of text with their positions, with the
// same grammar and errors as [ParseText]. Editors use it to turn pasted
// mentions into tokens.
func FindMentions(text string) ([]Mention, error) {
	var ms []Mention
	err := scanMentions(text, false, func(m Mention) { ms = append(ms, m) })
	return ms, err
}

// FindValidMentions returns the mentions of text whose URIs decode,
// skipping malformed ones instead of failing: an editor turns the valid
// ones into tokens and leaves the rest as the text they are. (ParseText
// of the whole text still rejects a malformed one on submit.)
func FindValidMentions(text string) []Mention {
	var ms []Mention
	_ = scanMentions(text, true, func(m Mention) { ms = append(ms, m) })
	return ms
}

const markdownOpen = "@["

// scanMentions calls yield for each mention, in order. It reproduces the
// reference's global regular expression
//
//	@\[((?:\\.|[^\\\]])*)\]\((dsh-session:[^\s)]*)\)|dsh-session:[A-Za-z0-9_-]+
//
// with JavaScript's u-flag classes (. excludes \n \r U+2028 U+2029; \s is
// JS whitespace), but as a linear scan: a match can only start at "@[" or
// at the scheme, and neither alternative ever needs to backtrack (see
// matchMarkdown).
//
// With tolerant, a match whose URI does not decode is skipped (the scan
// goes on after it) instead of failing the scan.
func scanMentions(text string, tolerant bool, yield func(Mention)) error {
	nextMD, nextBare := -2, -2 // -2: not searched yet; -1: none left
	for p := 0; p < len(text); {
		if nextMD != -1 && nextMD < p {
			nextMD = indexFrom(text, markdownOpen, p)
		}
		if nextBare != -1 && nextBare < p {
			nextBare = indexScheme(text, p)
		}
		q := nextMD
		if q == -1 || nextBare != -1 && nextBare < q {
			q = nextBare
		}
		if q == -1 {
			return nil
		}
		var m Mention
		var ok bool
		var uri string
		if q == nextMD {
			m, uri, ok = matchMarkdown(text, q)
		} else {
			m, uri, ok = matchBare(text, q)
		}
		if !ok {
			p = q + 1
			continue
		}
		id, err := DecodeURI(uri)
		if err != nil {
			if tolerant {
				p = m.End
				continue
			}
			return err
		}
		m.Reference.SessionID = id
		if !m.Markdown {
			m.Reference.Label = &id
		}
		yield(m)
		p = m.End
	}
	return nil
}

// indexScheme finds the next "dsh-session:" at or after from. It looks
// for the ':' first: prose is full of 'd's, but colons are rare.
func indexScheme(s string, from int) int {
	const head = len(Scheme) - 1
	for i := from + head; i < len(s); {
		j := strings.IndexByte(s[i:], ':')
		if j < 0 {
			return -1
		}
		i += j
		if s[i-head:i+1] == Scheme {
			return i - head
		}
		i++
	}
	return -1
}

func indexFrom(s, sub string, from int) int {
	i := strings.Index(s[from:], sub)
	if i < 0 {
		return -1
	}
	return from + i
}

// matchMarkdown matches @[LABEL](URI) at q. The label is greedy and has a
// single possible end: a label unit never starts with ']', and '\' is only
// ever consumed together with the character after it, so the only unit
// boundary followed by ']' is the greedy one. The URI class excludes ')',
// so its greedy end is also its only end.
func matchMarkdown(text string, q int) (Mention, string, bool) {
	i := q + len(markdownOpen)
	escaped := false
	for i < len(text) {
		c := text[i]
		if c == ']' {
			break
		}
		if c == '\\' {
			r, size := utf8.DecodeRuneInString(text[i+1:])
			if size == 0 || isLineTerminator(r) {
				return Mention{}, "", false
			}
			escaped = true
			i += 1 + size
			continue
		}
		i++
	}
	labelEnd := i
	if !strings.HasPrefix(text[i:], "](") {
		return Mention{}, "", false
	}
	uriStart := i + 2
	if !strings.HasPrefix(text[uriStart:], Scheme) {
		return Mention{}, "", false
	}
	j := uriStart + len(Scheme)
	for j < len(text) {
		c := text[j]
		if c == ')' {
			break
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[j:])
		}
		if isJSSpace(r) {
			return Mention{}, "", false
		}
		j += size
	}
	if j >= len(text) {
		return Mention{}, "", false
	}
	label := text[q+len(markdownOpen) : labelEnd]
	if escaped {
		label = unescapeLabel(label)
	}
	return Mention{Start: q, End: j + 1, Markdown: true, Reference: Reference{Label: &label}}, text[uriStart:j], true
}

// matchBare matches dsh-session:[A-Za-z0-9_-]+ at q, greedily and with no
// word boundaries, as the reference does.
func matchBare(text string, q int) (Mention, string, bool) {
	j := q + len(Scheme)
	for j < len(text) && isPayloadByte(text[j]) {
		j++
	}
	if j == q+len(Scheme) {
		return Mention{}, "", false
	}
	return Mention{Start: q, End: j}, text[q:j], true
}

// unescapeLabel drops each escaping backslash and keeps what follows it.
func unescapeLabel(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isLineTerminator is what JavaScript's '.' (u flag) does not match.
func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}

// isJSSpace is JavaScript's \s (u flag), which Go's \s is not: Go lacks \v
// and every non-ASCII member.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}
