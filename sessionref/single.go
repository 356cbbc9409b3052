package sessionref

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// The single-message form, for a host that can send only one user text
// per turn. Its layout, line by line:
//
//	<the context prompt, exactly as Message.Prompt returns it>
//	<referenced-sessions-record>
//	<one line of JSON: {"id": the context message's id, "source": its SourceRecord}>
//	</referenced-sessions-record>
//	(an empty line)
//	## Message
//	(an empty line)
//	<the direct message, verbatim, to the end of the text>
//
// The prompt itself is the heading, the warning, the opening tag, one
// line of snapshot JSON and the closing tag. Both JSON lines are written
// by this package with every "<" escaped and no raw line break, so
// nothing a snapshot holds (a message body, a title, a folder) can end
// its line, close a tag or start the "## Message" part: the parser reads
// each JSON line up to its first line break and requires the fixed lines
// around them byte for byte.
const (
	// SingleMessageHeading introduces the direct message in the
	// single-message form.
	SingleMessageHeading = "## Message"
	recordOpenTag        = "<referenced-sessions-record>"
	recordCloseTag       = "</referenced-sessions-record>"
	singleAfterPrompt    = "\n" + recordOpenTag + "\n"
	singleAfterRecord    = "\n" + recordCloseTag + "\n\n" + SingleMessageHeading + "\n\n"
	// The JSON lines of the envelope that references nothing, which
	// carries a direct message that itself begins like the form (see
	// FormatSingleMessage).
	emptySnapshots = "[]"
	emptyRecord    = `{"id":"","source":{"kind":"session-reference","form":"recall","version":1,"references":[]}}`
)

// SingleMessage is a prepared draft as a host that sends one text per
// turn stores it: the context message, then the direct message.
type SingleMessage struct {
	// Context is the additional-context message, with its source record
	// and prompt as they were sent; nil when the text referenced nothing.
	Context *Message
	// Text is the direct message: what the person wrote, mentions
	// replaced by @label.
	Text string
}

// recordLine is the JSON of the record line.
type recordLine struct {
	ID     string       `json:"id"`
	Source SourceRecord `json:"source"`
}

// SingleMessage returns the prepared draft as one text in the
// single-message form (see [FormatSingleMessage]): the untrusted
// snapshot first, then the direct message (p.Parsed.Text). A draft that
// referenced nothing is its text alone.
func (p PreparedText) SingleMessage() (string, error) {
	return FormatSingleMessage(p.Context, p.Parsed.Text)
}

// FormatSingleMessage writes a context message and a direct message as
// one text, for a host that can send only one user message per turn. The
// model reads the untrusted snapshot first and the person's own words
// last, as it would from two messages (see the package doc, "Which
// message comes first"); [ParseSingleMessage] gives both back exactly,
// source record included, so a card can be drawn from the host's stored
// text alone.
//
// With a nil ctx the result is text itself, unless text begins as the
// form does (with [PromptPrefix]): it is then wrapped in an envelope
// that references nothing, so that it still parses back as a message
// without context.
//
// ctx must be a context message as [Resolver.Prepare] makes it (one text
// block holding the prompt, role "user", valid UTF-8); anything that
// would not parse back to the same message is an error wrapping
// [ErrNotContext], and nothing is written.
func FormatSingleMessage(ctx *Message, text string) (string, error) {
	if ctx == nil {
		if !strings.HasPrefix(text, PromptPrefix) {
			return text, nil
		}
		return PromptPrefix + emptySnapshots + PromptSuffix + singleAfterPrompt + emptyRecord + singleAfterRecord + text, nil
	}
	if len(ctx.Content) != 1 {
		return "", fmt.Errorf("%w: a context message holds one text block, not %d", ErrNotContext, len(ctx.Content))
	}
	line, err := json.Marshal(recordLine{ID: ctx.ID, Source: ctx.Source})
	if err != nil {
		return "", errors.Join(ErrNotContext, err)
	}
	out := ctx.Prompt() + singleAfterPrompt + string(line) + singleAfterRecord + text
	back := ParseSingleMessage(out)
	if back.Context == nil || back.Text != text || !reflect.DeepEqual(back.Context, ctx) {
		return "", fmt.Errorf("%w: the message would not read back as it is (a prompt or record not written by Prepare, or an id or label that is not valid UTF-8)", ErrNotContext)
	}
	return out, nil
}

// ParseSingleMessage reads a text in the single-message form back into
// its context message and direct message; it never fails. A text that
// is not in the form — a plain message, or one whose envelope is damaged
// in any way (a fixed line changed, JSON that does not decode or is not
// in the form this package writes, a record that does not match its
// snapshots) — has no context, and all of it is the direct message.
//
// It is exact: for what [FormatSingleMessage] writes, it returns what
// was given, and for any text it finds context in, formatting the result
// again gives that text byte for byte. The snapshots inside are
// untrusted; a host shows them through a card ([Message.Prompt] and
// [ParsePrompt]), never as instructions.
func ParseSingleMessage(s string) SingleMessage {
	whole := SingleMessage{Text: s}
	rest, ok := strings.CutPrefix(s, PromptPrefix)
	if !ok {
		return whole
	}
	snapLine, rest, ok := cutLine(rest)
	if !ok {
		return whole
	}
	rest, ok = strings.CutPrefix(rest, strings.TrimPrefix(PromptSuffix, "\n")+singleAfterPrompt)
	if !ok {
		return whole
	}
	recLine, rest, ok := cutLine(rest)
	if !ok {
		return whole
	}
	text, ok := strings.CutPrefix(rest, strings.TrimPrefix(singleAfterRecord, "\n"))
	if !ok {
		return whole
	}
	if snapLine == emptySnapshots && recLine == emptyRecord {
		// The envelope of a message without context that begins like the
		// form; anything else in it is not what FormatSingleMessage writes.
		if !strings.HasPrefix(text, PromptPrefix) {
			return whole
		}
		return SingleMessage{Text: text}
	}
	ctx, ok := contextOf(snapLine, recLine)
	if !ok {
		return whole
	}
	return SingleMessage{Context: ctx, Text: text}
}

// contextOf is the context message of the form's two JSON lines, when
// they are exactly what FormatSingleMessage writes: a record that
// decodes strictly and re-encodes to the same bytes, of this package's
// kind, form and version, whose references match the snapshots' ids and
// labels one for one.
func contextOf(snapLine, recLine string) (*Message, bool) {
	var rec recordLine
	dec := json.NewDecoder(strings.NewReader(recLine))
	dec.DisallowUnknownFields()
	if dec.Decode(&rec) != nil || dec.More() {
		return nil, false
	}
	// Only the bytes this package writes: a record that re-encodes
	// differently (other spacing, key order, escapes) is not ours.
	if again, err := json.Marshal(rec); err != nil || !bytes.Equal(again, []byte(recLine)) {
		return nil, false
	}
	src := rec.Source
	if src.Kind != SourceSessionReference || src.Form != SourceFormRecall || src.Version != SourceRecordVersion || len(src.References) == 0 {
		return nil, false
	}
	prompt := PromptPrefix + snapLine + PromptSuffix
	snaps, err := ParsePrompt(prompt)
	if err != nil || len(snaps) != len(src.References) {
		return nil, false
	}
	for i, r := range src.References {
		if r.SessionID != snaps[i].SessionID || r.Label != snaps[i].Label {
			return nil, false
		}
	}
	return &Message{Source: src, Content: []Block{TextBlock(prompt)}, Role: RoleUser, ID: rec.ID}, true
}

// cutLine returns s up to its first line break and what follows the
// break. A JSON line of the form holds no "<" (it is written tag-safe),
// so one that does is refused here.
func cutLine(s string) (line, rest string, ok bool) {
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return "", "", false
	}
	line = s[:i]
	if line == "" || strings.IndexByte(line, '<') >= 0 || strings.IndexByte(line, '\r') >= 0 {
		return "", "", false
	}
	return line, s[i+1:], true
}
