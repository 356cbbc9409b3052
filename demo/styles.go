package demo

import (
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/picker"
)

type tstyles struct {
	header, you, bot, body, meta, err lipgloss.Style
}

func transcriptStyles(plain bool) tstyles {
	if plain {
		b := lipgloss.NewStyle()
		return tstyles{header: b.Reverse(true), you: b.Bold(true), bot: b.Bold(true), body: b.PaddingLeft(2), meta: b, err: b}
	}
	return tstyles{
		header: lipgloss.NewStyle().Background(lipgloss.Color("#3B2F7A")).Foreground(lipgloss.Color("#F2F0FF")).Bold(true),
		you:    lipgloss.NewStyle().Foreground(lipgloss.Color("#A28CFF")).Bold(true),
		bot:    lipgloss.NewStyle().Foreground(lipgloss.Color("#6FD38F")).Bold(true),
		body:   lipgloss.NewStyle().PaddingLeft(2),
		meta:   lipgloss.NewStyle().Foreground(lipgloss.Color("#8A8A8A")),
		err:    lipgloss.NewStyle().Foreground(lipgloss.Color("#FF6B6B")),
	}
}

// plainPickerStyles keep the picker's glyphs and underline, without colour.
func plainPickerStyles() picker.Styles {
	b := lipgloss.NewStyle()
	return picker.Styles{
		Frame: b.Border(lipgloss.RoundedBorder()), Row: b, Highlighted: b.Reverse(true), Marker: b.Bold(true),
		Match: b.Underline(true), Label: b, Meta: b, Badge: b, Disabled: b.Strikethrough(true), Status: b.Italic(true), Error: b, Stale: b.Faint(true),
	}
}

func plainComposerStyles() composer.Styles {
	b := lipgloss.NewStyle()
	return composer.Styles{Prompt: b.Bold(true), Text: b, Placeholder: b.Faint(true), Cursor: b.Reverse(true), Token: b.Bold(true).Underline(true), Footer: b, Error: b.Bold(true), Busy: b.Italic(true)}
}
