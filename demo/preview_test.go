package demo

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/sessionref"
)

var altP = tea.KeyPressMsg{Code: 'p', Mod: tea.ModAlt}

func withPreview(o *Options) { o.Preview = true }

// TestGoldenPreview: with Options.Preview the picker shows, beside its
// rows, what the model would receive of the highlighted session.
func TestGoldenPreview(t *testing.T) {
	sc := scenario{"preview", sessionref.Config{}, func(m Model) Model { return typeIn(m, "see @pars") }}
	m := at(t, sc, 120, 40, withPreview)
	got := text(m)
	if !strings.Contains(got, " kept") || !strings.Contains(got, "▸ ") {
		t.Fatalf("no preview beside the rows:\n%s", got)
	}
	golden.RequireEqual(t, trimRight(got))
}

// Narrower than 100 columns, alt+p shows the preview in place of the
// rows and back; F1 names the key and the mouse's part only when the
// preview is on.
func TestPreviewNarrowAndHelp(t *testing.T) {
	m, _ := startWith(t, 80, 24, withPreview)
	m = typeIn(m, "see @pars")
	rows := text(m)
	if strings.Contains(rows, " kept") {
		t.Fatalf("80 columns: no preview until alt+p:\n%s", rows)
	}
	if !strings.Contains(rows, "alt+p/f2 preview") {
		t.Fatalf("the footer names alt+p and f2:\n%s", rows)
	}
	m = drive(m, altP)
	if got := text(m); !strings.Contains(got, " kept") || !strings.Contains(got, "alt+p/f2 rows") || !m.comp.Picker().IsOpen() {
		t.Fatalf("alt+p: preview in place of the rows:\n%s", got)
	}
	if got := text(drive(m, altP)); got != rows {
		t.Fatalf("alt+p again: the rows:\n%s", got)
	}
	help := text(drive(drive(m, esc), f1))
	for _, want := range []string{"alt+p", "preview"} {
		if !strings.Contains(help, want) {
			t.Fatalf("F1 does not name %q:\n%s", want, help)
		}
	}
	off, _ := startWith(t, 80, 24, nil)
	if strings.Contains(text(drive(off, f1)), "alt+p") {
		t.Fatal("F1 names alt+p without the preview")
	}
}
