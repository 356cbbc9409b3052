package composer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

var allCodes = []sessionref.Code{
	sessionref.CodeInvalidConfig, sessionref.CodeInvalidReference, sessionref.CodeSelfReference,
	sessionref.CodeTooMany, sessionref.CodeReadFailed, sessionref.CodeBudgetExceeded,
	sessionref.CodeCancelled, "SOME_FUTURE_CODE", "",
}

// failWith submits a draft through a preparer that fails with err and
// returns the composer after the failure and what it sent out.
func failWith(t testing.TB, m Model, err error) (Model, SubmitFailedMsg) {
	t.Helper()
	m.prepare = func(context.Context, string) (sessionref.PreparedText, error) {
		return sessionref.PreparedText{}, err
	}
	m, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter did not submit")
	}
	m, cmd = m.Update(cmd())
	if cmd == nil {
		t.Fatal("no failure message")
	}
	f, ok := cmd().(SubmitFailedMsg)
	if !ok {
		t.Fatal("not a SubmitFailedMsg")
	}
	return m, f
}

// TestErrorWithoutCause: a Preparer's *sessionref.Error without a Cause
// (it is optional) or a nil one used to panic inside Update and lose the
// draft.
func TestErrorWithoutCause(t *testing.T) {
	e := newEnv(t)
	tok := mention(t, "s-cafe", "Café menu")
	var nilErr *sessionref.Error
	for _, err := range []error{
		&sessionref.Error{Code: sessionref.CodeReadFailed},
		&sessionref.Error{Code: sessionref.CodeReadFailed, SessionID: "s-cafe"},
		&sessionref.Error{Code: sessionref.CodeInvalidReference},
		fmt.Errorf("wrapped: %w", &sessionref.Error{Code: sessionref.CodeReadFailed}),
		nilErr,
		fmt.Errorf("wrapped nil: %w", nilErr),
	} {
		m := e.composer()
		m.SetValue("read " + tok)
		before := m.Canonical()
		m, f := failWith(t, m, err)
		if m.Canonical() != before || f.Message == "" || errText(m) != f.Message {
			t.Fatalf("%#v: draft %q, message %q", err, m.Canonical(), f.Message)
		}
	}
}

// TestErrorLinesWrapWhole: an error is never cut: at any width its whole
// text is on screen, over as many lines as it needs, and the draft stays
// exactly as it was.
func TestErrorLinesWrapWhole(t *testing.T) {
	e := newEnv(t)
	cause := errors.New("open /home/dev/.dsh/sessions/2026/12/02/a-very-long-directory-name/session.jsonl: permission denied (the log is owned by another user)")
	for _, w := range []int{20, 40, 80, 220} {
		m := e.composer()
		m.SetWidth(w)
		m.SetValue("read " + mention(t, "s-cafe", "Café menu"))
		before := m.Canonical()
		m, _ = failWith(t, m, &sessionref.Error{Code: sessionref.CodeReadFailed, SessionID: "s-cafe", Cause: cause})
		view := ansi.Strip(m.View())
		lines := strings.Split(view, "\n")
		footer := strings.Join(lines[m.visibleLines(len(m.lines())):], " ")
		if squash(footer) != squash("✗ "+errText(m)) || strings.Contains(footer, "…") {
			t.Fatalf("width %d: error not shown whole:\n%s\nwant %q", w, view, errText(m))
		}
		if len(lines) != m.Height() || m.Canonical() != before {
			t.Fatalf("width %d: %d lines, Height %d, draft %q", w, len(lines), m.Height(), m.Canonical())
		}
		for _, l := range lines {
			if textutil.Width(l) > w {
				t.Fatalf("width %d: line %q", w, l)
			}
		}
	}
}

func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// FuzzErrorRendering: whatever error a Preparer returns — every code,
// with and without cause, message and session, hostile text in each —
// Update does not panic, the draft is kept, the error is shown whole, no
// control character reaches the view or the message, and no line is
// wider than the composer.
func FuzzErrorRendering(f *testing.F) {
	f.Add(uint8(4), "", "", "", "", false, uint8(40))
	f.Add(uint8(4), "read failed", "disk \x1b[2J unplugged", "s-cafe", "Caf\u009b2J", true, uint8(20))
	f.Add(uint8(1), "bad \u202e mention", "", "x\u0085y", "", false, uint8(5))
	f.Add(uint8(5), "", "\x1b]52;c;SGVsbG8=\x07", "s-huge", "1️⃣👨‍👩‍👧", true, uint8(30))
	e := newEnv(f)
	f.Fuzz(func(t *testing.T, code uint8, msg, cause, session, label string, hasCause bool, width uint8) {
		err := &sessionref.Error{Code: allCodes[int(code)%len(allCodes)], Msg: msg, SessionID: session}
		if hasCause {
			err.Cause = errors.New(cause)
		}
		m := e.composer()
		m.SetWidth(int(width))
		w := m.Width()
		tok, ferr := sessionref.FormatMention(sessionref.Reference{SessionID: "s-cafe", Label: &label})
		if ferr != nil {
			tok = mention(t, "s-cafe", "Café menu")
		}
		m.SetValue("see " + tok + " now")
		before := m.Canonical()
		m, failed := failWith(t, m, err)
		if m.Canonical() != before {
			t.Fatalf("draft changed: %q", m.Canonical())
		}
		for _, r := range failed.Message {
			if unicode.IsControl(r) {
				t.Fatalf("control %U in the message %q", r, failed.Message)
			}
		}
		view := m.View()
		for _, l := range strings.Split(view, "\n") {
			if textutil.Width(l) > w {
				t.Fatalf("a %d-cell composer drew %q", w, l)
			}
		}
		for _, r := range stripStyles(view) {
			if r != '\n' && unicode.IsControl(r) {
				t.Fatalf("control %U reached the view %q", r, view)
			}
		}
		lines := strings.Split(ansi.Strip(view), "\n")
		footer := strings.Join(lines[m.visibleLines(len(m.lines())):], " ")
		if squash(footer) != squash("✗ "+failed.Message) {
			t.Fatalf("error not shown whole:\n%s\nwant %q", footer, failed.Message)
		}
	})
}

// TestNewConcurrently: composers built at once get distinct ids (the
// counter was a plain increment, a data race under -race).
func TestNewConcurrently(t *testing.T) {
	const n = 64
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i] = New(picker.New(picker.SourceFunc(nil)), nil).id
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("id %d given twice", id)
		}
		seen[id] = true
	}
}

// TestEnterOnSpacesSaysWhy: Enter on a draft of spaces and line breaks
// sends nothing and says why; the next key takes the line away; Enter
// on an empty draft stays silent.
func TestEnterOnSpacesSaysWhy(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	m, out := press(m, enter)
	if len(out) != 0 || errText(m) != "" {
		t.Fatalf("empty draft: out %v, error %q", out, errText(m))
	}
	m.SetValue("   \n  ")
	m, out = press(m, enter)
	if len(out) != 0 || m.Preparing() || !strings.Contains(errText(m), "Nothing to send") || !strings.Contains(ansi.Strip(m.View()), "✗ Nothing to send") {
		t.Fatalf("spaces: out %v, error %q\n%s", out, errText(m), ansi.Strip(m.View()))
	}
	m, _ = press(m, tea.KeyPressMsg{Code: 'x', Text: "x"})
	if errText(m) != "" {
		t.Fatalf("typing kept the error %q", errText(m))
	}
}
