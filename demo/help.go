package demo

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/textutil"
)

// hint is a binding on the short hint line; the line drops the highest
// drop first when it does not fit, so the keys a newcomer needs most
// (ctrl+c, f1) stay to the end.
type hint struct {
	b    key.Binding
	drop int
}

// shortHints are the bindings the hint line offers now: the demo's own
// and the card's. The composer's footer already names the composer's and
// the open picker's keys (send, newline, @, cancel, pick), from their
// KeyMaps, so they are never repeated here.
func (m Model) shortHints() []hint {
	k := m.keys
	var hs []hint
	if seq, ok := m.lastCard(); ok && !m.comp.Picker().IsOpen() {
		ck := m.lastCardKeys()
		for _, b := range ck.ShortHelp() {
			if b.Help() == ck.Toggle.Help() && b.Enabled() {
				// Say what it does now: shorter than "expand/collapse", so
				// the paging keys fit beside it.
				do := "expand card"
				if m.cards[seq].Expanded() {
					do = "collapse card"
				}
				b.SetHelp(b.Help().Key, do)
			}
			hs = append(hs, hint{b, 4})
		}
	}
	hs = append(hs, hint{k.Inspect, 6}) // the stand-in reply names ctrl+t too
	if !m.comp.Picker().IsOpen() && m.scrollable() {
		hs = append(hs, hint{m.scrollHint(), 5})
	}
	return append(hs, hint{k.Help, 2}, hint{k.Quit, 1})
}

// shortHelpView is the one-line hint, rendered by bubbles/help from the
// bindings that fit in the width, dropping the least needed first.
func (m Model) shortHelpView() string {
	hs := m.shortHints()
	for {
		var bs []key.Binding
		for _, h := range hs {
			bs = append(bs, h.b)
		}
		v := m.help.ShortHelpView(bs)
		if textutil.Width(v) <= m.w || len(hs) <= 1 {
			return textutil.Fit(v, m.w)
		}
		worst := 0
		for i, h := range hs {
			if h.drop > hs[worst].drop {
				worst = i
			}
		}
		hs = append(hs[:worst:worst], hs[worst+1:]...)
	}
}

// helpSection is one titled part of the F1 screen.
type helpSection struct {
	title  string
	groups [][]key.Binding
	all    bool // list keys that are off right now too
}

// helpSections are every component's keys, from their own KeyMaps. The
// picker's keys are listed even while it is closed (they are off then);
// keys a component turned off for good (the card's scrolling) are not.
func (m Model) helpSections() []helpSection {
	return []helpSection{
		{"Writing", m.writingHelp(), true},
		{"In the picker (after @)", m.comp.Picker().KeyMap().FullHelp(), true},
		{"Reference cards", m.lastCardKeys().FullHelp(), false},
		{"Screens", m.keys.FullHelp(), false},
		{"Mouse", m.mouseHelp(), false},
	}
}

// writingHelp is the composer's keys for F1, with every key that makes a
// newline on a row of its own, not only the one the footer names:
// terminals differ in which of them reach the program.
func (m Model) writingHelp() [][]key.Binding {
	ck := m.comp.KeyMap()
	nl := ck.InsertNewline
	groups := ck.FullHelp()
	// The demo pages the transcript with its own keys before the
	// composer sees them: a key listed under Screens is not listed here
	// with another meaning.
	mine := append(m.keys.ScrollUp.Keys(), m.keys.ScrollDown.Keys()...)
	for gi, g := range groups {
		groups[gi] = slices.DeleteFunc(slices.Clone(g), func(b key.Binding) bool {
			return len(b.Keys()) > 0 && !slices.ContainsFunc(b.Keys(), func(k string) bool { return !slices.Contains(mine, k) })
		})
	}
	for gi, g := range groups {
		for i, b := range g {
			if len(b.Keys()) < 2 || !slices.Equal(b.Keys(), nl.Keys()) {
				continue
			}
			var more []key.Binding
			for _, k := range b.Keys() {
				if k != b.Help().Key {
					more = append(more, key.NewBinding(key.WithKeys(k), key.WithHelp(k, b.Help().Desc), withEnabled(b.Enabled())))
				}
			}
			groups[gi] = slices.Concat(g[:i+1], more, g[i+1:])
			return groups
		}
	}
	return groups
}

// withEnabled is key.WithDisabled when on is false.
func withEnabled(on bool) key.BindingOpt {
	if on {
		return func(*key.Binding) {}
	}
	return key.WithDisabled()
}

func enabled(groups [][]key.Binding, all bool) [][]key.Binding {
	out := make([][]key.Binding, 0, len(groups))
	for _, g := range groups {
		var og []key.Binding
		for _, b := range g {
			if len(b.Keys()) == 0 || b.Help().Key == "" || !all && !b.Enabled() {
				continue // unbound, off, or with no help text
			}
			b.SetEnabled(true)
			og = append(og, b)
		}
		out = append(out, og)
	}
	return out
}

// renderHelp lays the F1 screen out for the width: each section's
// columns side by side while they fit, wrapping to more rows when they
// do not; the viewport scrolls what is taller than the screen.
func (m *Model) renderHelp() {
	var out []string
	if m.opts.Notice != "" || len(m.opts.Sources) > 0 {
		// Options.Notice leaves the status line on the first key; it
		// stays here, under the sources.
		out = append(out, m.st.title.Render("Sessions"))
		for _, s := range m.opts.Sources {
			out = append(out, textutil.WrapProse(textutil.Inline(s), m.w)...)
		}
		if m.opts.Notice != "" {
			out = append(out, textutil.WrapProse(textutil.Inline(m.opts.Notice), m.w)...)
		}
	}
	for _, s := range m.helpSections() {
		cols := m.helpColumns(enabled(s.groups, s.all))
		if len(cols) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, m.st.title.Render(s.title))
		out = append(out, packColumns(cols, m.w, "    ")...)
	}
	for i, l := range out {
		out[i] = textutil.Fit(l, m.w)
	}
	m.helpVP.SetContentLines(out)
}

// helpColumns renders a section's groups as columns of one width each,
// their keys and their descriptions aligned, so that the rows the
// columns wrap into line up as one table.
func (m Model) helpColumns(groups [][]key.Binding) []string {
	keyW, descW := 0, 0
	for _, g := range groups {
		for _, b := range g {
			keyW = max(keyW, textutil.Width(b.Help().Key))
			descW = max(descW, textutil.Width(b.Help().Desc))
		}
	}
	st := m.help.Styles
	var cols []string
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		lines := make([]string, len(g))
		for i, b := range g {
			k, d := b.Help().Key, b.Help().Desc
			lines[i] = st.FullKey.Render(k) + strings.Repeat(" ", keyW-textutil.Width(k)+1) +
				st.FullDesc.Render(d) + strings.Repeat(" ", descW-textutil.Width(d))
		}
		cols = append(cols, strings.Join(lines, "\n"))
	}
	return cols
}

// packColumns puts columns side by side, sep between them, starting a
// new row when the next would pass width. It returns the lines.
func packColumns(cols []string, width int, sep string) []string {
	var lines []string
	var row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			lines = append(lines, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, row...), "\n")...)
			row, rowW = nil, 0
		}
	}
	for _, c := range cols {
		w := lipgloss.Width(c)
		if len(row) > 0 && rowW+textutil.Width(sep)+w > width {
			flush()
		}
		if len(row) > 0 {
			row = append(row, sep)
			rowW += textutil.Width(sep)
		}
		row = append(row, c)
		rowW += w
	}
	flush()
	return lines
}
