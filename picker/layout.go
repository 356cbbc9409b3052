package picker

import (
	"charm.land/lipgloss/v2"
)

// SetScreenSize tells the picker the screen size, for placement. The
// popup stays inside the screen unless SetBounds gives it a pane.
func (m *Model) SetScreenSize(w, h int) {
	m.screenW, m.screenH = max(w, 1), max(h, 1)
	m.refit()
}

// ScreenSize returns the screen size set with SetScreenSize (or a
// tea.WindowSizeMsg); 80×24 until then.
func (m Model) ScreenSize() (w, h int) { return m.screenW, m.screenH }

// SetBounds bounds the popup to a pane of the screen, in screen cells: it
// is placed, and its width follows, inside r instead of the whole screen.
// A zero Rect goes back to the screen.
func (m *Model) SetBounds(r Rect) {
	m.bounds = r
	m.refit()
}

// Bounds returns the pane set with SetBounds; the zero Rect for the
// whole screen.
func (m Model) Bounds() Rect { return m.bounds }

// SetAnchor sets the screen cell the popup hangs from: the cell of the
// '@' being completed. The popup goes above it when there is room, else
// below, and never outside its bounds.
func (m *Model) SetAnchor(x, y int) { m.SetAnchorSpan(x, y, y) }

// SetAnchorSpan is SetAnchor for an editor taller than one line: the
// popup goes above line top or below line bottom, never over the lines
// between, so it does not hide the draft being typed.
func (m *Model) SetAnchorSpan(x, top, bottom int) {
	m.anchorX, m.anchorTop, m.anchorBottom = x, top, max(bottom, top)
	m.refit()
}

// AnchorSpan returns the anchor set with SetAnchor or SetAnchorSpan: the
// '@' cell's column and the editor lines the popup keeps off.
func (m Model) AnchorSpan() (x, top, bottom int) { return m.anchorX, m.anchorTop, m.anchorBottom }

// refit scrolls an open popup whose size changed so its highlighted row
// shows and no rows it could show are left empty.
func (m *Model) refit() {
	if m.open && m.entries() > 0 {
		m.scrollToCursor()
	}
}

// geometry is where the popup goes and how its inside is divided.
type geometry struct {
	rect        Rect
	left, top   int // screen cell of the first content cell
	innerW      int // content width inside the frame
	rows        int // candidate rows shown
	lines       int // content lines: rows, plus the footer; or the status
	footerLines int // the last content lines are the footer, wrapped
	// The preview: previewW cells wide from screen column previewLeft,
	// over all the content lines; beside the rows (innerW is then the
	// rows' part, and a rule between them) or, with rows 0, in their
	// place. previewW is 0 when no preview shows.
	previewW    int
	previewLeft int
}

// area is the rectangle the popup must stay in.
func (m Model) area() Rect {
	if !m.bounds.Empty() {
		return m.bounds
	}
	return Rect{W: m.screenW, H: m.screenH}
}

// layout computes the popup's geometry; a zero geometry when hidden.
func (m Model) layout() geometry {
	if !m.open {
		return geometry{}
	}
	f := m.styles.Frame
	frameW, frameH := f.GetHorizontalFrameSize(), f.GetVerticalFrameSize()
	a := m.area()
	w := m.popupWidth()
	if w-frameW < 1 || a.H-frameH < 1 {
		return geometry{} // the frame alone fills the bounds
	}
	_, _, statusOnly := m.status()
	want, footerLines := m.contentLines(w - frameW)
	if want == 0 {
		return geometry{} // nothing yet: stay hidden rather than flicker
	}
	preview := !statusOnly && m.previewing()
	if preview {
		want = max(want, previewMinLines)
	}
	h := want + frameH
	above := m.anchorTop - a.Y
	below := a.Y + a.H - m.anchorBottom - 1
	var y int
	switch {
	case h <= above:
		y = m.anchorTop - h
	case h <= below:
		y = m.anchorBottom + 1
	case above >= below:
		h = max(above, frameH+1)
		y = m.anchorTop - h
	default:
		h = max(below, frameH+1)
		y = m.anchorBottom + 1
	}
	h = min(h, a.H)
	y = min(max(y, a.Y), a.Y+a.H-h)
	x := min(max(m.anchorX, a.X), a.X+a.W-w)
	g := geometry{
		rect:   Rect{X: x, Y: y, W: w, H: h},
		left:   x + f.GetMarginLeft() + f.GetBorderLeftSize() + f.GetPaddingLeft(),
		top:    y + f.GetMarginTop() + f.GetBorderTopSize() + f.GetPaddingTop(),
		innerW: w - frameW,
		lines:  h - frameH,
	}
	if !statusOnly {
		// The footer gives up lines before the last row does.
		g.footerLines = min(footerLines, g.lines-1)
		g.rows = g.lines - max(g.footerLines, 0)
		g.footerLines = max(g.footerLines, 0)
	}
	switch {
	case preview && m.previewWide():
		// Beside the rows, after a one-cell rule: the rows keep 55% of
		// the inside, and at least 60 cells while the preview keeps 36,
		// so titles stay readable in a pane near PreviewMinWidth.
		rowsW := max(g.innerW*55/100, min(60, g.innerW-37))
		g.previewW = g.innerW - rowsW - 1
		g.innerW = rowsW
		g.previewLeft = g.left + g.innerW + 1
	case preview:
		g.previewW, g.previewLeft = g.innerW, g.left
		g.rows, g.footerLines = 0, 0
	}
	return g
}

// DefaultMaxWidth is the widest the popup is, frame included, unless
// [Model.SetWidth] says otherwise: on a wider screen its columns would only
// spread apart. With a preview beside the rows it may be twice as wide.
const DefaultMaxWidth = 120

// contentLines is how many lines the popup's content wants at inner
// width innerW, and how many of them are the footer's: the status alone,
// or the rows (at most maxLines) and the footer. While an answer to the
// current query is still awaited the popup keeps the lines it has shown
// (held) and keeps room for the hits, so a keystroke changes its height
// at most once, when both answers are in, and only to fit them.
func (m Model) contentLines(innerW int) (want, footerLines int) {
	status, _, statusOnly := m.status()
	footer, _, hasFooter := m.footer()
	switch {
	case statusOnly:
		want = len(m.wrapText(status, innerW, maxTextLines))
	case m.totalLines() > 0:
		want = min(m.totalLines(), m.maxLines())
		if hits := m.sec(MessagesID); hits != nil && hits.pending {
			// Room for the hits section while they are searched, so the
			// popup does not grow when they arrive.
			want = max(want, min(len(m.sessions().answer.Candidates), m.maxRows)+hitSectionExtra)
		}
		if hasFooter {
			footerLines = len(m.wrapText(footer, innerW, maxTextLines))
			want += footerLines
		}
	}
	if want > 0 && (m.sessions().pending || m.sec(MessagesID) != nil && m.sec(MessagesID).pending) {
		want = max(want, m.held)
	}
	return want, footerLines
}

// hold records the lines the popup shows now, which it keeps while an
// answer is awaited.
func (m *Model) hold() {
	if !m.open {
		m.held = 0
		return
	}
	f := m.styles.Frame
	m.held, _ = m.contentLines(m.popupWidth() - f.GetHorizontalFrameSize())
}

// popupWidth is the popup's width, frame included: SetWidth's, else the
// pane's up to DefaultMaxWidth (wider, the columns would only spread
// apart), or up to twice that while the preview stands beside the rows,
// so the rows keep their width and the preview gets the rest.
func (m Model) popupWidth() int {
	a := m.area()
	if m.width > 0 {
		return min(m.width, a.W)
	}
	if m.hasPreviews() && m.previewWide() {
		return min(a.W, 2*DefaultMaxWidth)
	}
	return min(a.W, DefaultMaxWidth)
}

// Rect is where the popup is drawn on the screen, frame included; zero
// when hidden.
func (m Model) Rect() Rect { return m.layout().rect }

// LayerZ is the Z of [Model.Layer]: one above a host's base layer at the
// default Z 0. It is not 0 because lipgloss orders layers of the same Z
// in no fixed way, so at Z 0 the popup could be drawn under the screen
// it belongs over. A host that draws dialogs over its screen gives them a
// Z above LayerZ, or sets the popup's own with Layer().Z(n).
const LayerZ = 1

// Layer returns the popup as a lipgloss layer placed at Rect, at Z
// [LayerZ] with the ID "picker", for hosts that compose their screen with
// lipgloss.NewCanvas or lipgloss.NewCompositor; nil when nothing shows.
// Its X and Y are screen cells: a host that draws on an ultraviolet
// screen itself draws [Model.View] at [Model.Rect] instead (Layer.Draw
// ignores X and Y).
func (m Model) Layer() *lipgloss.Layer {
	g := m.layout()
	if g.rect.Empty() {
		return nil
	}
	return lipgloss.NewLayer(m.view(g)).X(g.rect.X).Y(g.rect.Y).Z(LayerZ).ID("picker")
}

// visibleRows is how many lines of entries fit at once.
func (m Model) visibleRows() int {
	if g := m.layout(); g.rows > 0 {
		return g.rows
	}
	return min(m.maxLines(), max(m.totalLines(), 1))
}

// RowAt maps a screen cell to the index of the entry drawn there: a
// candidate's row, a hit's row or snippet, or a host's item. Entries are
// numbered in the order of the sections (see [WithOrder]): each
// section's rows, as [Model.Answer] gives them, after those of the
// sections before it. A section's heading is no entry.
func (m Model) RowAt(x, y int) (int, bool) {
	g := m.layout()
	if g.rows == 0 || x < g.left || x >= g.left+g.innerW || y < g.top || y >= g.top+g.rows {
		return 0, false
	}
	line := m.offset + y - g.top
	if line >= m.totalLines() {
		return 0, false
	}
	e, kind := m.atLine(line)
	if kind == lineHeading {
		return 0, false
	}
	return e, true
}
