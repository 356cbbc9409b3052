package picker

import (
	"charm.land/lipgloss/v2"
)

// Styles is how the picker draws. Meaning never rests on colour alone:
// the highlighted row has a marker, matches are underlined, disabled rows
// say why.
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
}

// DefaultStyles returns styles for a dark or light terminal background.
func DefaultStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#A28CFF"))
	dim := ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	hiBg := ld(lipgloss.Color("#E6E0FF"), lipgloss.Color("#33295C"))
	return Styles{
		Frame:       lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent),
		Row:         lipgloss.NewStyle(),
		Highlighted: lipgloss.NewStyle().Background(hiBg).Bold(true),
		Marker:      lipgloss.NewStyle().Foreground(accent).Bold(true),
		Match:       lipgloss.NewStyle().Underline(true).Foreground(accent),
		Label:       lipgloss.NewStyle(),
		Meta:        lipgloss.NewStyle().Foreground(dim),
		Badge:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#1F7A3D"), lipgloss.Color("#6FD38F"))),
		Disabled:    lipgloss.NewStyle().Foreground(dim).Strikethrough(true),
		Status:      lipgloss.NewStyle().Foreground(dim).Italic(true),
		Error:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#B00020"), lipgloss.Color("#FF6B6B"))),
		Stale:       lipgloss.NewStyle().Foreground(dim),
	}
}
