package sessionref

import (
	"context"
	"sync"
)

// ChatMessage is a message of a step's history, as a host's pre-step hook
// sees it.
type ChatMessage struct {
	ID      string
	Role    string
	Source  Source
	Content []Block
}

// RewriteMessages is the reference's pre-step rewrite: every message whose
// source kind is "user" has the mentions in its text blocks replaced by
// @label, and is followed by its context message. Other messages, and user
// messages without mentions, are returned unchanged. Messages are prepared
// concurrently and keep their order; limits apply per message, and any
// error fails the whole step so nothing half-rewritten reaches history.
func (r *Resolver) RewriteMessages(ctx context.Context, t Target, msgs []ChatMessage) ([]ChatMessage, error) {
	type result struct {
		msgs []ChatMessage
		err  error
	}
	results := make([]result, len(msgs))
	var wg sync.WaitGroup
	for i, m := range msgs {
		if m.Source.Kind != SourceUser {
			results[i].msgs = []ChatMessage{m}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i].msgs, results[i].err = r.rewriteOne(ctx, t, m)
		}()
	}
	wg.Wait()
	out := make([]ChatMessage, 0, len(msgs)+1)
	for _, res := range results {
		if res.err != nil {
			return nil, res.err
		}
		out = append(out, res.msgs...)
	}
	return out, nil
}

func (r *Resolver) rewriteOne(ctx context.Context, t Target, m ChatMessage) ([]ChatMessage, error) {
	var refs []Reference
	content := make([]Block, len(m.Content))
	for i, b := range m.Content {
		content[i] = b
		if b.Type != BlockText {
			continue
		}
		p, err := ParseText(b.Text)
		if err != nil {
			return nil, err
		}
		refs = append(refs, p.References...)
		content[i] = TextBlock(p.Text)
	}
	if len(refs) == 0 {
		return []ChatMessage{m}, nil
	}
	prep, err := r.Prepare(ctx, t, content, refs)
	if err != nil {
		return nil, err
	}
	rewritten := m
	rewritten.Content = prep.Content
	ev, err := prep.Context.Event()
	if err != nil {
		return nil, err
	}
	return []ChatMessage{rewritten, {ID: prep.Context.ID, Role: RoleUser, Source: ev.Source, Content: ev.Content}}, nil
}
