package card

import (
	gansi "charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/internal/theme"
)

// Styles is how a card draws. Glyphs and words carry the meaning; colour
// only adds to it, so [PlainStyles] loses nothing. Set them with
// [Model.SetStyles].
type Styles struct {
	// Frame surrounds the whole card; its horizontal frame size (border
	// and padding, as lipgloss measures it) is taken from the width.
	Frame lipgloss.Style
	// Title is the "▸ Referenced 2 sessions:" lead.
	Title lipgloss.Style
	// Label is a referenced session's label.
	Label lipgloss.Style
	// Meta is ids, counts, separators and hints.
	Meta lipgloss.Style
	// Flag marks "compacted" and "truncated".
	Flag lipgloss.Style
	// Role is the "You:" and "Assistant:" lines of an expanded card.
	Role lipgloss.Style
	// Warning is the line of a card that could not be read.
	Warning lipgloss.Style
	// Markdown is the glamour style of an expanded card's conversation.
	// Code blocks are never syntax highlighted, whatever it says.
	Markdown gansi.StyleConfig
}

// DefaultStyles returns styles for a dark or light terminal background,
// from the shared palette.
func DefaultStyles(isDark bool) Styles {
	md := styles.LightStyleConfig
	if isDark {
		md = styles.DarkStyleConfig
	}
	return stylesFrom(theme.Default(isDark), md)
}

// PlainStyles returns styles without colour, for NO_COLOR terminals and
// screen readers: the same glyphs and words, bold at most.
func PlainStyles() Styles {
	return stylesFrom(theme.Plain(), styles.NoTTYStyleConfig)
}

// Unframed returns s without a frame (no border, no padding), for a host
// that draws the card inside its own message frame, such as a coloured
// bar down the left of each message: the card then takes the whole
// width it is given and adds no bar of its own.
//
//	c.SetStyles(card.DefaultStyles(isDark).Unframed())
func (s Styles) Unframed() Styles {
	s.Frame = lipgloss.NewStyle()
	return s
}

func stylesFrom(p theme.Palette, md gansi.StyleConfig) Styles {
	return Styles{
		Frame:    lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(p.Accent).PaddingLeft(1),
		Title:    lipgloss.NewStyle().Foreground(p.Accent).Bold(true),
		Label:    lipgloss.NewStyle().Bold(true),
		Meta:     lipgloss.NewStyle().Foreground(p.Dim),
		Flag:     lipgloss.NewStyle().Foreground(p.Warn),
		Role:     lipgloss.NewStyle().Foreground(p.Accent).Bold(true),
		Warning:  lipgloss.NewStyle().Foreground(p.Error),
		Markdown: md,
	}
}
