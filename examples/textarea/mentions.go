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

// send prepares the draft and turns it into the one user message this
// host sends a turn: the untrusted snapshot first, then the message. The
// textarea is emptied at once, so what is typed meanwhile is a new draft;
// a failed send hands its draft back (sentMsg.draft, canonical).
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

// recall puts a stored message back in the draft as it was sent, its
// mentions still mentions (up-arrow, editing a past message).
func (r *refs) recall(ta *textarea.Model, s string) { r.ed.SetValue(ta, sessionref.Canonical(s)) }

// turn draws a stored message as the transcript shows it, from its text
// alone: the reference card (when it referenced sessions), unframed as it
// sits in the host's own message frame, then what the person wrote,
// mentions as @label. The host calls it when a message is stored and when
// the width changes, not every frame.
func (r refs) turn(stored string, width int) string {
	you := lipgloss.NewStyle().Width(width).Render("You: " + sessionref.SafeLine(strings.TrimSpace(sessionref.Readable(stored))))
	m := sessionref.ParseSingleMessage(stored)
	if m.Context == nil {
		return you
	}
	c := card.New(m.Context)
	c.SetWidth(width)
	c.SetStyles(card.DefaultStyles(true).Unframed())
	return c.View() + "\n" + you
}

// END README
