package demo

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
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
	// The store's root goes before the title and the cwd are cut.
	m, _ := startWith(t, 100, 24, func(o *Options) {
		o.Title = "Fix the flaky CI"
		o.StoreName = "300 generated + 77 DeepSeek Harness sessions in /work/shared/testdata/dshlogs/and/deeper"
	})
	if h := ansi.Strip(m.header()); !strings.HasPrefix(h, " Fix the flaky CI · ~/src/mentions · 300 generated + 77 DeepSeek Harness sessions in /w") || !strings.HasSuffix(strings.TrimRight(h, " "), "…") {
		t.Errorf("100 columns: the title or cwd is cut before the root: %q", h)
	}
	// A title that says "mentions demo" is not preceded by the demo's name.
	m, _ = startWith(t, 80, 24, func(o *Options) {
		o.Title = "Mentions demo"
		o.StoreName = "fakestore, 300 sessions"
	})
	if h := ansi.Strip(m.header()); strings.TrimRight(h, " ") != " Mentions demo · ~/src/mentions · fakestore, 300 sessions" {
		t.Errorf("80 columns, default title: %q", h)
	}
	// Wide enough: nothing is given up.
	m, _ = startWith(t, 200, 24, func(o *Options) {
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
	// The store holds the session written in besides the sessions the
	// header counts: the progress counts as the header does.
	m.index.running, m.index.done, m.index.total = true, 3, 11
	if s := ansi.Strip(m.statusView()); !strings.Contains(s, "indexing 3/10") {
		t.Fatalf("while indexing: %q", s)
	}
	m.index.done = 11
	if s := ansi.Strip(m.statusView()); !strings.Contains(s, "indexing 10/10") {
		t.Fatalf("at the end: %q", s)
	}
	m.index.running = false
	if s := ansi.Strip(m.statusView()); !strings.Contains(s, "0 DeepSeek Harness sessions in /logs") {
		t.Fatalf("after indexing: %q", s)
	}
}

// TestNoticeGoesOnFirstKeyF1KeepsIt: the notice is on screen at the
// start with no line of punctuation alone (at 40 columns its path used to
// leave a ")" on a line of its own); the first key hides it and still
// does its own job, a click does too, and F1 shows the notice whole.
func TestNoticeGoesOnFirstKeyF1KeepsIt(t *testing.T) {
	const notice = "0 DeepSeek Harness sessions in /tmp/dshlogs (80 logs directly in it, not read; expected <root>/<project>/<session>/session.jsonl)"
	flat := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for _, sz := range [][2]int{{40, 12}, {80, 24}} {
		m, _ := startWith(t, sz[0], sz[1], func(o *Options) { o.Notice = notice })
		sc := text(m)
		if !strings.Contains(flat(sc), flat(notice)) || !strings.Contains(flat(sc), "f1showsthisagain") {
			t.Fatalf("%v: the notice is not on screen whole:\n%s", sz, sc)
		}
		for _, l := range strings.Split(sc, "\n") {
			if textutil.OnlyPunct(l) {
				t.Errorf("%v: a line of punctuation alone: %q\n%s", sz, l, sc)
			}
		}
		typed := typeIn(m, "x")
		if sc := text(typed); strings.Contains(sc, "expected <root>") || typed.comp.Canonical() != "x" {
			t.Fatalf("%v: after a key: draft %q\n%s", sz, typed.comp.Canonical(), sc)
		}
		clicked := drive(m, tea.MouseClickMsg{X: 1, Y: 2, Button: tea.MouseLeft})
		if sc := text(clicked); strings.Contains(sc, "expected <root>") {
			t.Fatalf("%v: after a click:\n%s", sz, sc)
		}
		help := drive(typed, f1)
		var seen strings.Builder
		for range 3 {
			seen.WriteString(text(help) + "\n")
			help = drive(help, pgUp)
		}
		if !strings.Contains(flat(seen.String()), flat(notice)) {
			t.Fatalf("%v: F1 does not keep the notice:\n%s", sz, seen.String())
		}
		// Back from F1, it stays hidden.
		if sc := text(drive(help, esc)); strings.Contains(sc, "expected <root>") {
			t.Fatalf("%v: the notice came back:\n%s", sz, sc)
		}
	}
}

// TestLongNoticeKeepsTheComposer: a notice longer than a 40x12 screen can
// hold is cut above the composer, which stays in view with its hints,
// and says F1 shows it all.
func TestLongNoticeKeepsTheComposer(t *testing.T) {
	notice := strings.Repeat("a log whose header does not match its folder was not read; ", 12)
	m, _ := startWith(t, 40, 12, func(o *Options) { o.Notice = notice })
	screen := text(m)
	for _, want := range []string{"› Message", "f1", "shows all"} {
		if !strings.Contains(screen, want) {
			t.Errorf("%q is not on screen:\n%s", want, screen)
		}
	}
	if lines := strings.Split(screen, "\n"); len(lines) > 12 {
		t.Errorf("%d lines", len(lines))
	}
}

// TestSourcesInF1: F1 lists each source on its own line, above the
// notice, whole at 80 columns.
func TestSourcesInF1(t *testing.T) {
	sources := []string{
		"DeepSeek Harness: 3 sessions in /home/ann/.dsh/sessions",
		"Claude Code: 12 sessions in /home/ann/.claude/projects; passed over: 2 × a subagent's transcript (not a conversation of its own)",
		"Codex: no history (looked for /home/ann/.codex/sessions and /home/ann/.codex/archived_sessions; set CODEX_HOME to read another): it does not exist",
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), "") }
	m, _ := startWith(t, 80, 24, func(o *Options) { o.Sources = sources; o.Notice = "Codex: no history" })
	sc := text(drive(m, f1))
	at := -1
	for _, s := range sources {
		i := strings.Index(flat(sc), flat(s))
		if i < 0 || i < at {
			t.Fatalf("F1 lacks %q or lists it out of order:\n%s", s, sc)
		}
		at = i
	}
	if !strings.Contains(sc, "Sessions") {
		t.Fatalf("no Sessions section:\n%s", sc)
	}
}
