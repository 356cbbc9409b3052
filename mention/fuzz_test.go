package mention

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// snapshot is everything a copy of a model shows.
type snapshot struct {
	readable, canonical string
	toks                []Token
	cursor              int
	query               string
	open                bool
}

func snap(m Model) snapshot {
	q, _, ok := m.Query()
	return snapshot{m.Readable(), m.Canonical(), m.Tokens(), m.Cursor(), q, ok}
}

func (s snapshot) equal(o snapshot) bool {
	return s.readable == o.readable && s.canonical == o.canonical && s.cursor == o.cursor &&
		s.query == o.query && s.open == o.open && slices.EqualFunc(s.toks, o.toks, func(a, b Token) bool {
		return a.Start == b.Start && a.End == b.End && a.Mention == b.Mention
	})
}

// apply runs op (with its argument) on m; pieces are what a paste or a
// typed run may bring: canonical mentions, bare URIs, their halves.
func apply(m *Model, op, arg byte, pieces []string) {
	piece := pieces[int(arg)%len(pieces)]
	switch op % 14 {
	case 0:
		m.Type(string(rune(arg%96 + 32)))
	case 1:
		m.Type("@")
	case 2:
		m.Type(" ")
	case 3: // Backspace, a token whole at its end
		if !m.DeleteBackward() && m.Cursor() > 0 {
			_, n := utf8.DecodeLastRuneInString(m.Readable()[:m.Cursor()])
			m.Delete(m.Cursor()-n, m.Cursor())
		}
	case 4:
		if !m.DeleteForward() && m.Cursor() < len(m.Readable()) {
			_, n := utf8.DecodeRuneInString(m.Readable()[m.Cursor():])
			m.Delete(m.Cursor(), m.Cursor()+n)
		}
	case 5:
		m.Move(int(arg)%(len(m.Readable())+1), Move)
	case 6:
		m.Paste(piece)
	case 7:
		typeAll(m, piece)
	case 8:
		m.Pick(ref(idB, piece))
	case 9:
		m.Dismiss()
	case 10:
		m.AwaitPick()
	case 11:
		m.NoPick()
	case 12:
		m.EndsQuery(" ", arg%2 == 0)
		m.Type(" ")
	case 13:
		m.SetValue(piece)
	}
}

func fuzzPieces(t testing.TB, seed string) []string {
	c := canon(t, idA, "Pay flow")
	u := uri(t, idB)
	return []string{c, c[:9], c[9:], u, u[:14], u[14:], "@[" + seed + "](" + u + ")", seed,
		"@[P](" + u + ")", "x @[a " + c, "\t\r\n"}
}

// FuzzModelIntegrity drives a model through random keys, pastes (whole
// mentions, bare URIs, halves of them), picks with hostile labels, Esc,
// waiting picks and SetValue, and checks the invariants after every
// step: tokens hold their chips, labels are made safe once, every
// reference the canonical text makes is a token, TakeChange describes
// the change; and a copy taken at a random step is untouched by the
// edits that follow.
func FuzzModelIntegrity(f *testing.F) {
	f.Add([]byte("\x01\x00pa\x08\x00\x02\x03\x03"), "Pay\n\u202e flow", byte(3))
	f.Add([]byte("\x06\x01\x06\x02\x07\x03\x02\x00\x03\x05"), "@[x](dsh-session:", byte(1))
	f.Add([]byte("\x0d\x06\x05\x02\x00\x07\x04\x08\x01\x0a\x00\x0b\x0c\x00"), strings.Repeat("w", 300), byte(0))
	f.Fuzz(func(t *testing.T, ops []byte, seed string, copyAt byte) {
		if len(ops) > 120 || len(seed) > 2048 || !utf8.ValidString(seed) {
			return
		}
		pieces := fuzzPieces(t, seed)
		var m, kept Model
		var want snapshot
		for i := 0; i+1 < len(ops); i += 2 {
			if i/2 == int(copyAt)%(len(ops)/2+1) {
				kept, want = m, snap(m)
			}
			before := m.Readable()
			apply(&m, ops[i], ops[i+1], pieces)
			assertIntegrity(t, &m)
			// TakeChange says exactly what changed.
			if from, oldEnd, newEnd, ok := m.TakeChange(); ok {
				if before[:from]+m.Readable()[from:newEnd]+before[oldEnd:] != m.Readable() {
					t.Fatalf("change [%d,%d)->[%d,%d) does not turn %q into %q", from, oldEnd, from, newEnd, before, m.Readable())
				}
			} else if before != m.Readable() {
				t.Fatalf("no change reported, %q became %q", before, m.Readable())
			}
		}
		if got := snap(kept); !got.equal(want) {
			t.Fatalf("a copy changed with the original: %+v, was %+v", got, want)
		}
	})
}

// FuzzLabel: a label is made safe once: idempotent, at most
// MaxLabelWidth cells, one line with nothing a terminal acts on, and
// never spelling a reference.
func FuzzLabel(f *testing.F) {
	f.Add("Fix the parser")
	f.Add("@[P](dsh-session:IjEi)")
	f.Add(strings.Repeat("界\u0301\x1b[1m\n", 50))
	f.Fuzz(func(t *testing.T, title string) {
		l := Label(title)
		if Label(l) != l {
			t.Fatalf("Label(%q) = %q, again %q", title, l, Label(l))
		}
		if textutil.Width(l) > MaxLabelWidth || textutil.Inline(l) != l {
			t.Fatalf("label %q not safe", l)
		}
		if ms := sessionref.FindValidMentions("@" + l); len(ms) != 0 {
			t.Fatalf("label %q spells %v", l, ms)
		}
	})
}

// FuzzFollowKeepsMention: an editor's text replaced from outside (a
// host's SetValue, an $EDITOR round trip) by canonical text that keeps a
// mention in the part that did not change — its '@' in the common prefix
// with the readable text — still holds that mention as a token, with the
// edit around it as typed.
func FuzzFollowKeepsMention(f *testing.F) {
	f.Add("look at ", " please", " edited", uint8(0))
	f.Add("", "", "x", uint8(1))
	f.Add("a\nb ", "\n", "more @x", uint8(2))
	f.Fuzz(func(t *testing.T, prefix, suffix, edit string, where uint8) {
		for _, s := range []string{prefix, suffix, edit} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "@[]()\\:\r\t") || len(s) > 200 {
				return
			}
		}
		c := canon(t, idA, "terraform drift")
		var m Model
		m.SetValue(prefix + c + suffix)
		if len(m.Tokens()) != 1 {
			t.Fatalf("SetValue: %q", m.Readable())
		}
		var text, want string
		switch where % 3 {
		case 0: // edited after the mention
			text, want = prefix+c+suffix+edit, prefix+"@terraform drift"+suffix+edit
		case 1: // before it
			text, want = edit+prefix+c+suffix, edit+prefix+"@terraform drift"+suffix
		default: // on both sides
			text, want = edit+prefix+c+edit+suffix, edit+prefix+"@terraform drift"+edit+suffix
		}
		for _, how := range []Change{Edit, Paste} {
			m2 := m
			m2.Follow(text, 0, how) // the cursor away from the mention's end, where typing may still go on
			if m2.Readable() != want || len(m2.Tokens()) != 1 || m2.Tokens()[0].Reference.SessionID != idA {
				t.Fatalf("Follow(%q): %q %v, want %q", text, m2.Readable(), m2.Tokens(), want)
			}
			assertIntegrity(t, &m2)
		}
	})
}
