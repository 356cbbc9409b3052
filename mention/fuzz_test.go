package mention

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dshkit/mentions/sessionref"
)

// FuzzTrackerEdits drives a Tracker through random edits, including ones
// it does not see coming (a whole new text, as SetValue or a recalled
// draft makes), picks, token deletions and dismissals. Whatever happens:
// every span holds its token's chip, spans are in order and apart, and
// the canonical text holds each token's mention where the token is,
// which sessionref reads back as a mention of the same session.
func FuzzTrackerEdits(f *testing.F) {
	f.Add([]byte("\x00@pa\x03\x05 x\x01\x02"), "see @fix")
	f.Add([]byte("\x04\x06\x00\x01"), "a "+mustMention(idA, "Pay")+" b")
	f.Add([]byte("\x00@\x00 \x03\x07\x00x"), "@[a](dsh-session:")
	f.Fuzz(func(t *testing.T, ops []byte, seed string) {
		if len(ops) > 200 || len(seed) > 4096 {
			return
		}
		var tr Tracker
		text := tr.SetValue(seed).Text
		cur := len(text)
		check(t, &tr, text)
		for i := 0; i < len(ops); i++ {
			op := ops[i]
			arg := byte(0)
			if i+1 < len(ops) {
				arg = ops[i+1]
			}
			var res Result
			switch op % 8 {
			case 0: // type a character
				s := string(rune(arg))
				if !utf8.ValidString(s) {
					s = "@"
				}
				i++
				text, cur = text[:cur]+s+text[cur:], cur+len(s)
				res = tr.Follow(text, cur, false)
			case 1: // backspace a byte run back to a rune start
				if cur > 0 {
					_, n := utf8.DecodeLastRuneInString(text[:cur])
					text, cur = text[:cur-n]+text[cur:], cur-n
				}
				res = tr.Follow(text, cur, false)
			case 2: // move the cursor to a rune start
				i++
				if len(text) > 0 {
					cur = int(arg) % (len(text) + 1)
					for cur > 0 && cur < len(text) && !utf8.RuneStart(text[cur]) {
						cur--
					}
				}
				res = tr.Follow(text, cur, true)
			case 3: // pick
				r, ok := tr.Pick(ref(idB, "Pay flow"), cur)
				if !ok {
					continue
				}
				res = r
			case 4: // backspace at a token
				r, ok := tr.DeleteBefore(cur)
				if !ok {
					continue
				}
				res = r
			case 5: // an edit it does not see coming: paste the seed in
				text, cur = text[:cur]+seed+text[cur:], cur+len(seed)
				if !utf8.ValidString(text) {
					text, cur = seed, len(seed)
				}
				res = tr.Follow(text, cur, false)
			case 6: // kill to the end of the line
				end := strings.IndexByte(text[cur:], '\n')
				if end < 0 {
					end = len(text) - cur
				}
				text = text[:cur] + text[cur+end:]
				res = tr.Follow(text, cur, false)
			case 7:
				tr.Dismiss()
				continue
			}
			text, cur = res.Text, res.Cursor
			if tr.Text() != text {
				t.Fatalf("the tracker holds %q, the editor %q", tr.Text(), text)
			}
			check(t, &tr, text)
		}
	})
}

func mustMention(id, label string) string {
	m, err := sessionref.FormatMention(ref(id, label))
	if err != nil {
		panic(err)
	}
	return m
}

func check(t *testing.T, tr *Tracker, text string) {
	t.Helper()
	canonical := tr.Canonical()
	found := sessionref.FindValidMentions(canonical)
	shift, prevEnd := 0, 0
	for _, s := range tr.Spans() {
		if s.Start < prevEnd || s.End > len(text) || text[s.Start:s.End] != Chip(s.Reference) {
			t.Fatalf("span %+v does not hold %q in %q", s, Chip(s.Reference), text)
		}
		prevEnd = s.End
		at := s.Start + shift
		ok := false
		for _, m := range found {
			// Plain text before a token that opens "@[" without closing it
			// reads as part of the token's label (the wire format allows
			// it); the token's session is still the one referenced.
			if m.Start <= at && m.End == at+len(s.Mention) && m.Reference.SessionID == s.Reference.SessionID {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("canonical %q does not read back the token %+v at %d", canonical, s, at)
		}
		shift += len(s.Mention) - (s.End - s.Start)
	}
}
