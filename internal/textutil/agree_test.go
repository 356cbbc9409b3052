package textutil_test

import (
	"strings"
	"testing"

	"github.com/dshkit/mentions/internal/plain"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// FuzzSanitisersAgree: the core's entry point (sessionref.SafeLine) and
// the components' (textutil.Inline, textutil.Block) are one rule,
// plain.Line; Inline adds only a terminal's widths. What the core lets
// through, Inline makes the same as from the original; what Inline
// shows, the core's rule leaves as it is; each is idempotent.
func FuzzSanitisersAgree(f *testing.F) {
	for _, s := range []string{
		"\x1b[31mred\x1b[0m\u202Eevil", "1\uFE0F\u20E3 ❤\uFE0F 🎉\uFE0E", "👩\u200D💻 👩\u200D\U0001F03B",
		"🏴\U000E0067\U000E0062\U000E007F", "\u0301x\u200B\u0301", "x" + strings.Repeat("\u0301", 40),
		"a\r\nb\tc\x00\xff", "\u1161 lone vowel", "a\uFE00\uFE00", strings.Repeat("👩\u200D", 20) + "💻",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		core, ui := sessionref.SafeLine(s), textutil.Inline(s)
		if core != plain.Line(s) {
			t.Fatalf("SafeLine(%+q) = %+q, plain.Line %+q", s, core, plain.Line(s))
		}
		if got := textutil.Inline(core); got != ui {
			t.Fatalf("Inline(SafeLine(%+q)) = %+q, Inline %+q", s, got, ui)
		}
		if got := plain.Line(ui); got != ui {
			t.Fatalf("Inline(%+q) = %+q, which the core's rule changes to %+q", s, ui, got)
		}
		if again := sessionref.SafeLine(core); again != core {
			t.Fatalf("SafeLine is not idempotent on %+q: %+q then %+q", s, core, again)
		}
		for _, line := range strings.Split(textutil.Block(s), "\n") {
			if got := plain.Line(line); got != line {
				t.Fatalf("Block(%+q) has the line %+q, which the core's rule changes to %+q", s, line, got)
			}
		}
		for _, out := range []string{core, ui} {
			if strings.ContainsAny(out, "\x1b\x07\x00\r\n\t\u009b\u009d\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069") {
				t.Fatalf("%+q left a control or bidi control in %+q", s, out)
			}
		}
	})
}

// FuzzCoreCutsStaySafe: the core's messages cut a label and an id where
// they are long; what is left is still safe by the one rule (a joiner cut
// from its emoji is escaped, not left invisible).
func FuzzCoreCutsStaySafe(f *testing.F) {
	f.Add(strings.Repeat("👩\u200D💻", 30), "id-"+strings.Repeat("👩\u200D💻", 5))
	f.Add(strings.Repeat("a", 59)+"🏴\U000E0067\U000E0062\U000E007F", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F")
	f.Fuzz(func(t *testing.T, label, id string) {
		e := &sessionref.Error{Code: sessionref.CodeReadFailed, Msg: "failed", SessionID: id, Label: label}
		msg := e.Error()
		if got := plain.Line(msg); got != msg {
			t.Fatalf("Error() = %+q, which the rule changes to %+q", msg, got)
		}
	})
}
