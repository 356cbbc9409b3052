package picker

import (
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/theme"
)

// Styles is how the picker draws. Meaning never rests on colour alone:
// the highlighted row has a marker, matches are underlined, disabled rows
// say why.
//
// Frame may have any border (or none), padding and margins: the picker
// measures it and keeps rows, clicks and Rect inside it. Row and
// Highlighted style a whole row; the styles of the parts of a row (Label,
// Match, Meta, …) are drawn on top of them, so a highlighted row's
// background and weight cover every cell of it.
type Styles struct {
	Frame       lipgloss.Style
	Row         lipgloss.Style
	Highlighted lipgloss.Style
	Marker      lipgloss.Style
	Match       lipgloss.Style
	Label       lipgloss.Style
	Meta        lipgloss.Style
	Badge       lipgloss.Style
	Disabled    lipgloss.Style
	Status      lipgloss.Style
	Error       lipgloss.Style
	Stale       lipgloss.Style
	// Section is the heading of the hits section ("in messages").
	Section lipgloss.Style
	// Snippet is a hit's line of matching text; its matched terms are
	// drawn in Match over it.
	Snippet lipgloss.Style
}

// DefaultStyles returns styles for a dark or light terminal background,
// in the colours of the module's palette.
func DefaultStyles(isDark bool) Styles { return stylesFrom(theme.Default(isDark)) }

// PlainStyles returns styles without colour: the highlighted row is
// reversed, matches underlined, disabled rows struck through.
func PlainStyles() Styles { return stylesFrom(theme.Plain()) }

func stylesFrom(p theme.Palette) Styles {
	b := lipgloss.NewStyle()
	s := Styles{
		Frame:       b.Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent),
		Row:         b,
		Highlighted: b.Background(p.Highlight).Bold(true),
		Marker:      b.Foreground(p.Accent).Bold(true),
		Match:       b.Underline(true).Foreground(p.Accent),
		Label:       b,
		Meta:        b.Foreground(p.Dim),
		Badge:       b.Foreground(p.Good),
		Disabled:    b.Foreground(p.Dim).Strikethrough(true),
		Status:      b.Foreground(p.Dim).Italic(true),
		Error:       b.Foreground(p.Error),
		Stale:       b.Foreground(p.Dim),
		Section:     b.Foreground(p.Accent).Bold(true),
		Snippet:     b.Foreground(p.Dim),
	}
	if p.Transparent {
		// Without colour, attributes carry the meaning.
		s.Highlighted = b.Reverse(true).Bold(true)
		s.Stale = b.Faint(true)
		s.Error = b.Bold(true)
	}
	return s
}
