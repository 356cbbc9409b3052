package main

// BEGIN README
import (
	"context"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/mentiontextarea"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// refs is everything the host adds for mentions: a resolver over its
// store, and the adapter that puts a picker behind its own textarea.
type refs struct {
	resolver *sessionref.Resolver
	ed       mentiontextarea.Model
}

func newRefs(store sessionref.SessionQuery, target sessionref.Target, cwd string, more ...picker.Option) (refs, error) {
	r, err := sessionref.NewResolver(store, sessionref.Config{})
	if err != nil {
		return refs{}, err
	}
	opts := []picker.Option{picker.WithSection(picker.Section{
		ID: "files", Title: "files", OnEmpty: true, Source: func(ctx context.Context, q string) ([]picker.Item, error) {
			paths, err := findFiles(ctx, cwd, q) // the host's own @-file completion
			items := make([]picker.Item, len(paths))
			for i, p := range paths {
				items[i] = picker.Item{Label: p, Insert: p}
			}
			return items, err
		}})}
	// "in messages": full-text search, optional (without it, titles only).
	if ix, err := discover.Open("", store); err == nil {
		if _, err := ix.Sync(context.Background()); err == nil {
			opts = append(opts, picker.WithHitSource(hitsOf(ix)))
		}
	}
	p := picker.New(picker.ResolverSource(r, 20), append(opts, more...)...)
	p.SetTarget(target)
	return refs{resolver: r, ed: mentiontextarea.New(p)}, nil
}

// hitsOf searches ix for the session the picker is following.
func hitsOf(ix *discover.Index) picker.HitSource {
	return func(ctx context.Context, q string) ([]picker.Hit, error) {
		t, _ := picker.TargetFromContext(ctx)
		found, err := ix.Search(ctx, t, q, 10)
		hits := make([]picker.Hit, len(found))
		for i, h := range found {
			hits[i] = picker.Hit{Candidate: h.Candidate, Snippet: h.Snippet, Match: h.Match}
		}
		return hits, err
	}
}

// update passes every message through the adapter, in place of the
// textarea's own Update.
func (r *refs) update(ta *textarea.Model, msg tea.Msg) tea.Cmd {
	return r.ed.Update(ta, msg)
}

// wants: keys the adapter must see before the host's own (the open
// popup's Enter and Tab, Backspace at a mention's end…).
func (r *refs) wants(ta textarea.Model, k tea.KeyPressMsg) bool { return r.ed.WantsKey(ta, k) }

// place tells the adapter where the textarea's top-left cell is.
func (r *refs) place(x, y int) { r.ed.SetOrigin(x, y) }

// popup is the picker drawn over the screen, hanging from the '@'.
func (r *refs) popup() *lipgloss.Layer { return r.ed.Picker().Layer() }

// follow: the host switched sessions; the picker ranks for the new one.
func (r *refs) follow(t sessionref.Target) tea.Cmd { return r.ed.SetTarget(t) }

// send prepares the draft and turns it into the one user message this
// host sends a turn: the untrusted snapshot first, then the message. The
// textarea is emptied at once, so what is typed meanwhile is a new draft;
// a failed send hands its draft back (sentMsg.draft, for restore).
func (r *refs) send(ta *textarea.Model, target sessionref.Target) tea.Cmd {
	text := r.ed.Canonical(*ta)
	r.ed.Reset(ta)
	return func() tea.Msg {
		out, err := r.resolver.PrepareText(context.Background(), target, text)
		if err != nil {
			return sentMsg{err: err, draft: text}
		}
		single, err := out.SingleMessage()
		return sentMsg{text: single, err: err, draft: text}
	}
}

// restore puts a draft that could not be sent back in an empty textarea.
func (r *refs) restore(ta *textarea.Model, draft string) {
	if ta.Value() == "" {
		r.ed.SetValue(ta, draft)
	}
}

// turn draws a stored message as the transcript shows it, from its text
// alone: the reference card (when it referenced sessions), then what the
// person wrote, mentions as @label. It parses the text once; the host
// calls it when a message is stored and when the width changes, not every
// frame.
func (r refs) turn(stored string, width int) string {
	m := sessionref.ParseSingleMessage(stored)
	you := lipgloss.NewStyle().Width(width).Render("You: " + sessionref.SafeLine(strings.TrimSpace(m.Text)))
	if m.Context == nil {
		return you
	}
	return card.New(m.Context, card.WithWidth(width)).View() + "\n" + you
}

// END README
