package picker

import (
	"context"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// FuzzItemsFit: whatever a host's item label, detail, section title and
// error, every line of the popup is exactly its width, no control byte
// reaches the view and no character carries more than maxMarks
// combining marks from the host's text.
func FuzzItemsFit(f *testing.F) {
	f.Add("parser.go", "src/parser.go", "files", "", "par", 40)
	f.Add("\x1b]0;pwned\x07 e"+strings.Repeat("\u0301", 40), "\u202eexe.txt\x00", "\x1b[31mred", "disk\ngone", "e", 13)
	f.Fuzz(func(t *testing.T, label, detail, title, errText, query string, w int) {
		w = 1 + (w%240+240)%240
		items := []Item{{Label: label, Detail: detail}, {Label: detail, Detail: label}}
		src := func(context.Context, string) ([]Item, error) { return nil, nil }
		m := newTestPicker(&fakeSource{items: corpus[:1]},
			WithSection(Section{ID: "a", Title: title, Source: src, OnEmpty: true}),
			WithSection(Section{ID: "b", Title: title, Source: src, OnEmpty: true}))
		m.SetScreenSize(w, 12)
		m.SetAnchor(0, 11)
		_ = m.Open(query)
		m, _ = m.Update(fetchedMsg(m, query, corpus[:1], nil))
		m, _ = m.Update(itemsMsg(m, "a", query, items, nil))
		var err error
		if errText != "" {
			err = errString(errText)
		}
		m, _ = m.Update(itemsMsg(m, "b", query, items, err))
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		marks := 0
		checkPopupFits(t, m, func(c rune) {
			if unicode.In(c, unicode.Mn, unicode.Me) {
				marks++
			} else {
				marks = 0
			}
			// Corpus titles carry at most one mark a character.
			if marks > maxMarks {
				t.Fatalf("%d combining marks on one character: %q", marks, m.View())
			}
		})
	})
}

type errString string

func (e errString) Error() string { return string(e) }
