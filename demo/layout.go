package demo

import (
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
)

// headerH is the title bar's height.
const headerH = 1

// layoutKey is what the layout depends on.
type layoutKey struct {
	w, h, composerH int
	status          string
	screen          screen
}

// height is the number of lines the demo draws: the window, or in inline
// mode at most InlineHeight, so the shell above stays in view.
func (m Model) height() int {
	if m.opts.Inline {
		return min(m.h, m.opts.InlineHeight)
	}
	return m.h
}

// layout sizes the transcript to what the status line, the composer and
// the hint line leave. It runs after every message (a mouse motion
// included), so it does nothing unless something it depends on changed.
func (m *Model) layout() {
	status := m.statusView()
	k := layoutKey{m.w, m.h, m.comp.Height(), status, m.screen}
	if k == m.laidOut {
		return
	}
	m.laidOut = k
	h := m.height()
	m.comp.SetWidth(m.w)
	statusH := 0
	if status != "" {
		statusH = lipgloss.Height(status)
	}
	vpH := max(h-headerH-statusH-m.comp.Height()-1, 1)
	m.areaH = vpH
	m.vp.SetWidth(m.w)
	m.fitTranscript()
	m.comp.SetOrigin(0, headerH+vpH+statusH)
	// The popup stays over the transcript: never over the title bar, the
	// draft or the hint line.
	m.comp.Picker().SetBounds(picker.Rect{X: 0, Y: headerH, W: m.w, H: vpH + statusH})
	// The inspector and keys screens: their title above (wrapped, never
	// cut), a hint line below.
	m.inspVP.SetWidth(m.w)
	m.inspVP.SetHeight(max(h-lipgloss.Height(m.overlayTitle(inspectorTitle))-1, 1))
	m.helpVP.SetWidth(m.w)
	m.helpVP.SetHeight(max(h-lipgloss.Height(m.overlayTitle(helpTitle))-1, 1))
}

// composerTop is the screen row of the composer's first line.
func (m Model) composerTop() int {
	top := headerH + m.areaH
	if s := m.statusView(); s != "" {
		top += lipgloss.Height(s)
	}
	return top
}

// renderOverlays re-renders the screen that is open (after a resize or
// a restyle).
func (m *Model) renderOverlays() {
	switch m.screen {
	case inspectScreen:
		m.renderInspector()
	case helpScreen:
		m.renderHelp()
	}
}

// statusView is the line above the composer: a quit that waits for a
// second ctrl+c, the background build's progress, or Options.Notice
// until the first key or click (F1 keeps it). It wraps, over the rows the
// composer and the hints leave: a longer one is cut, saying F1 shows it
// all.
func (m Model) statusView() string {
	var s string
	switch {
	case m.asking():
		s = m.quitQuestion()
	case m.build.running:
		s = m.build.progress()
	case m.build.err != nil:
		s = "✗ building the corpus failed: " + textutil.Inline(m.build.err.Error())
	case m.indexStatus() != "":
		s = m.indexStatus() // the index's progress passes; the notice stays
	case m.opts.Notice != "" && !m.noticeGone:
		s = textutil.Inline(m.opts.Notice) + " · " + m.keys.Help.Help().Key + " shows this again"
	default:
		return ""
	}
	lines := textutil.WrapProse(s, m.w)
	// Below it stay the composer's line, its status line and the hints,
	// above it a line of the transcript.
	if limit := max(1, m.h-headerH-4); len(lines) > limit {
		// A long notice on a short screen: the composer and the hints
		// stay in view; F1 shows the notice whole.
		lines = lines[:limit]
		more := "… " + m.keys.Help.Help().Key + " shows all"
		lines[limit-1] = textutil.Truncate(lines[limit-1], max(m.w-textutil.Width(more), 0), "") + more
	}
	return m.st.status.Width(max(m.w, 1)).Render(strings.Join(lines, "\n"))
}

// View draws the screen, with the picker popup on top.
func (m Model) View() tea.View {
	var content string
	switch m.screen {
	case inspectScreen:
		content = m.overlayView(inspectorTitle, m.inspVP)
	case helpScreen:
		content = m.overlayView(helpTitle, m.helpVP)
	default:
		parts := []string{m.header(), m.vp.View()}
		if s := m.scrollLine(); s != "" {
			parts = append(parts, s)
		}
		if s := m.statusView(); s != "" {
			parts = append(parts, s)
		}
		parts = append(parts, m.comp.View(), m.shortHelpView())
		content = strings.Join(parts, "\n")
	}
	layers := []*lipgloss.Layer{lipgloss.NewLayer(content)}
	if p := m.comp.Picker(); m.screen == chatScreen && p.IsOpen() {
		if r := p.Rect(); r.W > 0 {
			layers = append(layers, lipgloss.NewLayer(p.View()).X(r.X).Y(r.Y).Z(1))
		}
	}
	frame := lipgloss.NewCompositor(layers...).Render()
	if m.quitting && m.opts.Inline {
		// The shell's prompt comes back on the line after the last one
		// drawn; without this empty line it would overwrite the hints.
		frame += "\n"
	}
	v := tea.NewView(frame)
	if c := m.comp.Cursor(); c != nil && m.screen == chatScreen {
		c.Y += m.composerTop() // the terminal's own cursor, for IMEs and screen readers
		v.Cursor = c
	}
	v.AltScreen = !m.opts.Inline
	if !m.opts.NoMouse {
		v.MouseMode = tea.MouseModeAllMotion // motion without a button: hover highlights picker rows
	}
	v.WindowTitle = "mentions demo"
	return v
}

// helpTitle is the F1 screen's title.
const helpTitle = "Keys"

// overlayTitle is a full screen's title bar with the way out, wrapped to
// the width so a narrow screen still reads all of it.
func (m Model) overlayTitle(title string) string {
	return m.st.header.Width(max(m.w, 1)).Render(" " + title + " · esc back")
}

// overlayView is a full screen (inspector, keys): its title and the way
// out on top, the scroll position and keys at the bottom. The scroll
// keys are offered only when there is more than the screen shows.
func (m Model) overlayView(title string, vp viewport.Model) string {
	top := m.overlayTitle(title)
	total := vp.TotalLineCount()
	// The position and the way out first; the scroll keys when they fit.
	bottom := scrollPosition(total, vp.YOffset(), vp.Height()) + " · esc back"
	for _, keys := range []string{" · ↑/↓ pgup/pgdn home/end scroll", " · ↑/↓ pgup/pgdn scroll"} {
		if full := bottom + keys; total > vp.Height() && textutil.Width(full) <= m.w {
			bottom = full
			break
		}
	}
	if m.asking() {
		bottom = "ctrl+c again quits and loses the draft"
		if m.comp.Preparing() {
			bottom = "ctrl+c again stops the send and quits"
		}
	}
	return top + "\n" + vp.View() + "\n" + m.st.meta.Render(textutil.Fit(bottom, m.w))
}

// Least widths the header shortens the title and the cwd to before it
// cuts the store's counts.
const (
	headerMinTitle = 12
	headerMinCwd   = 12
)

// header is the title bar: the demo's name (left out when the session's
// title already says it), the session's title and cwd, and where
// sessions come from. When it is too wide it gives up the least needed
// first: the demo's name, then the store's name after its counts (the
// root it names after " in "), then the middle of the cwd, then the end
// of the title, and only then the rest of the store's name.
func (m Model) header() string {
	cwd := "(no cwd)"
	if c := m.opts.Current.Cwd; c != nil {
		cwd = textutil.ShortenHome(*c, m.opts.Home)
	}
	title := m.opts.Title
	if title == "" {
		title = m.opts.Current.ID
	}
	title, cwd, store := textutil.Inline(title), textutil.Inline(cwd), textutil.Inline(m.opts.StoreName)
	const sep = " · "
	name := " mentions demo" + sep
	if strings.Contains(strings.ToLower(title), "mentions demo") {
		name = " "
	}
	s := name + title + sep + cwd + sep + store
	if over := textutil.Width(s) - m.w; over > 0 {
		line := func() string { return " " + title + sep + cwd + sep + store }
		over = textutil.Width(line()) - m.w
		if i := strings.Index(store, " in "); over > 0 && i > 0 {
			counts := textutil.Width(store[:i]) + 1 // and the "…"
			if sw := textutil.Width(store); sw > counts {
				store = textutil.Truncate(store, max(sw-over, counts), "…")
			}
		}
		over = textutil.Width(line()) - m.w
		if cw := textutil.Width(cwd); over > 0 && cw > headerMinCwd {
			cwd = textutil.Middle(cwd, max(cw-over, headerMinCwd))
		}
		over = textutil.Width(line()) - m.w
		if tw := textutil.Width(title); over > 0 && tw > headerMinTitle {
			title = textutil.Truncate(title, max(tw-over, headerMinTitle), "…")
		}
		s = line()
	}
	return m.st.header.Render(textutil.Fit(s, m.w))
}
