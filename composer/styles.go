package composer

import "charm.land/lipgloss/v2"

// Styles is how the composer draws. A token reads as "@label" without
// colour; colour only adds to it.
type Styles struct {
	Prompt      lipgloss.Style
	Text        lipgloss.Style
	Placeholder lipgloss.Style
	Cursor      lipgloss.Style
	Token       lipgloss.Style
	Footer      lipgloss.Style
	Error       lipgloss.Style
	Busy        lipgloss.Style
}

// DefaultStyles returns styles for a dark or light terminal background.
func DefaultStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#A28CFF"))
	dim := ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A"))
	return Styles{
		Prompt:      lipgloss.NewStyle().Foreground(accent).Bold(true),
		Text:        lipgloss.NewStyle(),
		Placeholder: lipgloss.NewStyle().Foreground(dim),
		Cursor:      lipgloss.NewStyle().Reverse(true),
		Token:       lipgloss.NewStyle().Foreground(accent).Background(ld(lipgloss.Color("#ECE8FF"), lipgloss.Color("#2A2350"))).Bold(true),
		Footer:      lipgloss.NewStyle().Foreground(dim),
		Error:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#B00020"), lipgloss.Color("#FF6B6B"))),
		Busy:        lipgloss.NewStyle().Foreground(accent).Italic(true),
	}
}
