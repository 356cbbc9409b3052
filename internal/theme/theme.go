// Package theme is the one palette the components draw with. Each
// package's DefaultStyles builds its styles from a Palette, so a host that
// wants other colours changes them in one place per package, and the
// packages never disagree about what "accent" or "dim" means.
package theme

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
)

// Palette is the set of colours the components use. Meaning never rests
// on colour alone: every coloured thing also has a glyph or a word.
type Palette struct {
	Accent      color.Color // prompt, frames, markers, token text
	Dim         color.Color // metadata, hints, disabled rows
	Highlight   color.Color // background of the highlighted row
	TokenBg     color.Color // background of a mention token
	Good        color.Color // "this dir" badges, confirmations
	Warn        color.Color // flags such as "truncated"
	Error       color.Color // errors
	HeaderBg    color.Color // a host's title bar background
	HeaderFg    color.Color // a host's title bar text
	Transparent bool        // true for the no-colour palette
}

// Default returns the palette for a dark or light terminal background.
func Default(isDark bool) Palette {
	ld := lipgloss.LightDark(isDark)
	return Palette{
		Accent:    ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#A28CFF")),
		Dim:       ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#8A8A8A")),
		Highlight: ld(lipgloss.Color("#E6E0FF"), lipgloss.Color("#33295C")),
		TokenBg:   ld(lipgloss.Color("#ECE8FF"), lipgloss.Color("#2A2350")),
		Good:      ld(lipgloss.Color("#1F7A3D"), lipgloss.Color("#6FD38F")),
		Warn:      ld(lipgloss.Color("#8A5A00"), lipgloss.Color("#E5B567")),
		Error:     ld(lipgloss.Color("#B00020"), lipgloss.Color("#FF6B6B")),
		HeaderBg:  ld(lipgloss.Color("#E6E0FF"), lipgloss.Color("#3B2F7A")),
		HeaderFg:  ld(lipgloss.Color("#1E1440"), lipgloss.Color("#F2F0FF")),
	}
}

// Plain returns the no-colour palette: every colour is "no colour", so
// styles built from it carry only attributes (bold, faint, italic,
// underline, strikethrough, reverse).
func Plain() Palette {
	none := lipgloss.NoColor{}
	return Palette{
		Accent: none, Dim: none, Highlight: none, TokenBg: none, Good: none,
		Warn: none, Error: none, HeaderBg: none, HeaderFg: none, Transparent: true,
	}
}

// Render draws one line of text in st. Underline and strikethrough are
// applied around the whole line rather than a character at a time, so a
// cluster of several code points (a flag, a ZWJ family, a keycap) is never
// split by escape sequences: lipgloss before v2.1.0 styled those
// attributes one rune at a time, which made a terminal count such a
// cluster as several. Text with newlines, and styles with padding, margins,
// borders or a size, go to st.Render unchanged.
func Render(st lipgloss.Style, text string) string {
	if !st.GetUnderline() && !st.GetStrikethrough() || strings.Contains(text, "\n") ||
		st.GetWidth() > 0 || st.GetHeight() > 0 || st.GetMaxWidth() > 0 ||
		st.GetHorizontalFrameSize() > 0 || st.GetVerticalFrameSize() > 0 {
		return st.Render(text)
	}
	pre, post, ok := strings.Cut(st.Render("x"), "x")
	if !ok || strings.Contains(post, "x") {
		return st.Render(text)
	}
	return pre + text + post
}
