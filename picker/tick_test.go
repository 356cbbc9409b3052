package picker

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The "searching…" delay goes through the injected tick: its duration is
// WithSlowAfter's, and the row shows when the tick fires, not before.
func TestTickIsInjected(t *testing.T) {
	var asked []time.Duration
	var fire func(time.Time) tea.Msg
	tick := func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		asked, fire = append(asked, d), fn
		return nil
	}
	src := slowSource{make(chan struct{})}
	defer close(src.release)
	m, _ := opened(newTestPicker(src, WithSlowAfter(42*time.Millisecond), WithTick(tick)), "x")
	if len(asked) != 1 || asked[0] != 42*time.Millisecond {
		t.Fatalf("ticks asked: %v", asked)
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "searching") {
		t.Fatalf("searching before the tick fired:\n%s", v)
	}
	m, _ = m.Update(fire(time.Time{}))
	if v := ansi.Strip(m.View()); !strings.Contains(v, "searching “x”…") {
		t.Fatalf("no searching row after the tick:\n%s", v)
	}
}
