package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/teatest"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
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
	t.Parallel()
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
	if p := m.comp.Picker(); len(p.Answer(picker.SessionsID).Candidates) != 1 || len(p.Answer(picker.MessagesID).Hits) != 0 {
		t.Fatalf("items %d hits %d", len(p.Answer(picker.SessionsID).Candidates), len(p.Answer(picker.MessagesID).Hits))
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
	if hs := m.comp.Picker().Answer(picker.MessagesID).Hits; len(hs) != 1 || hs[0].SessionID != "s-built" {
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

// The index follows the store while the demo runs: a word said in a
// session after the first Sync is found once Options.Resync has passed,
// and these later Syncs show no progress line.
func TestIndexFollowsTheStore(t *testing.T) {
	t.Parallel()
	var store *fakestore.Store
	m, _ := newDemoWith(t, func(o *Options) {
		withDiscovery(o)
		store = o.Store.(*fakestore.Store)
		o.Resync = 50 * time.Millisecond
		// The Resync's wait ends at once (no wall clock); no other
		// timer fires.
		o.tick = func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
			if d != o.Resync {
				return nil
			}
			return func() tea.Msg { return f(time.Time{}) }
		}
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	waitFor(t, tm, "No messages yet")
	tm.Type("@quokka") // the first Sync ended: its hit is shown
	waitFor(t, tm, "the quokka outage came from the retry loop")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	if _, err := store.AppendAssistant("s-api", "and a numbat chewed the cable"); err != nil {
		t.Fatal(err)
	}
	// No hit at first; the next Sync finds it and refreshes the picker.
	tm.Type(" @numbat")
	waitFor(t, tm, "a numbat chewed the cable")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(Model)
	final.Close()
}

// A Sync that follows changes runs without a progress line; one runs at
// a time.
func TestResyncIsQuiet(t *testing.T) {
	m, _ := newDemoWith(t, withDiscovery)
	defer m.Close()
	m = drive(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m.index.running = false
	if cmd := m.onResync(); cmd == nil || !m.index.running || !m.index.quiet {
		t.Fatalf("no quiet Sync started: running %v quiet %v", m.index.running, m.index.quiet)
	}
	m.index.done, m.index.total = 3, 10
	if s := m.indexStatus(); s != "" {
		t.Fatalf("a quiet Sync shows %q", s)
	}
	if cmd := m.onResync(); cmd != nil {
		t.Fatal("a second Sync started while one runs")
	}
}

// Over the demo's store and a sessions root, the index's fast path asks
// each id of the store that serves it, and agrees with ReadSurface.
func TestUnionCapturedSeqs(t *testing.T) {
	local, refs := fakestore.New(), fakestore.New()
	ctx := context.Background()
	local.Create("both", nil, now)
	local.AppendUser("both", "one")
	refs.Create("both", nil, now)
	for range 3 {
		refs.AppendUser("both", "more")
	}
	refs.Create("theirs", nil, now)
	refs.AppendUser("theirs", "x")
	refs.AppendAssistant("theirs", "y")
	local.Create("empty", nil, now)
	u := union{local: local, refs: refs}
	ids := []string{"theirs", "both", "empty"}
	seqs, err := u.CapturedSeqs(ctx, ids)
	if err != nil || len(seqs) != len(ids) {
		t.Fatalf("seqs %v, err %v", seqs, err)
	}
	for i, id := range ids {
		s, err := u.ReadSurface(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if (seqs[i] == nil) != (s.CapturedThroughSeq == nil) || seqs[i] != nil && *seqs[i] != *s.CapturedThroughSeq {
			t.Errorf("%s: seq %v, ReadSurface says %v", id, seqs[i], s.CapturedThroughSeq)
		}
	}
	if seqs, err := (union{local: local, refs: plainRefs{refs}}).CapturedSeqs(ctx, ids); seqs != nil || err != nil {
		t.Fatalf("a root without the fast path gave %v, %v", seqs, err)
	}
}

// plainRefs hides a store's fast path.
type plainRefs struct{ sessionref.SessionQuery }

// An index that cannot be made (its directory is not writable, or its
// path is a directory) never stops the demo: it starts without full-text
// search, says why once, and the picker still finds titles.
func TestIndexUnavailableDegrades(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir, dir + "/a\x1b]52;c;x\a/sub\x00/index.sqlite"} {
		m, _ := newDemoWith(t, func(o *Options) {
			withDiscovery(o)
			o.DiscoverPath = path
		})
		m = drive(m, tea.WindowSizeMsg{Width: 100, Height: 30})
		screen := text(m)
		if !strings.Contains(screen, "full-text search is off") {
			t.Fatalf("%q: no notice:\n%s", path, screen)
		}
		if strings.ContainsAny(screen, "\x1b\a\x00") && strings.Contains(screen, "]52;") {
			t.Fatalf("%q: the path reached the screen raw:\n%q", path, screen)
		}
		m.comp.Focus()
		m = typeIn(m, "@api")
		if p := m.comp.Picker(); len(p.Answer(picker.SessionsID).Candidates) != 1 {
			t.Fatalf("%q: items %d", path, len(p.Answer(picker.SessionsID).Candidates))
		}
		m.Close()
	}
}

// The union walks each session's surface from the store that serves it:
// the same events, in order, as ReadSurface, and a walk stops when told.
func TestUnionWalkSurface(t *testing.T) {
	local, refs := fakestore.New(), fakestore.New()
	ctx := context.Background()
	local.Create("mine", nil, now)
	local.AppendUser("mine", "one")
	local.AppendAssistant("mine", "two")
	refs.Create("theirs", nil, now)
	refs.AppendUser("theirs", "x")
	refs.AppendAssistant("theirs", "y")
	for _, u := range []union{{local: local, refs: refs}, {local: local, refs: plainRefs{refs}}} {
		for _, id := range []string{"mine", "theirs"} {
			s, err := u.ReadSurface(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			seq, err := u.WalkSurface(ctx, id, func(e *sessionref.Event) bool {
				texts = append(texts, e.Content[0].Text)
				return true
			})
			if err != nil || seq == nil || *seq != *s.CapturedThroughSeq || len(texts) != len(s.Events) || texts[0] != s.Events[0].Content[0].Text {
				t.Fatalf("%s: walked %v (seq %v, %v), read %d events", id, texts, seq, err, len(s.Events))
			}
			n := 0
			u.WalkSurface(ctx, id, func(*sessionref.Event) bool { n++; return false })
			if n != 1 {
				t.Fatalf("%s: walk went on after false", id)
			}
		}
	}
}

// versioned is a store whose sessions have version tokens.
type versioned struct{ sessionref.SessionQuery }

func (versioned) SessionVersions(_ context.Context, ids []string) ([]string, error) {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "v-" + id
	}
	return out, nil
}

// The union gives the sessions root's ids their store's token and the
// embedded store's none.
func TestUnionSessionVersions(t *testing.T) {
	local, refs := fakestore.New(), fakestore.New()
	local.Create("mine", nil, now)
	refs.Create("theirs", nil, now)
	vs, err := union{local: local, refs: versioned{refs}}.SessionVersions(context.Background(), []string{"theirs", "mine", "theirs"})
	if err != nil || len(vs) != 3 || vs[0] != "v-theirs" || vs[1] != "" || vs[2] != "v-theirs" {
		t.Fatalf("versions %q, %v", vs, err)
	}
	if vs, _ := (union{local: local, refs: refs}).SessionVersions(context.Background(), []string{"theirs"}); vs[0] != "" {
		t.Fatalf("a root without versions gave %q", vs)
	}
}

// outlined is a sessions root that offers outlines, counting them.
type outlined struct {
	sessionref.SessionQuery
	outlines *int
}

func (o outlined) ReadOutline(ctx context.Context, id string) (sessionref.Outline, error) {
	*o.outlines++
	s, err := o.ReadSurface(ctx, id)
	if err != nil {
		return sessionref.Outline{}, err
	}
	return sessionref.SurfaceOutline(s), nil
}

// The union passes a sessions root's outlines through, so Prepare holds
// of a huge log only what its snapshot keeps; the embedded store's
// sessions and a root without outlines give the snapshot ReadSurface
// would.
func TestUnionReadOutline(t *testing.T) {
	local, refs := fakestore.New(), fakestore.New()
	ctx := context.Background()
	local.Create("mine", nil, now)
	local.AppendUser("mine", "one")
	refs.Create("theirs", nil, now)
	refs.AppendUser("theirs", "x")
	refs.AppendAssistant("theirs", "y")
	asked := 0
	for _, u := range []union{{local: local, refs: outlined{refs, &asked}}, {local: local, refs: plainRefs{refs}}} {
		r, err := sessionref.NewResolver(u, sessionref.Config{})
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := sessionref.NewResolver(plainRefs{u}, sessionref.Config{})
		for _, id := range []string{"mine", "theirs"} {
			refs := []sessionref.Reference{{SessionID: id}}
			a, err := r.Prepare(ctx, sessionref.Target{ID: "t"}, nil, refs)
			if err != nil {
				t.Fatal(err)
			}
			b, err := plain.Prepare(ctx, sessionref.Target{ID: "t"}, nil, refs)
			if err != nil || a.Context.Prompt() != b.Context.Prompt() {
				t.Fatalf("%s: the outline's snapshot is not the surface's (%v)", id, err)
			}
		}
	}
	if asked != 1 {
		t.Fatalf("the root's outline was asked %d times for its one session, want 1", asked)
	}
}
