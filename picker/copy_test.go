package picker

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/sessionref"
)

// gate answers a fetch or a search once it is open, and a cancelled one
// with its context's error; it counts the calls it cancelled.
type gate struct {
	open      chan struct{}
	cancelled chan struct{}
}

func (g gate) wait(ctx context.Context) error {
	select {
	case <-g.open:
		return nil
	case <-ctx.Done():
		g.cancelled <- struct{}{}
		return ctx.Err()
	}
}

func (g gate) Candidates(ctx context.Context, q string) ([]sessionref.Candidate, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	return corpus[:2], nil
}

func (g gate) hits(ctx context.Context, q string) ([]Hit, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	return []Hit{{Candidate: corpus[3], Snippet: "said " + q}}, nil
}

func (g gate) files(ctx context.Context, q string) ([]Item, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	return []Item{{Label: q + ".go"}}, nil
}

func noTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// A copy's Close cancels the fetches it shares with the live model (the
// candidates, the hits, a host's section), but the live model asks again
// and shows the answers, never "context canceled"; the copy stays closed.
func TestCopyCloseLeavesTheLiveFetch(t *testing.T) {
	g := gate{open: make(chan struct{}), cancelled: make(chan struct{}, 8)}
	live, cmd := opened(newTestPicker(g, WithHitSource(g.hits), WithTick(noTick),
		WithSection(Section{ID: "files", Title: "files", Source: g.files})), "pars")
	copied := live
	copied.Close()
	msgs := run(cmd) // both return their cancellation
	if len(g.cancelled) != 3 {
		t.Fatalf("%d of the three fetches were cancelled by the copy, want all: the test proves nothing", len(g.cancelled))
	}
	var again []tea.Cmd
	for _, msg := range msgs {
		var next tea.Cmd
		live, next = live.Update(msg)
		again = append(again, next)
	}
	if live.Err() != nil || live.Answer(MessagesID).Err != nil || !live.IsOpen() {
		t.Fatalf("the live picker took the copy's cancellation: %v, %v", live.Err(), live.Answer(MessagesID).Err)
	}
	close(g.open)
	for _, c := range again {
		live, _ = settle(live, c)
	}
	if len(live.Answer(SessionsID).Candidates) != 2 || len(live.Answer(MessagesID).Hits) != 1 || len(live.Answer("files").Items) != 1 || live.Err() != nil || live.Answer(MessagesID).Err != nil {
		t.Fatalf("live picker: %d items, %d hits, %d files, %v, %v", len(live.Answer(SessionsID).Candidates), len(live.Answer(MessagesID).Hits), len(live.Answer("files").Items), live.Err(), live.Answer(MessagesID).Err)
	}
	if v := ansi.Strip(live.View()); strings.Contains(v, "cancel") || !strings.Contains(v, "said pars") {
		t.Fatalf("live view:\n%s", v)
	}
	if copied.IsOpen() || copied.View() != "" {
		t.Fatal("the closed copy shows")
	}
}

// A copy's answers do not enter the live model's cache, nor the other
// way round.
func TestCopiesKeepTheirOwnCache(t *testing.T) {
	live := openWith(t, newTestPicker(&fakeSource{}), "")
	copied := live
	cmd := copied.SetQuery("pars")
	copied, _ = settle(copied, cmd)
	if _, ok := copied.cache[cacheKey{copied.targetKey, "pars"}]; !ok {
		t.Fatal("the copy did not cache its answer: the test proves nothing")
	}
	if _, ok := live.cache[cacheKey{live.targetKey, "pars"}]; ok || len(live.cacheKeys) != 1 {
		t.Fatalf("the copy's answer is in the live cache (%d keys)", len(live.cacheKeys))
	}
}
