package picker

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

// SetScreenSize tells the picker the screen size, for placement.
func (m *Model) SetScreenSize(w, h int) { m.screenW, m.screenH = max(w, 1), max(h, 1) }

// SetAnchor sets the screen cell the popup hangs from: the cell of the
// '@' being completed. The popup goes above it when there is room, else
// below, and never outside the screen.
func (m *Model) SetAnchor(x, y int) { m.SetAnchorSpan(x, y, y) }

// SetAnchorSpan is SetAnchor for an editor taller than one line: the
// popup goes above line top or below line bottom, never over the lines
// between, so it does not hide the draft being typed.
func (m *Model) SetAnchorSpan(x, top, bottom int) {
	m.anchorX, m.anchorTop, m.anchorBottom = x, top, max(bottom, top)
}

// layout computes the popup's rectangle and how many rows it shows.
func (m Model) layout() (Rect, int) {
	lines := m.contentLines()
	if !m.open || lines == 0 {
		return Rect{}, 0
	}
	w := m.width
	if w <= 0 {
		w = defaultPopupWidth
	}
	w = min(w, m.screenW)
	h := lines + 2
	above, below := m.anchorTop, m.screenH-m.anchorBottom-1
	var y int
	switch {
	case h <= above:
		y = m.anchorTop - h
	case h <= below:
		y = m.anchorBottom + 1
	case above >= below:
		h = max(min(above, m.screenH), 3)
		y = max(m.anchorTop-h, 0)
	default:
		h = max(min(below, m.screenH), 3)
		y = m.anchorBottom + 1
	}
	h = min(h, m.screenH)
	if y+h > m.screenH {
		y = max(m.screenH-h, 0)
	}
	x := min(max(m.anchorX, 0), max(m.screenW-w, 0))
	return Rect{X: x, Y: y, W: w, H: h}, max(h-2, 0)
}

// Rect is where the popup is drawn on the screen; zero when hidden.
func (m Model) Rect() Rect { r, _ := m.layout(); return r }

// visibleRows is how many candidate rows fit at once.
func (m Model) visibleRows() int {
	_, rows := m.layout()
	if rows == 0 {
		return min(m.maxRows, max(len(m.items), 1))
	}
	return rows
}

// status returns the one-line status that replaces the rows, if any.
func (m Model) status() (string, bool) {
	switch {
	case m.pending && m.slow && len(m.items) == 0:
		return m.Styles.Status.Render("searching…"), true
	case m.pending:
		return "", false
	case m.err != nil:
		return m.Styles.Error.Render("⚠ couldn't list sessions: " + textutil.Inline(m.err.Error())), true
	case len(m.items) == 0:
		if m.query == "" {
			return m.Styles.Status.Render("no other sessions yet"), true
		}
		return m.Styles.Status.Render("no sessions match “" + textutil.Inline(m.query) + "”"), true
	}
	return "", false
}

// contentLines is the number of lines inside the frame.
func (m Model) contentLines() int {
	if _, ok := m.status(); ok {
		return 1
	}
	if m.pending && !m.slow && len(m.items) == 0 {
		return 0 // nothing yet: stay hidden rather than flicker
	}
	return min(len(m.items), m.maxRows)
}

// View renders the popup, or "" when hidden. Its cost is proportional to
// the visible rows, never to the number of candidates.
func (m Model) View() string {
	r, rows := m.layout()
	if r.W == 0 {
		return ""
	}
	inner := max(r.W-2, 1)
	var lines []string
	if s, ok := m.status(); ok {
		lines = append(lines, textutil.Fit(s, inner))
	} else {
		cols := chooseColumns(inner)
		now := m.now()
		stale := !m.Fresh()
		for i := m.offset; i < min(len(m.items), m.offset+rows); i++ {
			lines = append(lines, m.renderRow(m.items[i], i == m.cursor && !stale, stale, cols, inner, now))
		}
		if stale && m.slow && len(lines) > 0 {
			lines[len(lines)-1] = textutil.Fit(m.Styles.Status.Render("searching “"+textutil.Inline(m.query)+"”…"), inner)
		}
	}
	for len(lines) < rows {
		lines = append(lines, strings.Repeat(" ", inner))
	}
	return m.Styles.Frame.Width(r.W).Render(strings.Join(lines[:rows], "\n"))
}

// columns says which optional columns a row shows; they drop out
// together for every row when the popup is narrow.
type columns struct {
	badge, id, cwd, age bool
	cwdW, labelW        int
}

const (
	markerW   = 2
	badgeW    = 8
	idW       = 8
	ageW      = 8
	gapW      = 2
	labelMinW = 16
	cwdMinW   = 12
	cwdMaxW   = 32
)

func chooseColumns(inner int) columns {
	c := columns{badge: true, id: true, cwd: true, age: true}
	need := func() int {
		n := markerW + labelMinW
		if c.badge {
			n += badgeW + gapW
		}
		if c.id {
			n += idW + gapW
		}
		if c.cwd {
			n += cwdMinW + gapW
		}
		if c.age {
			n += ageW + gapW
		}
		return n
	}
	for _, drop := range []*bool{&c.cwd, &c.id, &c.age, &c.badge} {
		if need() <= inner {
			break
		}
		*drop = false
	}
	rest := inner - markerW
	if c.badge {
		rest -= badgeW + gapW
	}
	if c.id {
		rest -= idW + gapW
	}
	if c.age {
		rest -= ageW + gapW
	}
	if c.cwd {
		c.cwdW = min(max(cwdMinW, (rest-gapW)*2/5), cwdMaxW)
		rest -= c.cwdW + gapW
	}
	c.labelW = max(rest, 1)
	return c
}

func (m Model) renderRow(c sessionref.Candidate, highlighted, stale bool, cols columns, inner int, now time.Time) string {
	st := m.Styles
	marker := "  "
	if highlighted {
		marker = st.Marker.Render("›") + " "
	}
	label := textutil.Inline(c.Label)
	reason, off := m.disabled(c)
	var labelOut string
	switch {
	case stale:
		labelOut = st.Stale.Render(label)
	case off:
		labelOut = st.Disabled.Render(label)
	default:
		labelOut = highlightMatch(label, m.query, st.Label, st.Match)
	}
	var b strings.Builder
	b.WriteString(marker)
	if off && !stale {
		// The reason takes the place of the metadata columns.
		rest := inner - markerW - cols.labelW - gapW
		if rest < 8 {
			b.WriteString(textutil.Fit(labelOut, max(inner-markerW-textutil.Width(reason)-1, 1)))
			b.WriteString(" " + st.Meta.Render(reason))
		} else {
			b.WriteString(textutil.Fit(labelOut, cols.labelW))
			b.WriteString(strings.Repeat(" ", gapW))
			b.WriteString(textutil.Fit(st.Meta.Render("⊘ "+reason), rest))
		}
		return m.finishRow(b.String(), highlighted, inner)
	}
	b.WriteString(textutil.Fit(labelOut, cols.labelW))
	meta := func(s string, w int, style func(...string) string) {
		b.WriteString(strings.Repeat(" ", gapW))
		b.WriteString(textutil.Fit(style(s), w))
	}
	metaStyle := st.Meta.Render
	if stale {
		metaStyle = st.Stale.Render
	}
	if cols.badge {
		meta(badge(c.Rank), badgeW, st.Badge.Render)
	}
	if cols.id {
		id := ""
		if c.SessionID != c.Label {
			id = shortID(textutil.Inline(c.SessionID))
		}
		meta(id, idW, metaStyle)
	}
	if cols.cwd {
		cwd := "(no cwd)"
		if c.Cwd != nil {
			cwd = textutil.Middle(shortenHome(textutil.Inline(*c.Cwd), m.home), cols.cwdW)
		}
		meta(cwd, cols.cwdW, metaStyle)
	}
	if cols.age {
		meta(Age(now, c.CreatedAt), ageW, metaStyle)
	}
	return m.finishRow(b.String(), highlighted, inner)
}

func (m Model) finishRow(s string, highlighted bool, inner int) string {
	s = textutil.Fit(s, inner)
	if highlighted {
		return m.Styles.Highlighted.Render(s)
	}
	return m.Styles.Row.Render(s)
}

func badge(r sessionref.Rank) string {
	switch r {
	case sessionref.RankSameCwd:
		return "this dir"
	case sessionref.RankNoCwd:
		return "no dir"
	}
	return ""
}

// shortID is the first 8 characters of an id.
func shortID(id string) string {
	if utf8.RuneCountInString(id) <= 8 {
		return id
	}
	return string([]rune(id)[:8])
}

func shortenHome(p, home string) string {
	if home == "" || home == "/" {
		return p
	}
	if p == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(home, "/")+"/"); ok {
		return "~/" + rest
	}
	return p
}

// Age renders how long ago a Unix-millisecond time was: "just now",
// "5m ago", "3h ago", "12d ago", "4mo ago", "2y ago".
func Age(now time.Time, unixMs int64) string {
	d := now.Sub(time.UnixMilli(unixMs))
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	case d < 365*24*time.Hour:
		return fmt.Sprintf("%dmo ago", int(d/(30*24*time.Hour)))
	}
	return fmt.Sprintf("%dy ago", int(d/(365*24*time.Hour)))
}

// matchRange finds query in label, comparing runes case-insensitively,
// and returns its byte range.
func matchRange(label, query string) (int, int, bool) {
	if query == "" {
		return 0, 0, false
	}
	for i := range label {
		j, q := i, 0
		for q < len(query) && j < len(label) {
			lr, ls := utf8.DecodeRuneInString(label[j:])
			qr, qs := utf8.DecodeRuneInString(query[q:])
			if lr != qr && unicode.ToLower(lr) != unicode.ToLower(qr) {
				break
			}
			j, q = j+ls, q+qs
		}
		if q == len(query) {
			return i, j, true
		}
	}
	return 0, 0, false
}

type renderer interface{ Render(...string) string }

// highlightMatch styles the first match of query in label, underlined so
// it shows without colour too.
func highlightMatch(label, query string, base, match renderer) string {
	a, z, ok := matchRange(label, query)
	if !ok {
		return base.Render(label)
	}
	return base.Render(label[:a]) + match.Render(label[a:z]) + base.Render(label[z:])
}
