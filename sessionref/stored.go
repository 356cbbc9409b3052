package sessionref

import (
	"strings"
)

// The rest of a message's life: a host stores the user messages it sent,
// either as their text or in the single-message form
// ([PreparedText.SingleMessage]), and later shows them (a title, the
// history, a copy, a search) and gives them back to the person to send
// again or to edit. Readable and Canonical read a stored message in
// either form, so a host never parses the form itself.

// Readable returns what a person reads of a stored user message: of a
// message in the single-message form its direct message (mentions as
// @label, the snapshot left out); of any other text, the text with each
// mention that decodes replaced by "@" + its label ([FindValidMentions];
// a malformed one stays as it is). Use it for titles, prompt history,
// copying and search. It never fails.
func Readable(stored string) string {
	if sm := ParseSingleMessage(stored); sm.Context != nil || len(sm.Text) != len(stored) {
		return sm.Text
	}
	ms := FindValidMentions(stored)
	if len(ms) == 0 {
		return stored
	}
	var b strings.Builder
	b.Grow(len(stored))
	last := 0
	for _, m := range ms {
		b.WriteString(stored[last:m.Start])
		b.WriteByte('@')
		b.WriteString(m.Reference.LabelOrID())
		last = m.End
	}
	b.WriteString(stored[last:])
	return b.String()
}

// Canonical returns a stored user message as the draft it was sent from,
// with its mentions (@[label](dsh-session:…)), for recalling it (up-arrow)
// or editing it: preparing the result again references the same sessions,
// in the same order and with the same labels. An editor turns its
// mentions into tokens as it does for any canonical text
// ([FindValidMentions]).
//
// A message in the single-message form keeps, in its record, each
// distinct session it referenced with the label first given; each
// becomes a mention again where its "@label" first stands in the direct
// message after the one before. A second mention of a session was sent as
// plain "@label" and comes back so. A reference whose "@label" is not
// found (a host that wrote the form from another text) is added at the
// end, after a space. Text outside the mentions that would itself read
// as a mention (a label quoting one, say) gets a word joiner (U+2060)
// after its "@" or inside its "dsh-session:", so that it stays text. Any
// other stored text is returned as it is: it is already a draft. It never
// fails.
func Canonical(stored string) string {
	sm := ParseSingleMessage(stored)
	if sm.Context == nil {
		return sm.Text
	}
	refs := sm.Context.Source.References
	out := canonicalDraft(sm.Text, refs, false)
	if sameReferences(out, refs) {
		return out
	}
	return canonicalDraft(sm.Text, refs, true)
}

// canonicalDraft puts each reference's mention back where its "@label"
// first stands after the previous one; with defuse, the text between the
// mentions is kept from reading as a mention.
func canonicalDraft(text string, refs []ReferenceRecord, defuse bool) string {
	var b strings.Builder
	b.Grow(len(text) + 64*len(refs))
	plain := func(s string) {
		if defuse {
			s = defuseMentions(s)
		}
		b.WriteString(s)
	}
	at := 0
	var missing []string
	for _, r := range refs {
		label := r.Label
		m, err := FormatMention(Reference{SessionID: r.SessionID, Label: &label})
		if err != nil {
			continue // ParseSingleMessage only gives ids and labels that format
		}
		i := strings.Index(text[at:], "@"+label)
		if i < 0 {
			missing = append(missing, m)
			continue
		}
		plain(text[at : at+i])
		b.WriteString(m)
		at += i + 1 + len(label)
	}
	plain(text[at:])
	for _, m := range missing {
		b.WriteByte(' ')
		b.WriteString(m)
	}
	return b.String()
}

// wordJoiner is invisible and joins nothing a mention needs.
const wordJoiner = "\u2060"

// defuseMentions keeps s from holding the start of a mention.
func defuseMentions(s string) string {
	s = strings.ReplaceAll(s, markdownOpen, "@"+wordJoiner+"[")
	return strings.ReplaceAll(s, Scheme, strings.TrimSuffix(Scheme, ":")+wordJoiner+":")
}

// sameReferences reports whether draft parses, and references exactly
// refs, in their order and with their labels, once repeats are removed.
func sameReferences(draft string, refs []ReferenceRecord) bool {
	p, err := ParseText(draft)
	if err != nil {
		return false
	}
	seen := make(map[string]bool, len(refs))
	k := 0
	for _, r := range p.References {
		if seen[r.SessionID] {
			continue
		}
		seen[r.SessionID] = true
		if k >= len(refs) || refs[k].SessionID != r.SessionID || refs[k].Label != r.LabelOrID() {
			return false
		}
		k++
	}
	return k == len(refs)
}
