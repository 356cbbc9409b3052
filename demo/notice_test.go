package demo

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHeaderKeepsStoreCounts: a header too wide for 80 columns gives up
// the demo's name, the middle of the cwd and the end of the title before
// it cuts into where sessions come from, whose counts come first.
func TestHeaderKeepsStoreCounts(t *testing.T) {
	for _, w := range []int{80, 100} {
		m, _ := startWith(t, w, 24, func(o *Options) {
			cwd := "/home/dev/src/github.com/dshkit/mentions"
			o.Current.Cwd = &cwd
			o.Title = "Mentions demo of a long session title"
			o.StoreName = "300 generated + 77 DeepSeek Harness sessions in /work/shared/testdata/dshlogs"
		})
		h := ansi.Strip(m.header())
		if !strings.Contains(h, "300 generated + 77 DeepSeek Harness sessions") {
			t.Errorf("%d columns: header cuts the counts: %q", w, h)
		}
		if !strings.HasPrefix(h, " Mentions") || !strings.Contains(h, "~/src") {
			t.Errorf("%d columns: header lost the title or the cwd: %q", w, h)
		}
	}
	// Wide enough: nothing is given up.
	m, _ := startWith(t, 200, 24, func(o *Options) {
		o.StoreName = "300 generated + 77 DeepSeek Harness sessions in /work/shared/testdata/dshlogs"
	})
	if h := ansi.Strip(m.header()); !strings.HasPrefix(h, " mentions demo · Demo · ~/src/mentions · 300 generated") || strings.Contains(h, "…") {
		t.Errorf("200 columns: %q", h)
	}
}

// TestNoticeShown: Options.Notice (why a source offers no sessions) is on
// screen above the composer, whole, at the smallest size too.
func TestNoticeShown(t *testing.T) {
	const notice = "0 DeepSeek Harness sessions in /logs (80 logs directly in it, not read; expected <root>/<project>/<session>/session.jsonl)"
	for _, sz := range [][2]int{{40, 12}, {80, 24}} {
		m, _ := startWith(t, sz[0], sz[1], func(o *Options) { o.Notice = notice })
		flat := strings.Join(strings.Fields(text(m)), "")
		if !strings.Contains(flat, strings.Join(strings.Fields(notice), "")) {
			t.Errorf("%v: the notice is not on screen whole:\n%s", sz, text(m))
		}
		if lines := strings.Split(text(m), "\n"); len(lines) > sz[1] {
			t.Errorf("%v: %d lines", sz, len(lines))
		}
	}
	m, _ := startWith(t, 80, 24, nil)
	if strings.Contains(text(m), "expected <root>") {
		t.Fatal("a notice without Options.Notice")
	}
}

// TestIndexProgressThenNotice: while the index builds its progress is
// the status line; once it is done the notice is back.
func TestIndexProgressThenNotice(t *testing.T) {
	m, _ := startWith(t, 80, 24, func(o *Options) { o.Notice = "0 DeepSeek Harness sessions in /logs" })
	m.index.running, m.index.done, m.index.total = true, 3, 10
	if s := ansi.Strip(m.statusView()); !strings.Contains(s, "indexing 3/10") {
		t.Fatalf("while indexing: %q", s)
	}
	m.index.running = false
	if s := ansi.Strip(m.statusView()); !strings.Contains(s, "0 DeepSeek Harness sessions in /logs") {
		t.Fatalf("after indexing: %q", s)
	}
}
