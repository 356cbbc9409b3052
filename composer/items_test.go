package composer

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
)

// itemStep is step that also feeds a host section's answers back.
func itemStep(m Model, msg tea.Msg) (Model, []tea.Msg) {
	var cmd tea.Cmd
	m, cmd = m.Update(msg)
	var out []tea.Msg
	for _, next := range run(cmd) {
		switch next.(type) {
		case picker.AnswerMsg, picker.PickedMsg, picker.DismissedMsg, prepareDoneMsg:
			var more []tea.Msg
			m, more = itemStep(m, next)
			out = append(out, more...)
		default:
			out = append(out, next)
		}
		if p, ok := next.(picker.PickedMsg); ok {
			out = append(out, p)
		}
	}
	return m, out
}

func typeItems(m Model, s string) Model {
	for _, r := range s {
		m, _ = itemStep(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

// composerWithFiles is a composer whose picker lists a host's files first.
func (e *env) composerWithFiles(files []picker.Item) Model {
	src := func(_ context.Context, q string) ([]picker.Item, error) {
		var out []picker.Item
		for _, f := range files {
			if strings.Contains(f.Label, q) {
				out = append(out, f)
			}
		}
		return out, nil
	}
	p := picker.New(picker.ResolverSource(e.resolver, 20),
		picker.WithClock(func() time.Time { return testNow }), picker.WithHome("/home/dev"), picker.WithTick(neverTick),
		picker.WithSection(picker.Section{ID: "files", Title: "files", Source: src}), picker.WithOrder("files"))
	p.SetTarget(e.target)
	m := New(p, ResolverPreparer(e.resolver))
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.SetOrigin(0, 20)
	return m
}

// Picking a host's item writes its Insert text in place of "@query",
// then a space; the host gets the item in the PickedMsg.
func TestPickItemInsertsItsText(t *testing.T) {
	e := newEnv(t)
	m := e.composerWithFiles([]picker.Item{{Label: "parser.go", Insert: "sessionref/parser.go", Value: 7}})
	m = typeItems(m, "look at @pars")
	if it, _, ok := m.Picker().HighlightedItem(); !ok || it.Label != "parser.go" {
		t.Fatalf("highlighted %+v %v", it, ok)
	}
	m, out := itemStep(m, tab)
	if m.Canonical() != "look at sessionref/parser.go " || len(m.Tokens()) != 0 || m.Picker().IsOpen() {
		t.Fatalf("value %q tokens %d", m.Canonical(), len(m.Tokens()))
	}
	var got *picker.Item
	for _, msg := range out {
		if p, ok := msg.(picker.PickedMsg); ok {
			got = p.Item
		}
	}
	if got == nil || got.Value != 7 {
		t.Fatalf("the host got no item: %v", out)
	}
	m = typeItems(m, " now") // a space by habit is not doubled
	if m.Canonical() != "look at sessionref/parser.go now" {
		t.Fatalf("after typing: %q", m.Canonical())
	}
}

// An item without Insert text removes "@query" and leaves the rest for
// the host; an Insert holding a canonical mention becomes a token.
func TestPickItemWithoutTextOrWithMention(t *testing.T) {
	e := newEnv(t)
	m := e.composerWithFiles([]picker.Item{{Label: "attach.png", Value: "blob"}})
	m = typeItems(m, "see @attach")
	m, _ = itemStep(m, enter)
	if m.Canonical() != "see " || m.Picker().IsOpen() {
		t.Fatalf("value %q", m.Canonical())
	}
	ref := mention(t, "s-parser", "Fix the session parser")
	m = e.composerWithFiles([]picker.Item{{Label: "parser session", Insert: ref}})
	m = typeItems(m, "@parser s")
	m, _ = itemStep(m, tab)
	if toks := m.Tokens(); len(toks) != 1 || toks[0].Reference.SessionID != "s-parser" || m.Canonical() != ref+" " {
		t.Fatalf("value %q tokens %v", m.Canonical(), toks)
	}
}
