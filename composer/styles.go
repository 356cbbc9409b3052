package composer

import (
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/theme"
)

// Styles is how the composer draws. Meaning never rests on colour alone:
// a token reads as "@label", an error starts with "✗" and a problem is
// said in words, so [PlainStyles] loses nothing.
type Styles struct {
	Prompt      lipgloss.Style
	Text        lipgloss.Style
	Placeholder lipgloss.Style
	// Cursor draws the virtual cursor (see [Model.SetVirtualCursor]).
	Cursor lipgloss.Style
	Token  lipgloss.Style
	// Footer is the hint line under the draft.
	Footer lipgloss.Style
	// Warning is a problem with the draft the footer points out before
	// sending (too many sessions, nothing to pick).
	Warning lipgloss.Style
	// Error is a failed submit.
	Error lipgloss.Style
	// Busy is the line shown while a submit is preparing.
	Busy lipgloss.Style
}

// DefaultStyles returns styles for a dark or light terminal background.
func DefaultStyles(isDark bool) Styles { return stylesFrom(theme.Default(isDark)) }

// PlainStyles returns styles without colour: only bold, faint, italic,
// underline and reverse, for NO_COLOR and monochrome terminals.
func PlainStyles() Styles { return stylesFrom(theme.Plain()) }

func stylesFrom(p theme.Palette) Styles {
	s := lipgloss.NewStyle()
	st := Styles{
		Prompt:      s.Foreground(p.Accent).Bold(true),
		Text:        s,
		Placeholder: s.Foreground(p.Dim),
		Cursor:      s.Reverse(true),
		Token:       s.Foreground(p.Accent).Background(p.TokenBg).Bold(true),
		Footer:      s.Foreground(p.Dim),
		Warning:     s.Foreground(p.Warn).Bold(true),
		Error:       s.Foreground(p.Error),
		Busy:        s.Foreground(p.Accent).Italic(true),
	}
	if p.Transparent {
		// Attributes stand in for what colour says.
		st.Placeholder = s.Faint(true)
		st.Token = s.Bold(true).Underline(true)
		st.Error = s.Bold(true)
	}
	return st
}
