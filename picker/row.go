package picker

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/internal/theme"
	"github.com/dshkit/mentions/sessionref"
)

// A row is drawn as a list of segments, each a piece of plain text and
// the part of the row it is; every part's style is drawn over the row's
// style (Row or Highlighted), so the row's background and weight cover
// all its cells, gaps and padding included.
type seg struct {
	text string
	part part
}

// part is what a segment of a row is, which picks its style.
type part uint8

const (
	partPlain part = iota // gaps and padding: the row's style alone
	partMarker
	partLabel
	partMatch
	partMeta
	partBadge
	partDisabled
	partStale
	partSnippet
	partStatus // the preview's notes ("reading…")
	partError  // the preview's error
	numParts
)

// rowStyles is the style of each part over one row style, made once per
// View rather than once per segment.
type rowStyles [numParts]lipgloss.Style

func (st Styles) over(base lipgloss.Style) rowStyles {
	var rs rowStyles
	for p, s := range [numParts]lipgloss.Style{
		partPlain: lipgloss.NewStyle(), partMarker: st.Marker, partLabel: st.Label, partMatch: st.Match,
		partMeta: st.Meta, partBadge: st.Badge, partDisabled: st.Disabled, partStale: st.Stale,
		partSnippet: st.Snippet, partStatus: st.Status, partError: st.Error,
	} {
		rs[p] = s.Inherit(base)
	}
	return rs
}

// columns says which optional columns the rows show and how wide each
// column is; they are chosen once per View so every row lines up. The
// short id is always shown: it is what tells two sessions with the same
// title apart, so the visible rows' ids are shortened together (ids maps
// each session id to its form) and never to the same text while the
// width allows.
type columns struct {
	badge, cwd, age bool
	idW, cwdW       int
	labelW          int
	ids             map[string]string
}

const (
	markerW   = 2
	badgeW    = 8
	ageW      = 8
	gapW      = 2
	labelMinW = 16
	// labelMinAgeW is the least the label keeps beside the id and age
	// alone: at 40 columns a row still shows label, id and age.
	labelMinAgeW = 12
	// labelMinIDW is the least the label keeps when the id column grows
	// to tell the visible rows' ids apart.
	labelMinIDW = 8
	cwdMinW     = 12
	cwdMaxW     = 48
	// reasonLabelMinW is the least a disabled row's label keeps beside the
	// reason it cannot be picked.
	reasonLabelMinW = 6
)

// chooseColumns fits the columns into the popup's inner width for the
// rows on screen: what those rows ask for (columnNeeds), laid out by the
// pure layoutColumns.
func (m Model) chooseColumns(g geometry) columns {
	return layoutColumns(m.columnNeeds(g), g.innerW)
}

// columnNeeds is what the visible rows ask of the columns.
type columnNeeds struct {
	ids        []string // the visible sessions' ids, in order
	idWant     int      // the widest of them, in cells (at least 1)
	labelNeed  int      // the widest label, with a disabled row's reason
	cwdNeed    int      // the widest folder as shown
	folderOnly bool     // a row matched on its folder alone: the folder column stays longest
	cwd, badge bool     // the folder column and the badge tell the rows apart (see informative)
}

func (m Model) columnNeeds(g geometry) columnNeeds {
	n := columnNeeds{idWant: 1}
	n.cwd, n.badge = m.informative()
	for l := m.offset; l < min(m.totalLines(), m.offset+g.rows); l++ {
		b, e, kind := m.lineAt(l)
		if kind != lineRow || b.kind == kindHost {
			continue
		}
		cand := m.entry(e)
		n.ids = append(n.ids, cand.SessionID)
		n.idWant = max(n.idWant, textutil.IDWidth(cand.SessionID))
		need := textutil.Width(textutil.Inline(cand.Label))
		if why, off := m.disabled(cand); off {
			need += gapW + textutil.Width("⊘ "+textutil.Inline(why)) - gapW - badgeW
		}
		n.labelNeed = max(n.labelNeed, need)
		n.cwdNeed = max(n.cwdNeed, textutil.Width(m.cwdText(cand)))
		n.folderOnly = n.folderOnly || m.matchesFolderOnly(cand)
	}
	// A row listed for its folder alone shows it, even when every row
	// shares it: the folder is what says why the row matched.
	n.cwd = n.cwd || n.folderOnly
	return n
}

// layoutColumns fits the columns into innerW cells: the working directory
// drops first, then the rank badge, then the age (the folder last when a
// row matched on it alone). The id column starts at most
// textutil.ShortIDWidth cells wide; it grows, taking from the label down
// to labelMinIDW cells, until the rows' ids read differently, and then
// takes what the label and folder columns have to spare, up to the whole
// ids. What the label still has to spare shows more of the folders.
func layoutColumns(n columnNeeds, innerW int) columns {
	c := columns{age: true, cwd: n.cwd, badge: n.badge, idW: min(n.idWant, textutil.ShortIDWidth)}
	c.dropToFit(innerW, n.folderOnly)
	c.cwdW, c.labelW = c.share(innerW, c.idW)
	if c.labelW < labelMinAgeW {
		// Too narrow for all of it: the label keeps a few cells, the id
		// what is left.
		c.labelW = max(c.labelW, min(4, innerW-markerW))
		c.idW = max(min(c.idW, innerW-markerW-c.labelW-gapW), 0)
		forms, _ := textutil.ShortIDs(n.ids, c.idW)
		return c.withIDs(n.ids, forms)
	}
	forms := c.distinctIDs(n, innerW)
	if c.giveSpare(n) {
		forms, _ = textutil.ShortIDs(n.ids, c.idW)
	}
	return c.withIDs(n.ids, forms)
}

// need is the width the chosen columns take at their least.
func (c columns) need(folderOnly bool) int {
	n := markerW + gapW + c.idW + labelMinW
	if !c.cwd && !c.badge || folderOnly && !c.badge && !c.age {
		n -= labelMinW - labelMinAgeW // the age or the folder may squeeze the label more
	}
	if c.badge {
		n += gapW + badgeW
	}
	if c.cwd {
		n += gapW + cwdMinW
	}
	if c.age {
		n += gapW + ageW
	}
	return n
}

// dropToFit drops columns, in their order, until the rest fit innerW.
func (c *columns) dropToFit(innerW int, folderOnly bool) {
	drops := []*bool{&c.cwd, &c.badge, &c.age}
	if folderOnly {
		drops = []*bool{&c.badge, &c.age, &c.cwd}
	}
	for _, drop := range drops {
		if c.need(folderOnly) <= innerW {
			return
		}
		*drop = false
	}
}

// share gives what an id column of idW cells leaves to the folder and
// the label.
func (c columns) share(innerW, idW int) (cwdW, labelW int) {
	rest := innerW - markerW - gapW - idW
	if c.badge {
		rest -= gapW + badgeW
	}
	if c.age {
		rest -= gapW + ageW
	}
	if c.cwd {
		cwdW = min(max(cwdMinW, (rest-gapW)*2/5), cwdMaxW)
		rest -= gapW + cwdW
	}
	return cwdW, rest
}

// distinctIDs widens the id column until the ids read differently, as far
// as the label allows (down to labelMinIDW): the narrowest width that does,
// by bisection (a wider column tells apart at least what a narrower one
// does). It returns the ids' forms at the width chosen.
func (c *columns) distinctIDs(n columnNeeds, innerW int) []string {
	forms, ok := textutil.ShortIDs(n.ids, c.idW)
	if ok {
		return forms
	}
	hi := c.idW
	for w := c.idW + 1; w <= n.idWant; w++ {
		if _, labelW := c.share(innerW, w); labelW < labelMinIDW {
			break
		}
		hi = w
	}
	if hi == c.idW {
		return forms
	}
	top, topOK := textutil.ShortIDs(n.ids, hi)
	if !topOK {
		return forms // even the widest the label allows cannot tell them apart
	}
	for lo := c.idW; hi-lo > 1; { // lo cannot
		mid := (lo + hi) / 2
		if f, ok := textutil.ShortIDs(n.ids, mid); ok {
			hi, top = mid, f
		} else {
			lo = mid
		}
	}
	c.idW = hi
	c.cwdW, c.labelW = c.share(innerW, hi)
	return top
}

// giveSpare moves width to where the rows need it: the folder's cells
// beyond what the rows need go to a label that is cut, then to the id, and
// so do the label's, up to the whole ids; what the label still has to
// spare shows more of the folders. It reports whether the id column grew.
func (c *columns) giveSpare(n columnNeeds) bool {
	if c.cwd {
		spare := max(c.cwdW-max(n.cwdNeed, cwdMinW), 0)
		toLabel := min(spare, max(n.labelNeed-c.labelW, 0))
		c.cwdW -= toLabel
		c.labelW += toLabel
	}
	grew := false
	if grow := n.idWant - c.idW; grow > 0 {
		fromLabel := min(grow, max(c.labelW-max(n.labelNeed, labelMinW), 0))
		fromCwd := 0
		if c.cwd {
			fromCwd = min(grow-fromLabel, max(c.cwdW-max(n.cwdNeed, cwdMinW), 0))
		}
		if fromLabel+fromCwd > 0 {
			c.idW += fromLabel + fromCwd
			c.labelW -= fromLabel
			c.cwdW -= fromCwd
			grew = true
		}
	}
	if c.cwd {
		grow := min(max(c.labelW-max(n.labelNeed, labelMinW), 0), max(n.cwdNeed-c.cwdW, 0))
		c.cwdW += grow
		c.labelW -= grow
	}
	return grew
}

// informative says whether the folder column and the rank badge tell the
// rows apart, over every row of the list (not only the visible ones, so
// the columns do not come and go while scrolling). The folder goes when
// every row would show the same one: a store without per-session folders
// shows no "(no cwd)" column, and rows all in one folder do not repeat
// it (a single row keeps a folder it has, which says where it is). The
// badge goes when every row would show the same one and it says nothing
// the row does not: "no dir" on every row of a store without folders, or
// no badge at all. "this dir" stays: with the folder column gone it is
// what says the rows are the current session's neighbours.
func (m Model) informative() (cwd, badge bool) {
	// The sessions' rows only (candidates, then hits), read in place: a
	// View costs no more for a long list than the first differing row.
	items, hits := m.sessions().answer.Candidates, m.Answer(MessagesID).Hits
	n := len(items) + len(hits)
	if n == 0 {
		return true, true
	}
	at := func(i int) *sessionref.Candidate {
		if i < len(items) {
			return &items[i]
		}
		return &hits[i-len(items)].Candidate
	}
	first := at(0)
	sameCwd, sameRank := true, true
	for i := 1; i < n && (sameCwd || sameRank); i++ {
		c := at(i)
		if sameCwd && !sameFolder(c.Cwd, first.Cwd) {
			sameCwd = false
		}
		if sameRank && c.Rank != first.Rank {
			sameRank = false
		}
	}
	cwd = !(sameCwd && (n > 1 || first.Cwd == nil))
	badge = !(sameRank && first.Rank != sessionref.RankSameCwd && (n > 1 || !cwd))
	return cwd, badge
}

func sameFolder(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// withIDs records the form of each visible id.
func (c columns) withIDs(ids, forms []string) columns {
	c.ids = make(map[string]string, len(ids))
	for i, id := range ids {
		c.ids[id] = forms[i]
	}
	return c
}

// renderRow draws one candidate's row, exactly innerW cells wide, in
// the styles of plain (a row) or hi (the highlighted row).
func (m Model) renderRow(c sessionref.Candidate, highlighted, stale bool, cols columns, innerW int, now time.Time, plain, hi *rowStyles) string {
	reason, off := m.disabled(c)
	highlighted = highlighted && !off // a row that cannot be picked never looks chosen
	rs := plain
	if highlighted {
		rs = hi
	}
	meta := partMeta
	if stale {
		meta = partStale
	}
	segs := make([]seg, 0, 24)
	put := func(s ...seg) { segs = append(segs, s...) }
	gap := seg{text: "  "}
	if highlighted {
		put(seg{"›", partMarker}, seg{text: " "})
	} else {
		put(seg{text: "  "})
	}
	label := textutil.Inline(c.Label)
	switch {
	case stale:
		put(fitSegs([]seg{{label, partStale}}, cols.labelW)...)
	case off:
		// The reason takes the label's room and the badge's, never the
		// id, folder or age: those tell this row from its neighbours.
		room := cols.labelW
		if cols.badge {
			room += gapW + badgeW
		}
		why := "⊘ " + textutil.Inline(reason)
		whyW := min(textutil.Width(why), max(room-gapW-reasonLabelMinW, 1))
		put(fitSegs([]seg{{label, partDisabled}}, room-gapW-whyW)...)
		put(gap)
		put(fitSegs([]seg{{why, partMeta}}, whyW)...)
	default:
		put(fitSegs(highlightMatch(label, m.query), cols.labelW)...)
	}
	if cols.badge && !(off && !stale) {
		put(gap)
		put(fitSegs([]seg{{badge(c.Rank), partBadge}}, badgeW)...)
	}
	if cols.idW > 0 {
		put(gap)
		put(fitSegs([]seg{{cols.id(c.SessionID), meta}}, cols.idW)...)
	}
	if cols.cwd {
		put(gap)
		put(fitSegs(m.cwdSegs(c, cols.cwdW, meta, !stale), cols.cwdW)...)
	}
	if cols.age {
		put(gap)
		put(fitSegs([]seg{{m.ageOf(now, c), meta}}, ageW)...)
	}
	return paint(fitSegs(segs, innerW), rs, innerW) // exact, whatever the columns came to
}

// paint draws segments in the styles of rs; neighbours of one part are
// drawn together, for fewer style runs.
func paint(segs []seg, rs *rowStyles, innerW int) string {
	var b strings.Builder
	b.Grow(innerW * 4)
	for i := 0; i < len(segs); {
		j, text := i+1, segs[i].text
		for ; j < len(segs) && segs[j].part == segs[i].part; j++ {
			text += segs[j].text
		}
		if text != "" {
			b.WriteString(theme.Render(rs[segs[i].part], text))
		}
		i = j
	}
	return b.String()
}

// fitSegs cuts a run of segments to at most w cells, ending in "…" (in
// the style of the segment cut) when cut, and pads it with spaces to
// exactly w cells.
func fitSegs(segs []seg, w int) []seg {
	if w <= 0 {
		return nil
	}
	total := 0
	for _, s := range segs {
		total += textutil.Width(s.text)
	}
	out := segs
	if total > w {
		out = make([]seg, 0, len(segs)+1)
		budget := w - 1 // room for the ellipsis
		for _, s := range segs {
			sw := textutil.Width(s.text)
			if sw <= budget {
				out = append(out, s)
				budget -= sw
				continue
			}
			out = append(out, seg{textutil.Truncate(s.text, budget, "") + "…", s.part})
			break
		}
		total = 0
		for _, s := range out {
			total += textutil.Width(s.text)
		}
	}
	if total < w {
		out = append(out[:len(out):len(out)], seg{text: spaces(w - total)})
	}
	return out
}

func spaces(n int) string { return strings.Repeat(" ", n) }

func badge(r sessionref.Rank) string {
	switch r {
	case sessionref.RankSameCwd:
		return "this dir"
	case sessionref.RankNoCwd:
		return "no dir"
	}
	return ""
}

// Age renders how long ago a Unix-millisecond time was, as every row of
// the picker shows it: "just now", "5m ago", "3h ago", "12d ago", "4mo
// ago", "2y ago"; "secs?" when the value is Unix seconds written where
// milliseconds belong (a store's mistake, see [sessionref.CheckStore]);
// "—" when the time is unknown (zero, before 2000, or more than a day
// ahead of now). It is the module's one age format.
func Age(now time.Time, unixMs int64) string {
	if sessionref.LooksLikeSeconds(unixMs, now) {
		return "secs?"
	}
	return textutil.Age(now, unixMs)
}

// ageOf is the age a row shows: of the time WithAge chose, else of the
// creation time.
func (m Model) ageOf(now time.Time, c sessionref.Candidate) string {
	if m.age == nil {
		return Age(now, c.CreatedAt)
	}
	return Age(now, sessionref.Millis(m.age(c)))
}

// id is a session id's form in the id column.
func (c columns) id(sessionID string) string {
	if f, ok := c.ids[sessionID]; ok {
		return f
	}
	return textutil.ShortID(sessionID)
}
