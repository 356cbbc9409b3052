package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dshkit/mentions/fakestore"
)

// withDiscovery turns discovery on and says, in s-api's messages only, a
// word no title, id or folder holds.
func withDiscovery(o *Options) {
	o.Discover = true
	s := o.Store.(*fakestore.Store)
	s.AppendUser("s-api", "the quokka outage came from the retry loop")
	s.AppendAssistant("s-api", "Yes: the quokka handler retried without backoff.")
}

// TestEndToEndDiscover runs the real program: the index syncs in the
// background, a word said only in a session's messages finds it under
// "in messages", Tab picks it and the message is sent with its token.
func TestEndToEndDiscover(t *testing.T) {
	m, _ := newDemoWith(t, withDiscovery)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitFor(t, tm, "No messages yet")
	tm.Type("compare @quokka")
	waitFor(t, tm, "the quokka outage came from the retry loop")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	tm.Type("please")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Referenced 1 session")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	defer final.Close()
	if final.sentCount != 1 || len(final.events) != 3 || textOf(final.events[1]) != "compare @API rate limits please" {
		t.Fatalf("final: sent %d, events %d", final.sentCount, len(final.events))
	}
	if st, ok := final.IndexStats(); !ok || st.Sessions != 4 || st.Indexed != 4 {
		t.Fatalf("index stats %+v synced=%v", st, ok)
	}
}

// The picker works before the index has synced: titles are found, the
// hits section is simply empty; the status line says indexing is due.
func TestPickerBeforeIndexing(t *testing.T) {
	m, _ := newDemoWith(t, withDiscovery)
	defer m.Close()
	m = drive(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if !strings.Contains(text(m), "indexing…") {
		t.Fatalf("no indexing status:\n%s", text(m))
	}
	m.comp.Focus()
	m = typeIn(m, "@api")
	if p := m.comp.Picker(); len(p.Items()) != 1 || len(p.Hits()) != 0 {
		t.Fatalf("items %d hits %d", len(p.Items()), len(p.Hits()))
	}
}

// With a background build, the index syncs after it, behind its own
// progress line, and then finds what the build made.
func TestIndexAfterBuild(t *testing.T) {
	m, _ := newDemoWith(t, func(o *Options) {
		withDiscovery(o)
		store := o.Store.(*fakestore.Store)
		o.Build = func(ctx context.Context, progress func(done, total int)) error {
			store.Create("s-built", nil, now)
			store.AppendUser("s-built", "a wombat appeared in the build")
			progress(1, 1)
			return nil
		}
	})
	defer m.Close()
	m = drive(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, msg := range run(m.Init()) {
		m = drive(m, msg)
	}
	st, ok := m.IndexStats()
	if !ok || st.Sessions != 5 {
		t.Fatalf("index stats %+v synced=%v", st, ok)
	}
	if strings.Contains(text(m), "indexing") {
		t.Fatalf("the progress line stayed:\n%s", text(m))
	}
	m.comp.Focus()
	m = typeIn(m, "@wombat")
	if hs := m.comp.Picker().Hits(); len(hs) != 1 || hs[0].SessionID != "s-built" {
		t.Fatalf("hits %+v", hs)
	}
}

// BenchmarkStartToSearchable: from a demo's first Init to its 300
// seeded sessions searchable in messages, against the same start without
// discovery (the build alone) as the baseline.
func BenchmarkStartToSearchable(b *testing.B) {
	for _, discover := range []bool{false, true} {
		name := "baseline-build"
		if discover {
			name = "build-and-index"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				m, _ := newDemoWith(b, func(o *Options) {
					o.Discover = discover
					store := o.Store.(*fakestore.Store)
					o.Build = func(ctx context.Context, progress func(done, total int)) error {
						store.Seed(fakestore.SeedOptions{Count: 300, Seed: 1, Now: now})
						progress(300, 300)
						return nil
					}
				})
				for _, msg := range run(m.Init()) {
					m = drive(m, msg)
				}
				if _, ok := m.IndexStats(); ok != discover {
					b.Fatalf("synced=%v", ok)
				}
				m.Close()
			}
		})
	}
}
