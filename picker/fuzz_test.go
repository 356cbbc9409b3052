package picker

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// FuzzMatchRange: the highlight is found exactly when the core's rule
// (the lowered query inside the lowered label) matches, and it is a
// range of whole runes of the label.
func FuzzMatchRange(f *testing.F) {
	for _, s := range [][2]string{{"İstanbul", "i\u0307"}, {"ΟΔΟΣ map", "ς m"}, {"Straße", "SS"}, {"a\xffb", "\xff"}, {"ǅ", "ǆ"}, {"K", "k"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, label, query string) {
		a, z, ok := matchRange(label, query)
		want := query != "" && lowerJS(query) != "" && strings.Contains(lowerJS(label), lowerJS(query))
		if ok && (a < 0 || z > len(label) || a >= z) {
			t.Fatalf("matchRange(%q, %q) = %d..%d is out of range", label, query, a, z)
		}
		if ok != want {
			if want && utf8.ValidString(label) {
				t.Fatalf("matchRange(%q, %q) found nothing; the core matches", label, query)
			}
			if ok && !want {
				t.Fatalf("matchRange(%q, %q) = %d..%d; the core does not match", label, query, a, z)
			}
		}
		if ok && utf8.ValidString(label) && (a < 0 || z > len(label) || a >= z || !utf8.RuneStart(label[a]) || z < len(label) && !utf8.RuneStart(label[z])) {
			t.Fatalf("matchRange(%q, %q) = %d..%d is not a range of whole runes", label, query, a, z)
		}
	})
}

// FuzzRowsFit: whatever the title, id, folder, query and width, every
// line of the popup is exactly its width and no control byte of the
// session's text reaches the view.
func FuzzRowsFit(f *testing.F) {
	f.Add("family 👨‍👩‍👧‍👦 1️⃣ 🇯🇵", "keycap-1", "/home/dev/日本", "1️⃣", 40, true)
	f.Add("\x1b]52;c;SGVsbG8=\x07 e\u0301\u202e", "\x1b[2J", "\u009b", "e", 13, false)
	f.Fuzz(func(t *testing.T, label, id, cwd, query string, w int, off bool) {
		w = 1 + (w%240+240)%240
		items := []sessionref.Candidate{
			{SessionID: id, Label: label, Cwd: &cwd, CreatedAt: testNow.Add(-time.Hour).UnixMilli()},
			{SessionID: id + "2", Label: label, Rank: sessionref.RankNoCwd},
		}
		disable := func(c sessionref.Candidate) (string, bool) { return label, off && c.SessionID == id }
		m := newTestPicker(&fakeSource{items: items}, withDisable(disable))
		m.SetScreenSize(w, 12)
		m.SetAnchor(0, 11)
		_ = m.Open(query)
		m, _ = m.Update(fetchedMsg(m, query, items, nil))
		checkPopupFits(t, m, func(rune) {})
	})
}

// FuzzHitsFit: whatever a hit's snippet and match ranges, every line of
// the two-section popup is exactly its width and no control byte of the
// snippet reaches the view.
func FuzzHitsFit(f *testing.F) {
	f.Add("we fixed the retry bug", 13, 18, 40)
	f.Add("\x1b]0;pwned\x07 重试 🎉\u202e e\u0301", 2, 9, 13)
	f.Add("x", -5, 100, 1)
	f.Fuzz(func(t *testing.T, snippet string, a, z, w int) {
		w = 1 + (w%240+240)%240
		hit := Hit{Candidate: sessionref.Candidate{SessionID: "h", Label: snippet}, Snippet: snippet, Match: [][2]int{{a, z}, {z, z + 3}}}
		m := newTestPicker(&fakeSource{items: corpus[:1]}, WithHitSource(func(context.Context, string) ([]Hit, error) { return nil, nil }))
		m.SetScreenSize(w, 12)
		m.SetAnchor(0, 11)
		_ = m.Open("q")
		m, _ = m.Update(fetchedMsg(m, "q", corpus[:1], nil))
		m, _ = m.Update(hitsMsg(m, "q", []Hit{hit, hit}, nil))
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		checkPopupFits(t, m, func(rune) {})
	})
}

// checkPopupFits fails unless the open popup's view is exactly its rect,
// line by line in cells, with no control character; each character is
// also passed to each (for further checks).
func checkPopupFits(t *testing.T, m Model, each func(c rune)) {
	t.Helper()
	v := m.View()
	if v == "" {
		return
	}
	r := m.Rect()
	lines := strings.Split(v, "\n")
	if len(lines) != r.H {
		t.Fatalf("%d lines for rect %+v", len(lines), r)
	}
	for _, l := range lines {
		if textutil.Width(l) != r.W {
			t.Fatalf("a line of %d cells in a popup of %d:\n%s", textutil.Width(l), r.W, ansi.Strip(v))
		}
		for _, c := range ansi.Strip(l) {
			if c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 {
				t.Fatalf("control %U in the view: %q", c, l)
			}
			each(c)
		}
	}
}
