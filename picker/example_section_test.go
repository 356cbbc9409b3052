package picker_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// feedAll runs cmd and passes every message it produces to p, as a
// Bubble Tea program would.
func feedAll(p picker.Model, cmd tea.Cmd) picker.Model {
	if cmd == nil {
		return p
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			p = feedAll(p, c)
		}
		return p
	}
	p, cmd = p.Update(msg)
	return feedAll(p, cmd)
}

// A host's files share the popup with the sessions, first; picking one
// hands the host its own value.
func ExampleWithSection() {
	store := fakestore.New()
	store.Create("alpha", nil, fakestore.DefaultNow)
	store.SetTitle("alpha", "Fix the parser")
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})

	files := func(ctx context.Context, q string) ([]picker.Item, error) {
		var out []picker.Item
		for _, f := range []string{"parser.go", "picker.go", "README.md"} {
			if strings.Contains(f, q) {
				out = append(out, picker.Item{Label: f, Detail: "src/" + f, Insert: "src/" + f, Value: len(f)})
			}
		}
		return out, ctx.Err()
	}
	p := picker.New(picker.ResolverSource(resolver, 20), picker.WithSlowAfter(0),
		picker.WithClock(func() time.Time { return fakestore.DefaultNow.Add(time.Hour) }),
		picker.WithSection(picker.Section{ID: "files", Title: "files", Source: files}),
		picker.WithOrder("files", picker.SessionsID))
	p.SetTarget(sessionref.Target{ID: "current"})
	p.SetStyles(picker.PlainStyles())
	p.SetScreenSize(50, 12)
	p.SetAnchor(0, 11)

	cmd := p.Open("par")
	p = feedAll(p, cmd)
	fmt.Println(ansi.Strip(p.View()))

	p, _ = p.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if picked, ok := p.TakePick(); ok && picked.Item != nil {
		fmt.Println(picked.Section, picked.Item.Insert, picked.Item.Value)
	}
	// Output:
	// ╭────────────────────────────────────────────────╮
	// │ files                                          │
	// │› parser.go                        src/parser.go│
	// │ sessions                                       │
	// │  Fix the parser                 alpha  1h ago  │
	// ╰────────────────────────────────────────────────╯
	// files src/parser.go 9
}

// A host that switches sessions tells the picker; the open popup asks
// again, for the new session, which is no longer offered.
func ExampleModel_SetTarget() {
	store := fakestore.New()
	for _, id := range []string{"alpha", "beta"} {
		store.Create(id, nil, fakestore.DefaultNow)
		store.SetTitle(id, "Fix the "+id+" parser")
	}
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	p := picker.New(picker.ResolverSource(resolver, 20), picker.WithSlowAfter(0))
	p.SetTarget(sessionref.Target{ID: "alpha"})

	cmd := p.Open("parser")
	p = feedAll(p, cmd)
	rows := p.Answer(picker.SessionsID).Candidates
	fmt.Println(len(rows), rows[0].SessionID)

	cmd = p.SetTarget(sessionref.Target{ID: "beta"})
	fmt.Println(len(p.Answer(picker.SessionsID).Candidates), p.SectionFresh(picker.SessionsID))
	p = feedAll(p, cmd)
	rows = p.Answer(picker.SessionsID).Candidates
	fmt.Println(len(rows), rows[0].SessionID)
	// Output:
	// 1 beta
	// 0 false
	// 1 alpha
}
