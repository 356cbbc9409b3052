package picker

import (
	"errors"
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// openWith opens a picker on query and applies the source's answer.
func openWith(t *testing.T, m Model, query string) Model {
	t.Helper()
	_ = m.Open(query)
	m, _ = answer(m, m.source)
	if !m.SectionFresh(SessionsID) {
		t.Fatal("the answer was not applied")
	}
	return m
}

// checkBox asserts that the view fills Rect exactly: as many lines as
// Rect.H, each exactly Rect.W cells.
func checkBox(t *testing.T, m Model) []string {
	t.Helper()
	r := m.Rect()
	lines := strings.Split(m.View(), "\n")
	if len(lines) != r.H {
		t.Fatalf("view has %d lines, rect %+v:\n%s", len(lines), r, ansi.Strip(m.View()))
	}
	for i, l := range lines {
		if w := textutil.Width(l); w != r.W {
			t.Fatalf("line %d is %d cells wide, rect %+v:\n%s", i, w, r, ansi.Strip(m.View()))
		}
	}
	return lines
}

// Frames with padding, margins or no border at all: rows stay inside Rect
// and a click on the line where a row is drawn picks that row.
func TestFrameIsMeasured(t *testing.T) {
	frames := map[string]lipgloss.Style{
		"border":           lipgloss.NewStyle().Border(lipgloss.RoundedBorder()),
		"no border":        lipgloss.NewStyle(),
		"padding":          lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Padding(1, 2),
		"padding only":     lipgloss.NewStyle().Padding(0, 1),
		"thick left":       lipgloss.NewStyle().Border(lipgloss.ThickBorder(), false, false, false, true).PaddingLeft(1),
		"margin and frame": lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Margin(0, 1).Padding(0, 1),
	}
	for name, frame := range frames {
		t.Run(name, func(t *testing.T) {
			st := PlainStyles()
			st.Frame = frame
			m := newTestPicker(&fakeSource{}, withStyles(st), withMaxRows(4), withWidth(70))
			m = openWith(t, m, "")
			lines := checkBox(t, m)
			r := m.Rect()
			for want := 0; want < 4; want++ {
				label := corpus[want].Label[:6]
				y := -1
				for i, l := range lines {
					if strings.Contains(ansi.Strip(l), label) {
						y = r.Y + i
					}
				}
				if y < 0 {
					t.Fatalf("row %d (%q) not drawn:\n%s", want, label, ansi.Strip(m.View()))
				}
				x := r.X + r.W/2
				if row, ok := m.RowAt(x, y); !ok || row != want {
					t.Fatalf("RowAt on the line of row %d = %d, %v", want, row, ok)
				}
				_, cmd := m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
				if p := picked(t, run(cmd)); p.Candidate.SessionID != corpus[want].SessionID {
					t.Fatalf("click on row %d picked %s", want, p.Candidate.SessionID)
				}
			}
			// The frame's own cells pick nothing.
			if frame.GetBorderTopSize()+frame.GetPaddingTop()+frame.GetMarginTop() > 0 {
				if _, ok := m.RowAt(r.X+r.W/2, r.Y); ok {
					t.Fatal("the top of the frame maps to a row")
				}
			}
		})
	}
}

// cellsOf draws a rendered line on a canvas and returns its cells.
func cellsOf(line string) []struct {
	bg   color.Color
	attr uint8
	text string
} {
	w := textutil.Width(line)
	c := lipgloss.NewCanvas(w, 1)
	c.Compose(lipgloss.NewLayer(line))
	out := make([]struct {
		bg   color.Color
		attr uint8
		text string
	}, 0, w)
	for x := 0; x < w; x++ {
		cell := c.CellAt(x, 0)
		if cell == nil || cell.Width == 0 && cell.Content == "" {
			continue // the tail of a wide cell
		}
		out = append(out, struct {
			bg   color.Color
			attr uint8
			text string
		}{cell.Style.Bg, cell.Style.Attrs, cell.Content})
	}
	return out
}

// The highlighted row's background and weight cover every cell of it, the
// marker, the label, the match, the gaps, the metadata and the padding.
func TestHighlightCoversTheWholeRow(t *testing.T) {
	for _, st := range []Styles{DefaultStyles(true), DefaultStyles(false), PlainStyles()} {
		st.Frame = lipgloss.NewStyle()
		m := newTestPicker(&fakeSource{}, withStyles(st), withWidth(100))
		m = openWith(t, m, "pars")
		lines := checkBox(t, m)
		ref := cellsOf(st.Highlighted.Render("x"))[0]
		if ref.bg == nil && ref.attr == 0 {
			t.Fatal("the highlighted style draws nothing")
		}
		cells := cellsOf(lines[0])
		if r := m.Rect(); len(cells) < r.W-1 {
			t.Fatalf("only %d cells of %d", len(cells), r.W)
		}
		for i, c := range cells {
			if fmt.Sprint(c.bg) != fmt.Sprint(ref.bg) || c.attr&ref.attr != ref.attr {
				t.Fatalf("cell %d (%q) has bg %v attrs %b, want bg %v attrs ⊇ %b\n%q", i, c.text, c.bg, c.attr, ref.bg, ref.attr, lines[0])
			}
		}
		// The other rows are not highlighted.
		if c := cellsOf(lines[1])[5]; fmt.Sprint(c.bg) == fmt.Sprint(ref.bg) && ref.bg != nil {
			t.Fatal("a second row has the highlight background")
		}
	}
}

// The popup's width follows its bounds, at any screen width, up to
// DefaultMaxWidth (wider, its columns would only spread apart).
func TestWidthFollowsBounds(t *testing.T) {
	for _, w := range []int{20, 40, 96, 97, 120, 150, 240} {
		m := newTestPicker(&fakeSource{})
		m.SetScreenSize(w, 30)
		m.SetAnchor(0, 28)
		m = openWith(t, m, "")
		if r := m.Rect(); r.W != min(w, DefaultMaxWidth) {
			t.Errorf("screen %d: popup %d wide", w, r.W)
		}
		checkBox(t, m)
	}
	// A pane narrower than the screen bounds it, wherever the anchor is.
	m := newTestPicker(&fakeSource{})
	m.SetScreenSize(200, 40)
	m.SetBounds(Rect{X: 30, Y: 5, W: 120, H: 30})
	m.SetAnchor(25, 33)
	m = openWith(t, m, "")
	if r := m.Rect(); r.X != 30 || r.W != 120 || r.Y < 5 || r.Y+r.H > 33 {
		t.Fatalf("rect %+v outside the pane or over the anchor", r)
	}
	m.SetBounds(Rect{X: 30, Y: 5, W: 100, H: 30})
	if r := m.Rect(); r.X != 30 || r.W != 100 {
		t.Fatalf("rect %+v: not the pane's width", r)
	}
	m.SetBounds(Rect{})
	if r := m.Rect(); r.W != DefaultMaxWidth || r.Y+r.H > 33 {
		t.Fatalf("zero bounds should go back to the screen: %+v", r)
	}
	// WithWidth may ask for more.
	m = newTestPicker(&fakeSource{}, withWidth(180))
	m.SetScreenSize(200, 40)
	m.SetAnchor(0, 38)
	if m = openWith(t, m, ""); m.Rect().W != 180 {
		t.Fatalf("withWidth(180): %+v", m.Rect())
	}
}

// Layer places the popup at Rect; nil when hidden.
func TestLayer(t *testing.T) {
	m := newTestPicker(&fakeSource{})
	if m.Layer() != nil {
		t.Fatal("a closed picker has a layer")
	}
	m = openWith(t, m, "pars")
	l, r := m.Layer(), m.Rect()
	if l == nil || l.GetX() != r.X || l.GetY() != r.Y || l.Width() != r.W || l.Height() != r.H || l.GetContent() != m.View() {
		t.Fatalf("layer at %d,%d %dx%d, rect %+v", l.GetX(), l.GetY(), l.Width(), l.Height(), r)
	}
	// Its Z is the documented one: above a host's base at Z 0, under a
	// host's dialog at Z 2, whatever order the layers are given in.
	if l.GetZ() != LayerZ || LayerZ != 1 {
		t.Fatalf("layer Z %d, LayerZ %d", l.GetZ(), LayerZ)
	}
	base := lipgloss.NewLayer(strings.Repeat(strings.Repeat(".", 80)+"\n", 24))
	dialog := lipgloss.NewLayer("DIALOG").X(r.X + 1).Y(r.Y + 1).Z(2)
	for _, layers := range [][]*lipgloss.Layer{{base, l, dialog}, {dialog, l, base}} {
		out := strings.Split(ansi.Strip(lipgloss.NewCompositor(layers...).Render()), "\n")
		if !strings.Contains(out[r.Y+1], "DIALOG") || !strings.Contains(out[r.Y], "╭") {
			t.Fatalf("the popup is not between the base and the dialog:\n%s", strings.Join(out, "\n"))
		}
	}
}

// Hostile widths: every row of every kind at every width is exactly the
// popup's width, measured the way lipgloss measures.
func TestRowWidthsWithHardText(t *testing.T) {
	hard := []sessionref.Candidate{
		cand("zwj-0000-4000-8000-000000000001", "family 👨‍👩‍👧‍👦 and 🏳️‍🌈 flags", ptr("/home/dev/👩‍💻/src"), time.Hour, sessionref.RankSameCwd),
		cand("keycap-1", "keycaps 1️⃣2️⃣3️⃣#️⃣ *️⃣ count", ptr("/home/dev/1️⃣"), 2*time.Hour, sessionref.RankNoCwd),
		cand("flags-🇯🇵🇫🇷🇺🇸", "🇯🇵🇫🇷🇺🇸🇩🇪 regional flags", nil, 3*time.Hour, sessionref.RankOtherCwd),
		cand("3f2a9c1e-0000-4000-8000-00000000000c", "全角の日本語タイトルと中文标题 한국어 제목", ptr("/srv/日本語/项目"), 4*time.Hour, sessionref.RankOtherCwd),
		cand("combining", "e\u0301\u0301\u0301 Zalgo z\u0335\u0321\u0322a\u0336l\u0334g\u0337o", ptr("/tmp/a\u0301"), 5*time.Hour, sessionref.RankOtherCwd),
		{SessionID: "", Label: "", Rank: sessionref.RankOtherCwd},
		cand("ctrl\x1b[2J", "\x1b]8;;http://x\x07link\x1b]8;;\x07 \u009b2J", ptr("\x00"), time.Minute, sessionref.RankOtherCwd),
	}
	disable := func(c sessionref.Candidate) (string, bool) {
		return "limit 3/3 reached 🚫 上限", c.Rank == sessionref.RankNoCwd || c.Label == ""
	}
	queries := []string{"", "1️⃣", "日本", "e\u0301", "👩"}
	for w := 12; w <= 130; w++ {
		// Every width, each query at a fifth of them.
		for _, q := range []string{"", queries[1+w%4]} {
			m := newTestPicker(&fakeSource{items: hard}, withDisable(disable), withMaxRows(len(hard)))
			m.SetScreenSize(w, 30)
			m.SetAnchor(0, 29)
			cmd := m.Open("")
			m, _ = settle(m, cmd)
			_ = m.SetQuery(q) // a stale list while q is fetched
			checkBox(t, m)
			m, _ = settle(m, func() tea.Msg { return fetchedMsg(m, q, hard, nil) })
			lines := checkBox(t, m)
			for _, l := range lines {
				if strings.Contains(l, "\x1b]8") || strings.Contains(l, "\x1b[2J") || strings.ContainsAny(l, "\x07\u009b\x00") {
					t.Fatalf("width %d: a control byte reached the view: %q", w, l)
				}
			}
		}
	}
}

// Goldens of the popup's states at the widths a 40, 80 and 120 column
// screen gives it.
func TestGoldenStates(t *testing.T) {
	all := func(sessionref.Candidate) (string, bool) { return "limit 3/3 reached", true }
	states := map[string]func(m Model) Model{
		"no_match": func(m Model) Model { return openWith(t, m, "zzzq") },
		"no_match_enter": func(m Model) Model {
			m, _ = openWith(t, m, "zzzq").Update(press("enter"))
			return m
		},
		"all_disabled": func(m Model) Model {
			m.SetDisable(all)
			return openWith(t, m, "")
		},
		"searching": func(m Model) Model {
			m, _ = queried(openWith(t, m, ""), "pars")
			m, _ = m.Update(slowMsg{m.id, m.seq})
			return m
		},
		"picking_first_match": func(m Model) Model {
			m, _ = queried(openWith(t, m, ""), "pars")
			m, _ = m.Update(press("tab"))
			return m
		},
		"error": func(m Model) Model {
			_ = m.Open("x")
			m, _ = m.Update(fetchedMsg(m, "x", nil, errors.New("read /home/dev/.dsh/sessions: permission denied")))
			return m
		},
	}
	for name, state := range states {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s_w%d", name, w), func(t *testing.T) {
				m := newTestPicker(&fakeSource{}, withMaxRows(4))
				m.SetScreenSize(w, 24)
				m = state(m)
				checkBox(t, m)
				golden.RequireEqual(t, []byte(ansi.Strip(m.View())))
			})
		}
	}
}

// At 40 columns the picker's own messages wrap inside the popup, which
// grows by the lines they need (at most three, and never past its
// bounds), instead of being cut.
func TestStatusWrapsAt40(t *testing.T) {
	limit := withDisable(func(sessionref.Candidate) (string, bool) { return "limit 3/3 reached", true })
	for _, c := range []struct {
		name string
		m    Model
		want string
	}{
		{"no match", newTestPicker(&fakeSource{}), "no sessions match “zzzq”"},
		{"all disabled", newTestPicker(&fakeSource{}, limit), "nothing to mention: limit 3/3 reached"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := c.m
			m.SetScreenSize(40, 24)
			q := "zzzq"
			if c.name == "all disabled" {
				q = ""
			}
			m = openWith(t, m, q)
			for _, nudge := range []bool{false, true} {
				if nudge {
					m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
				}
				lines := checkBox(t, m)
				var text []string
				for _, l := range lines[1 : len(lines)-1] {
					l = strings.TrimSpace(strings.Trim(ansi.Strip(l), "│"))
					if strings.ContainsAny(l, "⊘") {
						continue // a row, not the message
					}
					text = append(text, l)
				}
				got := strings.Join(text, " ")
				if !strings.Contains(got, c.want) || strings.Contains(got, "…") {
					t.Errorf("nudged %v: the message is cut: %q\n%s", nudge, got, ansi.Strip(m.View()))
				}
				if len(text) > maxTextLines {
					t.Errorf("nudged %v: the message takes %d lines", nudge, len(text))
				}
			}
			// Bounded to three lines in all, the popup keeps to them.
			m.SetBounds(Rect{W: 40, H: 3})
			m.SetAnchor(0, 2)
			if r := m.Rect(); r.H > 3 {
				t.Errorf("the popup is %d lines in bounds of 3", r.H)
			}
			checkBox(t, m)
		})
	}
}

// Every runtime knob reads back what its setter set.
func TestSettersHaveGetters(t *testing.T) {
	m := New(&fakeSource{})
	m.SetScreenSize(91, 33)
	m.SetBounds(Rect{X: 1, Y: 2, W: 50, H: 20})
	m.SetAnchorSpan(4, 10, 12)
	m.SetWidth(44)
	m.SetMaxRows(0)
	m.SetStyles(PlainStyles())
	k := DefaultKeyMap()
	k.Dismiss.SetKeys("ctrl+g")
	m.SetKeyMap(k)
	m.SetDisable(func(sessionref.Candidate) (string, bool) { return "no", true })
	w, h := m.ScreenSize()
	x, top, bottom := m.AnchorSpan()
	if w != 91 || h != 33 || m.Bounds() != (Rect{X: 1, Y: 2, W: 50, H: 20}) || x != 4 || top != 10 || bottom != 12 ||
		m.Width() != 44 || m.MaxRows() != 1 || m.Disable() == nil || m.KeyMap().Dismiss.Keys()[0] != "ctrl+g" {
		t.Fatalf("getters: %d×%d %+v %d %d %d width %d rows %d", w, h, m.Bounds(), x, top, bottom, m.Width(), m.MaxRows())
	}
	if _, ok := m.Target(); ok {
		t.Fatal("a target before SetTarget")
	}
	if cmd := m.SetTarget(sessionref.Target{ID: "a"}); cmd != nil {
		t.Fatal("a closed picker fetched")
	}
	if got, ok := m.Target(); !ok || got.ID != "a" {
		t.Fatalf("target %+v %v", got, ok)
	}
}
