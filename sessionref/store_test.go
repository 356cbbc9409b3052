package sessionref

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// memStore is a minimal SessionQuery for the core's own tests, with hooks
// for hangs and failures.
type memStore struct {
	mu         sync.Mutex
	headers    []SessionHeader
	titles     map[string]TitleResult
	surfaces   map[string]Surface
	readErr    map[string]error
	readHook   func(ctx context.Context, id string) (Surface, error)
	listHook   func(ctx context.Context) ([]SessionHeader, error)
	titlesHook func(ctx context.Context, ids []string) ([]TitleResult, error)
	reads      []string
}

func newMemStore() *memStore {
	return &memStore{titles: map[string]TitleResult{}, surfaces: map[string]Surface{}, readErr: map[string]error{}}
}

func (m *memStore) ListSessions(ctx context.Context) ([]SessionHeader, error) {
	if m.listHook != nil {
		return m.listHook(ctx)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]SessionHeader(nil), m.headers...), nil
}

func (m *memStore) ReadTitles(ctx context.Context, ids []string) ([]TitleResult, error) {
	if m.titlesHook != nil {
		return m.titlesHook(ctx, ids)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]TitleResult, len(ids))
	for i, id := range ids {
		out[i] = m.titles[id]
	}
	return out, nil
}

func (m *memStore) ReadSurface(ctx context.Context, id string) (Surface, error) {
	m.mu.Lock()
	m.reads = append(m.reads, id)
	hook := m.readHook
	err := m.readErr[id]
	s, ok := m.surfaces[id]
	m.mu.Unlock()
	if hook != nil {
		return hook(ctx, id)
	}
	if err != nil {
		return Surface{}, err
	}
	if !ok {
		return Surface{}, fmt.Errorf("session %q not found", id)
	}
	ev := make([]Event, len(s.Events))
	for i, e := range s.Events {
		ev[i] = e.Clone()
	}
	s.Events = ev
	return s, nil
}

// put adds a session with a surface built from events (seq in order).
func (m *memStore) put(id string, cwd *string, createdAt int64, captured *int64, events ...Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := SessionHeader{ID: id, Cwd: cwd, CreatedAt: createdAt}
	m.headers = append(m.headers, h)
	m.surfaces[id] = Surface{Session: h, CapturedThroughSeq: captured, Events: events}
}

func ptr[T any](v T) *T { return &v }

func userEv(text string) Event {
	return Event{Type: EventUserMessage, Source: Source{Kind: SourceUser}, Content: []Block{TextBlock(text)}}
}

func pluginEv(plugin, text string) Event {
	return Event{Type: EventUserMessage, Source: Source{Kind: SourcePlugin, Plugin: plugin}, Content: []Block{TextBlock(text)}}
}

func checkpointEv(text string) Event {
	return Event{Type: EventUserMessage, Source: Source{Kind: SourcePlugin, Plugin: PluginCompact}, Content: []Block{TextBlock(text)}}
}

func assistantEv(blocks ...Block) Event {
	return Event{Type: EventAssistantMessage, Source: Source{Kind: SourceModel}, Content: blocks}
}

func reasoning(text string) Block { return Block{Type: BlockReasoning, Text: text} }

// fixtureF is the reference's fixture: seqs 0–13, where 2 is a checkpoint
// that replaced 0–1 and 13 is a chunk, so the surface is seqs 2–12.
func fixtureF() (events []Event, captured int64) {
	withSeq := func(seq int64, e Event) Event { e.Seq = &seq; return e }
	return []Event{
		withSeq(2, checkpointEv("<compacted-summary>checkpoint</compacted-summary>")),
		withSeq(3, userEv("recent user")),
		withSeq(4, pluginEv("@deepseek-ai/dsh-system-prompt", "system text")),
		withSeq(5, userEv("human steer")),
		withSeq(6, pluginEv("tool-jobs", "job finished")),
		withSeq(7, Event{Type: EventToolResult, Source: Source{Kind: SourceTool}, Content: []Block{{Type: "tool-result", Text: "tool output"}}}),
		withSeq(8, assistantEv(reasoning("thinking"), TextBlock("visible answer"))),
		withSeq(9, pluginEv("hooks-claude-code", "hook context")),
		withSeq(10, Event{Type: EventUserMessage, Source: Source{Kind: SourceUser}, Content: []Block{reasoning("r1")}}),
		withSeq(11, Event{Type: EventUserMessage, Source: Source{Kind: SourceUser}, Content: []Block{reasoning("r2")}}),
		withSeq(12, assistantEv(reasoning("only reasoning"))),
	}, 13
}

var errBoom = errors.New("disk on fire")

func repeat(s string, n int) string { return strings.Repeat(s, n) }

func (m *memStore) setReadHook(f func(ctx context.Context, id string) (Surface, error)) {
	m.mu.Lock()
	m.readHook = f
	m.mu.Unlock()
}

func (m *memStore) setReadErr(id string, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil {
		delete(m.readErr, id)
		return
	}
	m.readErr[id] = err
}
