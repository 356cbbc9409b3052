package theme

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
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

// TestRenderKeepsClustersWhole: underline and strikethrough wrap the whole
// text, so no escape sequence lands inside a flag, a ZWJ family or a
// keycap, and the styled text measures what the text does.
func TestRenderKeepsClustersWhole(t *testing.T) {
	text := "🇯🇵🇫🇷 👨\u200d👩\u200d👧 1\uFE0F\u20E3 ok"
	for _, st := range []lipgloss.Style{
		lipgloss.NewStyle().Underline(true),
		lipgloss.NewStyle().Strikethrough(true).Foreground(lipgloss.Color("#ff0000")),
		lipgloss.NewStyle().Underline(true).Strikethrough(true).Bold(true),
	} {
		out := Render(st, text)
		if got := ansi.Strip(out); got != text {
			t.Fatalf("text changed: %q", got)
		}
		if w, want := ansi.StringWidth(out), ansi.StringWidth(text); w != want {
			t.Fatalf("width %d, want %d: %q", w, want, out)
		}
		inner := strings.Index(out, "🇯")
		if inner < 0 || strings.Contains(out[inner:strings.Index(out, " ok")], "\x1b") {
			t.Fatalf("an escape sequence inside the text: %q", out)
		}
		if !strings.HasPrefix(out, "\x1b[") {
			t.Fatalf("not styled: %q", out)
		}
	}
	// Styles without those attributes, and text over lines, are lipgloss's.
	bold := lipgloss.NewStyle().Bold(true)
	if Render(bold, text) != bold.Render(text) {
		t.Fatal("a bold style should render as lipgloss renders it")
	}
	ul := lipgloss.NewStyle().Underline(true)
	if Render(ul, "a\nb") != ul.Render("a\nb") {
		t.Fatal("text over lines should render as lipgloss renders it")
	}
}

// A style with a size or a frame is lipgloss's to lay out: Render leaves
// it whole.
func TestRenderLeavesSizedStylesToLipgloss(t *testing.T) {
	for _, st := range []lipgloss.Style{
		lipgloss.NewStyle().Underline(true).Width(10),
		lipgloss.NewStyle().Strikethrough(true).Padding(0, 1),
		lipgloss.NewStyle().Underline(true).Border(lipgloss.NormalBorder()),
	} {
		if got, want := Render(st, "hello"), st.Render("hello"); got != want {
			t.Fatalf("Render %q, lipgloss %q", got, want)
		}
	}
}
