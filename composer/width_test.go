package composer

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
)

// hardText is text whose widths grapheme segmenters and width tables
// disagree about.
var hardText = map[string]string{
	"keycaps":   "1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣9️⃣0️⃣#️⃣*️⃣",
	"zwj":       "👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 🧑‍🤝‍🧑 family",
	"flags":     "🇯🇵🇺🇸🇫🇷🇩🇪 🇬 odd regional indicator",
	"cjk":       "会话会话会话 のリファクタリング 한국어 텍스트",
	"combining": "e\u0301e\u0301 a\u0308\u0304 Z\u0351\u0352\u0353\u0354 ก\u0e33",
	"mixed":     "🎉x界\u0301 1️⃣ 🇯🇵 e\u0301👨‍👩‍👧",
}

// TestViewNeverWiderThanComposer: every line View draws fits the
// composer, measured as lipgloss measures, for text of every width class,
// typed, pasted or set, with a token, at every width down to the
// minimum. (A 20-cell composer drew a 31-cell line for keycaps.)
func TestViewNeverWiderThanComposer(t *testing.T) {
	e := newEnv(t)
	tok := mention(t, "s-emoji", "Emoji 🎉 picker 1️⃣ 👨‍👩‍👧 e\u0301 会话 and a label long enough to be cut")
	for name, text := range hardText {
		for _, how := range []string{"set", "paste", "type"} {
			for w := minWidth; w <= 42; w++ {
				m := e.composer()
				m.SetWidth(w)
				switch how {
				case "set":
					m.SetValue(text + " " + tok + " " + text)
				case "paste":
					m, _ = m.Update(tea.PasteMsg{Content: text + " " + tok})
				case "type":
					for _, r := range text {
						m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
					}
				}
				checkWidth(t, name+"/"+how, m, w)
				// The cursor at every position: the reversed cell and the
				// cell after the line never push a line wider.
				for i := 0; i <= len(m.atoms); i += 3 {
					m.moveCursor(i)
					m.scrollToCursor()
					checkWidth(t, name+"/"+how+"/cursor", m, w)
				}
			}
		}
	}
}

func checkWidth(t *testing.T, name string, m Model, w int) {
	t.Helper()
	lines := strings.Split(m.View(), "\n")
	if len(lines) != m.Height() {
		t.Fatalf("%s at %d: %d lines, Height %d", name, w, len(lines), m.Height())
	}
	for _, l := range lines {
		if lw := textutil.Width(l); lw > w {
			t.Fatalf("%s: a %d-cell composer drew a %d-cell line %q", name, w, lw, l)
		}
	}
	// The real cursor sits where the virtual one is drawn.
	m.SetVirtualCursor(false)
	if c := m.Cursor(); c == nil || c.X >= w || c.Y < 0 || c.Y >= m.visibleLines(len(m.lines())) {
		t.Fatalf("%s at %d: cursor %+v", name, w, c)
	}
}

// TestC1ControlsShownEscaped: C1 controls (CSI, OSC, ST, NEL) reach the
// draft through SetValue, paste and typing and stay in it, but the view
// shows them escaped, so none reaches the terminal.
func TestC1ControlsShownEscaped(t *testing.T) {
	e := newEnv(t)
	hostile := "a\u009b2Jb\u009d0;title\u009cc\u0085d\x1b[31me\u202eright"
	tok := mention(t, "s-cafe", "x\u009b2J\u0085y")
	for _, how := range []string{"set", "paste", "type"} {
		m := e.composer()
		switch how {
		case "set":
			m.SetValue(hostile + " " + tok)
		case "paste":
			m, _ = m.Update(tea.PasteMsg{Content: hostile + " " + tok})
		case "type": // ESC cannot be typed as text; the rest can
			for _, r := range strings.ReplaceAll(hostile, "\x1b", "") + " " + tok {
				m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
		}
		if want := hostile[:strings.IndexByte(hostile, 0x1b)]; !strings.HasPrefix(m.Canonical(), want) {
			t.Fatalf("%s: the draft lost text: %q", how, m.Canonical())
		}
		for _, r := range stripStyles(m.View()) {
			if r != '\n' && unicode.IsControl(r) {
				t.Fatalf("%s: control %U reached the view: %q", how, r, m.View())
			}
		}
		if v := stripStyles(m.View()); !strings.Contains(v, `\x9B2J`) || !strings.Contains(v, `\x85`) {
			t.Fatalf("%s: not shown escaped: %q", how, v)
		}
	}
}

// stripStyles removes the SGR sequences the styles add (7-bit ESC [ … m),
// leaving every other byte as it is, so a raw C1 control would survive.
func stripStyles(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestTypedGraphemesJoin: a keycap, a ZWJ sequence or a combining mark
// typed a rune at a time becomes the one cluster rendering sees, so the
// cursor steps over it whole and its width is the drawn width; a
// deletion that brings a mark next to a letter joins them too.
func TestTypedGraphemesJoin(t *testing.T) {
	e := newEnv(t)
	for _, s := range []string{"1️⃣", "👨‍👩‍👧", "e\u0301", "🇯🇵", "🏳️‍🌈"} {
		m := e.composer()
		m = typeText(m, "a"+s+"b")
		if len(m.atoms) != 3 || m.text(1) != s || m.cursor != 3 {
			t.Fatalf("%q typed: %d atoms %q, cursor %d", s, len(m.atoms), m.Readable(), m.cursor)
		}
		// Drawn through the sanitiser, which drops an emoji selector
		// after a narrow character (the keycap is one cell).
		if int(m.atoms[1].w) != textutil.Width(textutil.Inline(s)) {
			t.Fatalf("%q: width %d, drawn %d", s, m.atoms[1].w, textutil.Width(textutil.Inline(s)))
		}
	}
	// Deleting a token between a letter and a mark joins them.
	m := e.composer()
	m.SetValue("e" + mention(t, "s-cafe", "C") + "\u0301")
	m, _ = press(m, left)
	m, _ = press(m, backspace)
	if len(m.atoms) != 1 || m.text(0) != "e\u0301" || m.cursor != 1 {
		t.Fatalf("after deleting the token: %q atoms %d cursor %d", m.Readable(), len(m.atoms), m.cursor)
	}
	m.SetValue("")
	m = typeText(m, "ex")
	m, _ = press(m, left)
	m = typeText(m, "\u0301") // between e and x: joins e
	if len(m.atoms) != 2 || m.text(0) != "e\u0301" || m.cursor != 1 {
		t.Fatalf("mark inserted after e: %q atoms %d cursor %d", m.Readable(), len(m.atoms), m.cursor)
	}
}

// TestLoneMarksStandAlone: a cluster that would join whatever is drawn
// before it (the prompt's space, a chip) is shown on a dotted circle, so
// the line measures what its atoms add up to. (A lone U+FE0F at the
// start of a line made "› " two cells wider than counted.)
func TestLoneMarksStandAlone(t *testing.T) {
	e := newEnv(t)
	for _, lead := range []string{"\ufe0f", "\u0301", "\u200d", "\u20e3"} {
		m := e.composer()
		m.SetWidth(5)
		m.SetValue(lead + "👨" + mention(t, "s-cafe", "C") + lead)
		// Shown on a dotted circle, or escaped by the sanitiser (which
		// keeps joiners and selectors only inside emoji).
		shown := strings.Contains(m.View(), dottedCircle+lead) || !strings.Contains(m.View(), lead)
		if !shown || !strings.HasPrefix(m.Canonical(), lead+"👨") {
			t.Fatalf("%q: %q", lead, ansi.Strip(m.View()))
		}
		checkWidth(t, fmt.Sprintf("%q", lead), m, 5)
	}
}
