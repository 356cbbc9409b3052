package picker

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/sessionref"
)

// browse is a host's section with an always-present row that must not
// win a query by itself, then the files that match.
func browse(f *fakeFiles) Section {
	return Section{ID: "files", Title: "files", OnEmpty: true, Source: func(ctx context.Context, q string) ([]Item, error) {
		items, err := f.list(ctx, q)
		return append([]Item{{Label: "Browse files…", Value: "browse", Manual: true}}, items...), err
	}}
}

// A Manual item is never highlighted by itself, so Tab does not pick it
// for a query that matches nothing else (before or after the answers);
// once the user moves to it, Tab picks it.
func TestManualItemIsPickedOnlyWhenChosen(t *testing.T) {
	m := newTestPicker(&fakeSource{}, WithSection(browse(&fakeFiles{})), WithOrder("files", SessionsID))
	m = openAll(t, m, "zzzq")
	if m.Len() != 1 || m.Pickable() {
		t.Fatalf("rows %d, pickable %v", m.Len(), m.Pickable())
	}
	if v := ansi.Strip(m.View()); strings.Contains(v, "› Browse") {
		t.Fatalf("the Manual row is drawn highlighted:\n%s", v)
	}
	m, _ = m.Update(press("tab"))
	if p, ok := m.TakePick(); ok {
		t.Fatalf("tab picked the Manual row: %+v", p)
	}
	if s := m.Status(); !strings.Contains(s, "nothing matches “zzzq”") {
		t.Fatalf("status %q", s)
	}
	m, _ = m.Update(press("down")) // the user highlights it
	if v := ansi.Strip(m.View()); !strings.Contains(v, "› Browse files…") {
		t.Fatalf("the chosen row is not highlighted:\n%s", v)
	}
	m, _ = m.Update(press("tab"))
	if p, ok := m.TakePick(); !ok || p.Item == nil || p.Item.Value != "browse" {
		t.Fatalf("tab after a move: %+v %v", p, ok)
	}

	// Drawn first, it gives the highlight to the first row after it, and
	// a pick asked for before the answers skips it too.
	m = newTestPicker(&fakeSource{}, WithSection(browse(&fakeFiles{})), WithOrder("files", SessionsID))
	m = openAll(t, m, "parser")
	if it, _, ok := m.HighlightedItem(); !ok || it.Label != "parser.go" {
		t.Fatalf("highlighted %+v %v", it, ok)
	}
	cmd := m.Open("pars")
	m, _ = m.Update(press("tab"))
	_, msgs := settle(m, cmd)
	if p := picked(t, msgs); p.Item == nil || p.Item.Label != "parser.go" {
		t.Fatalf("an early tab picked %+v", p)
	}
}

// A host's section that previews its items shows the highlighted item's
// text beside the rows; one without a preview draws no pane (no "nothing
// highlighted"): its rows take the whole width.
func TestSectionPreviewOrNone(t *testing.T) {
	reads := 0
	preview := func(ctx context.Context, it Item) (string, error) {
		reads++
		if it.Label == "README.md" {
			return "", errors.New("unreadable")
		}
		return "package " + strings.TrimSuffix(it.Label, ".go") + "\n\n// the first lines\x1b[31m", ctx.Err()
	}
	withPreview := Section{ID: "files", Title: "files", Source: (&fakeFiles{}).list, Preview: preview}
	m := newTestPicker(&fakeSource{}, WithSection(withPreview), WithOrder("files", SessionsID))
	m.SetScreenSize(140, 30)
	m.SetAnchor(0, 28)
	cmd := m.Open("parser")
	m, _ = settle(m, cmd)
	if !m.PreviewShown() || reads != 1 {
		t.Fatalf("shown %v after %d reads", m.PreviewShown(), reads)
	}
	p, ok, err := m.PreviewFor()
	if !ok || err != nil || !strings.HasPrefix(p.Text, "package parser") {
		t.Fatalf("preview %+v %v %v", p, ok, err)
	}
	v := ansi.Strip(m.View())
	// The text's escape shows as visible text, never as an escape the
	// terminal would act on.
	if !strings.Contains(v, "│package parser") || !strings.Contains(v, `lines\x1B[31m`) || strings.Count(m.View(), "\x1b[31m") > 0 {
		t.Fatalf("the item's preview is not drawn beside the rows:\n%s", v)
	}
	checkBox(t, m)

	// Without a preview: no pane while an item is highlighted.
	m = newTestPicker(&fakeSource{}, WithSection(filesSection(&fakeFiles{})), WithOrder("files", SessionsID),
		WithPreview(PreviewerFunc(func(context.Context, sessionref.Candidate) (Preview, error) { return Preview{}, nil })))
	m.SetScreenSize(140, 30)
	m.SetAnchor(0, 28)
	cmd = m.Open("parser")
	m, _ = settle(m, cmd)
	if _, _, ok := m.HighlightedItem(); !ok {
		t.Fatal("setup: no item highlighted")
	}
	v = ansi.Strip(m.View())
	if m.PreviewShown() || strings.Contains(v, "nothing highlighted") || strings.Contains(v, "no session highlighted") {
		t.Fatalf("a pane for an item without a preview:\n%s", v)
	}
	if g := m.layout(); g.previewW != 0 || g.innerW != g.rect.W-m.styles.Frame.GetHorizontalFrameSize() {
		t.Fatalf("rows %d of %d cells", g.innerW, g.rect.W)
	}
	checkBox(t, m)
	// A session, which has a preview, brings the pane back.
	for range len(fileCorpus) {
		if _, ok := m.Highlighted(); ok {
			break
		}
		m, _ = m.Update(press("down"))
	}
	if !m.PreviewShown() {
		t.Fatal("no pane for a session")
	}
}
