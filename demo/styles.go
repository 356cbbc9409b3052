package demo

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/internal/theme"
	"github.com/dshkit/mentions/picker"
)

// styles is how the demo's own parts draw.
type styles struct {
	header, you, bot, body, meta, err, status, title lipgloss.Style
	help                                             help.Styles
}

// newStyles builds the demo's styles from a palette. The plain palette
// carries no colour, so plain styles lean on bold and reverse instead.
func newStyles(p theme.Palette) styles {
	b := lipgloss.NewStyle()
	s := styles{
		header: b.Background(p.HeaderBg).Foreground(p.HeaderFg).Bold(true),
		you:    b.Foreground(p.Accent).Bold(true),
		bot:    b.Foreground(p.Good).Bold(true),
		body:   b.PaddingLeft(2),
		meta:   b.Foreground(p.Dim),
		err:    b.Foreground(p.Error),
		status: b.Foreground(p.Warn).Bold(true),
		title:  b.Foreground(p.Accent).Bold(true),
		help: help.Styles{
			ShortKey:       b.Foreground(p.Accent),
			ShortDesc:      b.Foreground(p.Dim),
			ShortSeparator: b.Foreground(p.Dim),
			Ellipsis:       b.Foreground(p.Dim),
			FullKey:        b.Foreground(p.Accent),
			FullDesc:       b.Foreground(p.Dim),
			FullSeparator:  b.Foreground(p.Dim),
		},
	}
	if p.Transparent {
		s.header = b.Reverse(true)
		s.help.ShortKey = b.Bold(true)
		s.help.FullKey = b.Bold(true)
	}
	return s
}

// componentStyles are the styles handed to the components.
type componentStyles struct {
	picker   picker.Styles
	composer composer.Styles
	card     card.Styles
}

func stylesFor(plain bool, dark bool) componentStyles {
	if plain {
		return componentStyles{picker: picker.PlainStyles(), composer: composer.PlainStyles(), card: card.PlainStyles()}
	}
	return componentStyles{picker: picker.DefaultStyles(dark), composer: composer.DefaultStyles(dark), card: card.DefaultStyles(dark)}
}

func palette(plain, dark bool) theme.Palette {
	if plain {
		return theme.Plain()
	}
	return theme.Default(dark)
}
