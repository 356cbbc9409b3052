package sessionref

import (
	"context"
	"errors"
	"fmt"
	"github.com/dshkit/mentions/internal/plain"
	"strings"
	"testing"
	"unicode"
)

// TestErrorNamesSession: an error about one session says which, by label
// and short id, on one safe line.
func TestErrorNamesSession(t *testing.T) {
	const id = "81a83c14-1957-46da-9810-ddbd6854031d"
	cases := []struct {
		err  *Error
		want string
	}{
		{&Error{Code: CodeReadFailed, Msg: "failed to read referenced session", SessionID: id, Label: "Fix the parser", Cause: errors.New("permission denied")},
			`session "Fix the parser" (81a83c14): failed to read referenced session: permission denied`},
		{&Error{Code: CodeBudgetExceeded, Msg: "referenced session does not fit in 16 bytes", SessionID: id, Label: id},
			`session 81a83c14: referenced session does not fit in 16 bytes`},
		{&Error{Code: CodeReadFailed, Msg: "m", SessionID: "a-very-long-session-identifier"},
			`session a-ver…tifier: m`},
		{&Error{Code: CodeSelfReference, Msg: "m", SessionID: "s\x1b[2J\n", Label: "evil\u202e\u009b31m\r\nlabel"},
			`session "evil\u202E\x9B31m  label" (s\x1B[2J ): m`},
		{&Error{Code: CodeTooMany, Msg: "a message may reference at most 3 sessions"},
			`a message may reference at most 3 sessions`},
		{&Error{Code: CodeCancelled}, `SESSION_REFERENCE_CANCELLED`},
		{&Error{Code: CodeCancelled, Cause: context.Canceled}, `context canceled`},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
	long := &Error{Msg: "m", SessionID: "x", Label: strings.Repeat("é", 200)}
	if got := long.Error(); len([]rune(got)) > 100 || !strings.Contains(got, "…") {
		t.Errorf("a long label is not cut: %q", got)
	}
}

// TestPrepareErrorsNameSession: the errors Prepare returns carry the
// label the message gave.
func TestPrepareErrorsNameSession(t *testing.T) {
	m := newMemStore()
	m.put("one", nil, 1, nil)
	r, _ := NewResolver(m, Config{})
	label := "Report \x1b[31m"
	_, err := r.Prepare(context.Background(), Target{ID: "t"}, nil, []Reference{{SessionID: "gone", Label: &label}})
	var e *Error
	if !errors.As(err, &e) || e.Label != label || e.SessionID != "gone" ||
		!strings.HasPrefix(err.Error(), `session "Report \x1B[31m" (gone): failed to read referenced session: `) {
		t.Fatalf("read failed: %v", err)
	}
	_, err = r.Prepare(context.Background(), Target{ID: "one"}, nil, []Reference{{SessionID: "one", Label: &label}})
	if CodeOf(err) != CodeSelfReference || !errors.As(err, &e) || e.Label != label {
		t.Fatalf("self: %v", err)
	}
}

type panicky struct{}

func (*panicky) Error() string { panic("boom") }

// TestDescribe: one sentence per code, the limits and labels given, on
// one line with nothing a terminal would act on.
func TestDescribe(t *testing.T) {
	const id = "81a83c14-1957-46da-9810-ddbd6854031d"
	chip := func(string) string { return "@Fix parser" }
	cause := errors.New("disk\nunplugged")
	cases := []struct {
		err   error
		cfg   Config
		label func(string) string
		want  string
	}{
		{&Error{Code: CodeInvalidReference, Msg: "bad uri"}, Config{}, nil,
			"A mention in the message is malformed; fix or remove it (bad uri)."},
		{&Error{Code: CodeSelfReference, SessionID: id}, Config{}, chip,
			"A session can't reference itself; remove @Fix parser."},
		{&Error{Code: CodeSelfReference, SessionID: id, Label: "Mine"}, Config{}, nil,
			"A session can't reference itself; remove @Mine."},
		{&Error{Code: CodeTooMany}, Config{MaxReferences: 2}, nil,
			"A message can reference at most 2 sessions; remove one."},
		{&Error{Code: CodeTooMany}, Config{}, nil,
			"A message can reference at most 3 sessions; remove one."},
		{&Error{Code: CodeReadFailed, SessionID: id, Cause: cause}, Config{}, nil,
			"Couldn't read session 81a83c14: disk unplugged."},
		{&Error{Code: CodeReadFailed}, Config{}, nil,
			"Couldn't read a session: no reason given."},
		{&Error{Code: CodeBudgetExceeded, SessionID: id}, Config{MaxReferenceBytes: 1536}, chip,
			"@Fix parser is too large to fit the 1.5 KiB snapshot budget even with every message left out; remove it, or raise the budget."},
		{&Error{Code: CodeBudgetExceeded, SessionID: id}, Config{}, nil,
			"session 81a83c14 is too large to fit the 64 KiB snapshot budget even with every message left out; remove it, or raise the budget."},
		{&Error{Code: CodeCancelled, Cause: context.Canceled}, Config{}, nil,
			"Sending cancelled; your draft is kept."},
		{errors.New("store \x1b]52;c;SGVsbG8=\x07 down"), Config{}, nil,
			`Couldn't send: store \x1B]52;c;SGVsbG8=\x07 down.`},
		{nil, Config{}, nil, "Couldn't send: unknown error."},
		{&panicky{}, Config{}, nil, "Couldn't send: *sessionref.panicky."},
		{fmt.Errorf("wrapped: %w", &Error{Code: "SOME_FUTURE_CODE", Msg: "new"}), Config{}, nil,
			"Couldn't send: new."},
		{&Error{Code: CodeReadFailed, SessionID: id, Label: "x\u202ey", Cause: errors.New("a\u2028b")}, Config{}, nil,
			`Couldn't read @x\u202Ey: a\u2028b.`},
	}
	for _, c := range cases {
		got := Describe(c.err, c.cfg, c.label)
		if got != c.want {
			t.Errorf("Describe(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// FuzzDescribe: whatever the error, Describe does not panic and its line
// holds no control, format or separator character.
func FuzzDescribe(f *testing.F) {
	f.Add(uint8(4), "m", "c", "s", "l", true)
	f.Add(uint8(2), "\x1b[2J", "\u202e", "\x9b", "👨‍👩‍👧1️⃣🏴\U000E0067\U000E0062\U000E007F", false)
	codes := []Code{CodeInvalidConfig, CodeInvalidReference, CodeSelfReference, CodeTooMany, CodeReadFailed, CodeBudgetExceeded, CodeCancelled, "X", ""}
	f.Fuzz(func(t *testing.T, code uint8, msg, cause, id, label string, hasCause bool) {
		e := &Error{Code: codes[int(code)%len(codes)], Msg: msg, SessionID: id, Label: label}
		if hasCause {
			e.Cause = errors.New(cause)
		}
		// Error() keeps a store's text as it is; the session it names is
		// made safe.
		for _, s := range []string{Describe(e, Config{}, nil), Describe(e, Config{}, func(string) string { return label }), e.session()} {
			checkSafeLine(t, s)
		}
	})
}

// checkSafeLine fails when s holds a rune a terminal would act on or
// draw invisibly, but the joiners, selectors and tags of emoji.
func checkSafeLine(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		if r == '\u200d' || unicode.Is(unicode.Variation_Selector, r) || r >= 0xE0020 && r <= 0xE007F {
			continue
		}
		if plain.Hidden(r) || r == '\n' {
			t.Fatalf("%q holds %U", s, r)
		}
	}
}

func TestSafeLineKeepsEmoji(t *testing.T) {
	for in, want := range map[string]string{
		"👩‍💻":                   "👩‍💻",
		"1️⃣":                   "1️⃣",
		"❤️":                    "❤️",
		"a\u200db":              `a\u200Db`,
		"\ufe0f":                `\uFE0F`,
		"🏴\U000E0067\U000E007F": "🏴\U000E0067\U000E007F",
		"x\U000E0067":           `x\U000E0067`,
		"ok\xff":                "ok\uFFFD",
		"a\tb":                  "a b",
	} {
		if got := safeLine(in); got != want {
			t.Errorf("safeLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSafeLine(t *testing.T) {
	got := SafeLine("a\x1b]52;c;x\x07b\nc\u202ed")
	if strings.ContainsAny(got, "\x1b\x07\n\u202e") || !strings.Contains(got, `\x1B`) {
		t.Fatalf("SafeLine left something a terminal acts on: %q", got)
	}
}
