package composer

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// fuzzRunes are the pieces typed one key at a time: letters, the
// trigger, spaces, and the parts of clusters that join only when typed
// next to each other.
var fuzzRunes = []string{"a", "b", "@", " ", "界", "\u0301", "\u200d", "👨", "👩", "1", "\ufe0f", "\u20e3", "🇯", "🇵", "\u009b", "\u0085", "é"}

var fuzzKeys = []tea.KeyPressMsg{
	left, right, {Code: tea.KeyUp}, down, backspace, del, tab, enter, esc, shiftEnt, ctrlW, altLeft,
	{Code: tea.KeyHome}, {Code: tea.KeyEnd}, {Code: tea.KeyPgUp}, {Code: tea.KeyPgDown},
	{Code: tea.KeyHome, Mod: tea.ModCtrl}, {Code: tea.KeyEnd, Mod: tea.ModCtrl},
}

// FuzzEditing drives the composer with any sequence of keys, typed
// cluster parts, pastes, clicks and picks (answers delivered late or at
// once) and checks what must always hold: no panic, the cursor inside the
// draft, the draft's clusters exactly those rendering sees, no line of
// View wider than the composer; and a copy taken at a step chosen by the
// width is, at the end, what it was when taken, whatever the original
// went through.
func FuzzEditing(f *testing.F) {
	f.Add([]byte{2, 0, 2, 1, 25, 3, 2, 6, 9, 1, 40, 17}, uint8(20))
	f.Add([]byte("\x02\x09\x0a\x0b\x16\x05\x14\x15\x07\x30\x31\x32"), uint8(7))
	f.Add([]byte{2, 0, 44, 255, 2, 1, 45, 40, 3}, uint8(30)) // huge pastes, then typing
	cands := []sessionref.Candidate{{SessionID: "s-a", Label: "Alpha 1️⃣ 界"}, {SessionID: "s-b", Label: "e\u0301 beta"}}
	src := picker.SourceFunc(func(ctx context.Context, q string) ([]sessionref.Candidate, error) {
		var out []sessionref.Candidate
		for _, c := range cands {
			if strings.Contains(strings.ToLower(c.Label), strings.ToLower(strings.TrimSpace(q))) {
				out = append(out, c)
			}
		}
		return out, nil
	})
	f.Fuzz(func(t *testing.T, ops []byte, width uint8) {
		m := newWith(picker.New(src, picker.WithTick(neverTick)), nil, withWidth(int(width)), withMaxLines(3))
		m.SetOrigin(0, 20)
		var late []tea.Msg
		apply := func(msg tea.Msg) {
			var cmd tea.Cmd
			m, cmd = m.Update(msg)
			late = append(late, run(cmd)...)
		}
		var kept Model
		var keptView, keptCanonical string
		copyAt := int(width) % (len(ops) + 1)
		for i := 0; i < len(ops); i++ {
			if i == copyAt {
				kept, keptView, keptCanonical = m, m.View(), m.Canonical()
			}
			op := int(ops[i])
			switch {
			case op < len(fuzzRunes):
				r := fuzzRunes[op]
				apply(tea.KeyPressMsg{Code: []rune(r)[0], Text: r})
			case op < len(fuzzRunes)+len(fuzzKeys):
				apply(fuzzKeys[op-len(fuzzRunes)])
			case op < 40:
				apply(tea.PasteMsg{Content: "p " + mention(t, "s-a", "Alpha") + "\u0301 q"})
			case op < 44 && i+1 < len(ops):
				i++
				apply(tea.MouseClickMsg{X: int(ops[i]) % 30, Y: 18 + int(ops[i])%5, Button: tea.MouseLeft})
			case op < 48 && i+1 < len(ops):
				// A paste of up to 255 KiB on one line, past the draft's
				// cap: the draft keeps at most MaxDraftBytes of it (a
				// mention counts its label, as shown).
				i++
				r := fuzzRunes[int(ops[i])%len(fuzzRunes)]
				apply(tea.PasteMsg{Content: strings.Repeat(r, int(ops[i])*1024/len(r)+1)})
				if n := len(m.Readable()); n > MaxDraftBytes {
					t.Fatalf("a paste left a draft of %d bytes, over %d", n, MaxDraftBytes)
				}
			case len(late) > 0:
				msg := late[0]
				late = late[1:]
				apply(msg)
			}
			check(t, m)
		}
		for len(late) > 0 {
			msg := late[0]
			late = late[1:]
			apply(msg)
		}
		check(t, m)
		if copyAt < len(ops) && (kept.View() != keptView || kept.Canonical() != keptCanonical) {
			t.Fatalf("a copy changed with the original:\n%s\nwas\n%s", kept.View(), keptView)
		}
	})
}

func check(t *testing.T, m Model) {
	t.Helper()
	if m.cursor < 0 || m.cursor > len(m.atoms) {
		t.Fatalf("cursor %d of %d", m.cursor, len(m.atoms))
	}
	// Each run of text between tokens and newlines is segmented as
	// rendering segments it, and the atoms cover the draft's text.
	if m.off(len(m.atoms)) != len(m.Readable()) {
		t.Fatalf("atoms cover %d bytes of %d", m.off(len(m.atoms)), len(m.Readable()))
	}
	from := 0
	flush := func(to int) {
		text := m.Readable()[m.off(from):m.off(to)]
		again := textAtoms(text)
		if len(again) != to-from {
			t.Fatalf("draft %q holds %d clusters where rendering sees %d", text, to-from, len(again))
		}
		for i := range again {
			if again[i] != m.atoms[from+i] {
				t.Fatalf("cluster %q: %+v, rendering sees %+v", m.text(from+i), m.atoms[from+i], again[i])
			}
		}
	}
	for i, a := range m.atoms {
		if a.isToken() || a.isNewline() {
			flush(i)
			from = i + 1
		}
	}
	flush(len(m.atoms))
	toks := m.Tokens()
	k := 0
	for i, a := range m.atoms {
		if a.isToken() {
			if k >= len(toks) || toks[k].Start != m.off(i) || toks[k].End != m.off(i+1) {
				t.Fatalf("token atom %d at %d does not match the model's tokens %v", i, m.off(i), toks)
			}
			k++
		}
	}
	if k != len(toks) {
		t.Fatalf("%d token atoms, %d tokens", k, len(toks))
	}
	lines := strings.Split(m.View(), "\n")
	if len(lines) != m.Height() {
		t.Fatalf("%d lines, Height %d", len(lines), m.Height())
	}
	for _, l := range lines {
		if textutil.Width(l) > m.Width() {
			t.Fatalf("a %d-cell composer drew %q (%d)", m.Width(), ansi.Strip(l), textutil.Width(l))
		}
	}
}
