package picker

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// BenchmarkHighlightMove is the cost of one ↓ over 20 rows, the Update
// alone and the Update with the View drawn after it, with the preview
// off and on: on with every preview cached (what moving back and forth
// costs), and on while a read runs (every move cancels it or waits, the
// read itself in its Cmd, not here).
func BenchmarkHighlightMove(b *testing.B) {
	p := &countingPreviewer{}
	for _, mode := range []string{"off", "on-cached", "on-reading"} {
		opts := []Option{withMaxRows(20)}
		if mode != "off" {
			opts = append(opts, WithPreview(p))
		}
		m := newTestPicker(&fakeSource{items: manyRows(20)}, opts...)
		m.SetScreenSize(160, 40)
		m.SetAnchor(2, 38)
		cmd := m.Open("")
		m, _ = drain(m, cmd)
		if mode == "on-cached" {
			for range 20 {
				m, cmd = m.Update(press("down"))
				m, _ = drain(m, cmd)
			}
		}
		down := press("down")
		for _, view := range []bool{false, true} {
			name := mode + "/update"
			if view {
				name = mode + "/update+view"
			}
			b.Run(name, func(b *testing.B) {
				mm := m
				for i := 0; i < b.N; i++ {
					mm, _ = mm.Update(down)
					if view {
						_ = mm.View()
					}
				}
			})
		}
	}
}

// bigSession adds a session whose snapshot fills the default 64 KiB
// budget: 200 messages of about 600 bytes.
func bigSession(b *testing.B, s *fakestore.Store, id string) {
	cwd := "/home/dev/src/mentions"
	if err := s.Create(id, &cwd, testNow.Add(-time.Hour)); err != nil {
		b.Fatal(err)
	}
	s.SetTitle(id, "big "+id)
	line := strings.Repeat("the retry loop was off by one and the parser dropped a token; ", 10)
	for i := range 100 {
		s.AppendUser(id, fmt.Sprintf("%d %s", i, line))
		s.AppendAssistant(id, fmt.Sprintf("%d %s", i, line))
	}
}

// BenchmarkPreview64KiB is the time from a move onto a session not yet
// read to its preview drawn, over the embedded store: the Update of the
// key, the read in its Cmd (Prepare of a 64 KiB snapshot, read back), the
// Update of its answer and the View that shows it.
func BenchmarkPreview64KiB(b *testing.B) {
	s := fakestore.New(fakestore.WithClock(func() time.Time { return testNow }))
	cwd := "/home/dev/src/mentions"
	s.Create("current", &cwd, testNow)
	bigSession(b, s, "big-a")
	bigSession(b, s, "big-b")
	target := sessionref.Target{ID: "current", Cwd: &cwd}
	r, err := sessionref.NewResolver(s, sessionref.Config{})
	if err != nil {
		b.Fatal(err)
	}
	m := newTestPicker(ResolverSource(r, 20), withTarget(target), WithPreview(ResolverPreviewer(r)))
	m.SetScreenSize(200, 60)
	m.SetAnchor(2, 58)
	cmd := m.Open("big")
	m, _ = drain(m, cmd)
	pv, ok, _ := m.PreviewFor()
	if !ok || pv.Bytes < 60<<10 || !pv.Record.Truncated {
		b.Fatalf("want a full 64 KiB snapshot, got %d bytes (%+v)", pv.Bytes, pv.Record)
	}
	keys := []tea.KeyPressMsg{press("down"), press("up")}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.pv.cache = nil // not read yet
		m, cmd = m.Update(keys[i%2])
		m, _ = drain(m, cmd)
		if v := m.View(); !strings.Contains(v, "kept") {
			b.Fatal("no preview drawn")
		}
	}
}
