package theme

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestPlainHasNoColour(t *testing.T) {
	p := Plain()
	s := lipgloss.NewStyle().Foreground(p.Accent).Background(p.Highlight).Bold(true).Render("x")
	if strings.Contains(s, "38;") || strings.Contains(s, "48;") {
		t.Fatalf("plain palette rendered a colour: %q", s)
	}
	if !strings.Contains(s, "x") {
		t.Fatalf("lost the text: %q", s)
	}
}

func TestDefaultDiffersByBackground(t *testing.T) {
	dark, light := Default(true), Default(false)
	if dark.Accent == light.Accent || dark.Highlight == light.Highlight {
		t.Fatal("dark and light palettes share their accent or highlight")
	}
	if dark.Transparent || light.Transparent {
		t.Fatal("a colour palette says it is transparent")
	}
}
