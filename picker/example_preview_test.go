package picker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// previewed is a store with one session that says two things.
func previewed() (*sessionref.Resolver, sessionref.Target) {
	store := fakestore.New()
	store.Create("alpha", nil, fakestore.DefaultNow)
	store.SetTitle("alpha", "Fix the parser")
	store.AppendUser("alpha", "why does the parser drop the last token?")
	store.AppendAssistant("alpha", "The loop stopped one short; fixed, with a test.")
	r, _ := sessionref.NewResolver(store, sessionref.Config{})
	return r, sessionref.Target{ID: "current"}
}

// lastLines prints the last n content lines of a view, frame removed.
func lastLines(view string, n int) {
	lines := strings.Split(ansi.Strip(view), "\n")
	for _, l := range lines[len(lines)-1-n : len(lines)-1] {
		fmt.Println(strings.TrimRight(strings.Trim(l, "│"), " "))
	}
}

// A host turns the preview on with the same resolver its sends use. In a
// pane narrower than PreviewMinWidth the Preview key (alt+p or F2) shows it in
// place of the rows.
func ExampleWithPreview() {
	r, current := previewed()
	p := picker.New(picker.ResolverSource(r, 20), picker.WithPreview(picker.ResolverPreviewer(r)))
	p.SetTarget(current)
	p.SetStyles(picker.PlainStyles())
	p.SetScreenSize(60, 20)
	p.SetAnchor(0, 18)
	cmd := p.Open("parser")
	p = feed(p, cmd)
	h := p.KeyMap().Preview.Help()
	fmt.Println(p.PreviewShown(), h.Key, h.Desc)

	p, cmd = p.Update(tea.KeyPressMsg{Code: 'p', Mod: tea.ModAlt})
	p = feed(p, cmd)
	fmt.Println(p.PreviewShown())
	lastLines(p.View(), 12)
	// Output:
	// false alt+p/f2 preview
	// true
	// @Fix the parser                              alt+p/f2 rows
	// alpha 2/2 kept
	// ▸ user
	//   why does the parser drop the last token?
	//
	// ▸ assistant
	//   The loop stopped one short; fixed, with a test.
}

// ResolverPreviewer captures a session through the resolver's Prepare,
// as a send would: the same record, the same snapshot.
func ExampleResolverPreviewer() {
	r, current := previewed()
	ctx := picker.ContextWithTarget(context.Background(), current) // as the picker's reads carry it
	pv, err := picker.ResolverPreviewer(r).Preview(ctx,
		sessionref.Candidate{SessionID: "alpha", Label: "Fix the parser"})
	fmt.Println(err, pv.Record.RetainedMessages, pv.Record.OriginalMessages, pv.Snapshot.Label, len(pv.Snapshot.Conversation))
	// Output:
	// <nil> 2 2 Fix the parser 2
}

// A host with its own capture path adapts a function; its error shows in
// the preview in the words of sessionref.Describe.
func ExamplePreviewerFunc() {
	failing := picker.PreviewerFunc(func(ctx context.Context, c sessionref.Candidate) (picker.Preview, error) {
		return picker.Preview{}, errors.New("the archive is offline")
	})
	cands := []sessionref.Candidate{{SessionID: "alpha", Label: "Fix the parser"}}
	p := picker.New(picker.SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) { return cands, nil }),
		picker.WithPreview(failing))
	p.SetStyles(picker.PlainStyles())
	p.SetScreenSize(120, 20)
	p.SetAnchor(0, 18)
	cmd := p.Open("")
	p = feed(p, cmd)
	_, ok, err := p.PreviewFor()
	fmt.Println(ok, err)
	// Output:
	// true the archive is offline
}

// The cache's budget is in bytes of snapshot.
func ExampleWithPreviewCache() {
	r, current := previewed()
	p := picker.New(picker.ResolverSource(r, 20),
		picker.WithPreview(picker.ResolverPreviewer(r)), picker.WithPreviewCache(1<<20))
	p.SetTarget(current)
	fmt.Println(p.PreviewShown())
	// Output:
	// false
}

// PreviewFor is the preview of the highlighted session once it is in.
func ExampleModel_PreviewFor() {
	r, current := previewed()
	p := picker.New(picker.ResolverSource(r, 20), picker.WithPreview(picker.ResolverPreviewer(r)))
	p.SetTarget(current)
	p.SetScreenSize(120, 30)
	p.SetAnchor(0, 28)
	cmd := p.Open("fix")
	_, ok, _ := p.PreviewFor()
	fmt.Println(ok)
	p = feed(p, cmd)
	pv, ok, err := p.PreviewFor()
	fmt.Println(ok, err, pv.Snapshot.Conversation[1].Text)
	// Output:
	// false
	// true <nil> The loop stopped one short; fixed, with a test.
}

// PreviewShown says whether the preview is drawn: beside the rows in a
// wide pane, in their place in a narrow one while toggled.
func ExampleModel_PreviewShown() {
	r, current := previewed()
	p := picker.New(picker.ResolverSource(r, 20), picker.WithPreview(picker.ResolverPreviewer(r)))
	p.SetTarget(current)
	p.SetScreenSize(picker.PreviewMinWidth, 30)
	p.SetAnchor(0, 28)
	cmd := p.Open("")
	p = feed(p, cmd)
	fmt.Println(p.PreviewShown())
	p.SetScreenSize(picker.PreviewMinWidth-1, 30)
	fmt.Println(p.PreviewShown())
	// Output:
	// true
	// false
}

// archive is a host's own Previewer: it says what its capture keeps.
type archive map[string][]sessionref.Turn

func (a archive) Preview(ctx context.Context, c sessionref.Candidate) (picker.Preview, error) {
	conv, ok := a[c.SessionID]
	if !ok {
		return picker.Preview{}, errors.New("not archived")
	}
	rec := sessionref.ReferenceRecord{SessionID: c.SessionID, Label: c.Label, OriginalMessages: len(conv), RetainedMessages: len(conv)}
	return picker.Preview{Record: rec, Snapshot: sessionref.Snapshot{SessionID: c.SessionID, Label: c.Label, Conversation: conv}, Bytes: 100}, nil
}

// Any type with a Preview method is a Previewer.
func ExamplePreviewer() {
	var p picker.Previewer = archive{"alpha": {{Role: "user", Text: "hello"}}}
	pv, err := p.Preview(context.Background(), sessionref.Candidate{SessionID: "alpha", Label: "Greeting"})
	fmt.Println(pv.Record.RetainedMessages, pv.Snapshot.Conversation[0].Text, err)
	_, err = p.Preview(context.Background(), sessionref.Candidate{SessionID: "beta"})
	fmt.Println(err)
	// Output:
	// 1 hello <nil>
	// not archived
}

// A Preview is the record and the snapshot a send would carry.
func ExamplePreview() {
	r, current := previewed()
	ctx := picker.ContextWithTarget(context.Background(), current)
	pv, _ := picker.ResolverPreviewer(r).Preview(ctx, sessionref.Candidate{SessionID: "alpha", Label: "Fix the parser"})
	fmt.Println(pv.Record.Label, pv.Record.Truncated, pv.Bytes > 0)
	for _, t := range pv.Snapshot.Conversation {
		fmt.Println(t.Role+":", t.Text)
	}
	// Output:
	// Fix the parser false true
	// user: why does the parser drop the last token?
	// assistant: The loop stopped one short; fixed, with a test.
}
