package sessionref

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// refRetain is the retention of docs/snapshot.md written out as literally
// as possible, quadratic and all: the size is the length of the serialized object, recomputed
// after every step; the longest text is found by a scan; every probe of
// the binary search builds its candidate. It is the oracle the linear
// retain is checked against, byte for byte.
func refRetain(head []byte, events []Event, max int) ([]byte, ReferenceRecord, bool) {
	type refItem struct {
		assistant, checkpoint bool
		original, text        string
		omitted               int
		stored                int // the length of the whole text, which a dropped message counts
	}
	var items []*refItem
	var rec ReferenceRecord
	for i := range events {
		ok, assistant, checkpoint, _ := classify(&events[i])
		if !ok {
			continue
		}
		var parts []string
		for _, b := range events[i].Content {
			if b.Type == BlockText {
				parts = append(parts, b.Text)
			}
		}
		text := strings.Join(parts, "\n")
		stored := len(validOrReplaced(text))
		if !assistant && !checkpoint {
			text = ParseSingleMessage(text).Text // a person's message shows its direct text alone
		}
		text = validOrReplaced(text)
		items = append(items, &refItem{assistant: assistant, checkpoint: checkpoint, original: text, text: text, stored: stored})
		rec.Compacted = rec.Compacted || checkpoint
	}
	rec.OriginalMessages = len(items)
	serialize := func() []byte {
		obj := append([]byte(nil), head...)
		for i, it := range items {
			if i > 0 {
				obj = append(obj, ',')
			}
			role := RoleUser
			if it.assistant {
				role = RoleAssistant
			}
			obj = append(obj, `{"role":`...)
			obj = appendJSString(obj, role, true)
			obj = append(obj, `,"text":`...)
			obj = appendJSString(obj, it.text, true)
			obj = append(obj, '}')
		}
		return append(obj, ']', '}')
	}
	dropped := 0
	for len(serialize()) > max {
		victim := -1
		for i, it := range items {
			if !it.checkpoint && i != len(items)-1 {
				victim = i
				break
			}
		}
		if victim < 0 {
			break
		}
		dropped += items[victim].stored
		rec.OmittedMessages++
		items = append(items[:victim], items[victim+1:]...)
	}
	for size := len(serialize()); size > max; size = len(serialize()) {
		var longest *refItem
		for _, it := range items {
			if longest == nil || len(it.text) > len(longest.text) {
				longest = it
			}
		}
		if longest == nil || len(longest.text) == 0 {
			return nil, ReferenceRecord{}, false
		}
		target := len(longest.text) - (size - max)
		if target < 0 {
			target = 0
		}
		text, omitted := refTruncate(longest.original, target)
		if text == longest.text {
			return nil, ReferenceRecord{}, false
		}
		longest.text, longest.omitted = text, omitted
	}
	rec.RetainedMessages = len(items)
	rec.OmittedBytes = dropped
	for _, it := range items {
		rec.OmittedBytes += it.omitted
	}
	rec.Truncated = rec.OmittedMessages > 0 || rec.OmittedBytes > 0
	return serialize(), rec, true
}

// refTruncate is truncateWithNotice as docs/snapshot.md states it: every probe
// builds its candidate and measures it.
func refTruncate(text string, m int) (string, int) {
	if len(text) <= m {
		return text, 0
	}
	best, bestOm := "", len(text)
	for lo, hi := 0, m; lo <= hi; {
		r := (lo + hi) / 2
		h, t := (r+1)/2, r/2
		head := text[:h]
		if h > 0 {
			j := h - 1
			for steps := 0; j > 0 && steps < 3 && text[j]&0xC0 == 0x80; steps++ {
				j--
			}
			if lead := text[j]; lead < 0xF8 && h-j < seqLen(lead) {
				head = text[:j]
			}
		}
		tail := ""
		if t > 0 {
			tail = text[len(text)-t:]
			for tail != "" && tail[0]&0xC0 == 0x80 {
				tail = tail[1:]
			}
		}
		om := len(text) - len(head) - len(tail)
		cand := strings.TrimPrefix(head, bom) + strings.TrimPrefix(tail, bom) + fmt.Sprintf("\n[… omitted %d UTF-8 bytes …]", om)
		if len(cand) <= m {
			best, bestOm, lo = cand, om, r+1
		} else {
			hi = r - 1
		}
	}
	return best, bestOm
}

// eventsFrom builds a surface from fuzz bytes: each byte picks a kind of
// message and a text cut from the pool, so every mix of checkpoints,
// droppable messages, escapes, BOMs and multi-byte text comes up.
func eventsFrom(shape []byte, pool string) []Event {
	pieces := []string{"", "plain words ", "<tag>", "\"q\"\\", "\n", "界", "\ufeff", "é", "🙂", "\x01", pool}
	var events []Event
	for i, c := range shape {
		var sb strings.Builder
		for k := 0; k < int(c>>3)+1; k++ {
			sb.WriteString(pieces[(int(c)+k*7+i)%len(pieces)])
		}
		text := sb.String()
		switch c & 7 {
		case 0:
			events = append(events, userEv(text))
		case 1: // a person's message in the single-message form
			events = append(events, userEv(envelopeHead()+text))
		case 2, 3:
			events = append(events, assistantEv(TextBlock(text), reasoning("r"), TextBlock(pool)))
		case 4, 5:
			events = append(events, checkpointEv(text))
		case 6:
			events = append(events, pluginEv("p", text))
		case 7:
			events = append(events, Event{Type: EventToolResult, Content: []Block{TextBlock(text)}})
		}
	}
	return events
}

// FuzzRetainMatchesReference: the linear retain gives the same bytes, the
// same record and the same failures as the literal algorithm of docs/snapshot.md.
func FuzzRetainMatchesReference(f *testing.F) {
	f.Add([]byte{0, 2, 4, 1, 3}, "hello", 200)
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4, 12, 20, 28}, strings.Repeat("界", 40), 300)
	f.Add([]byte{255, 254, 2, 0}, "\ufeffbom<x>", 120)
	f.Add([]byte{44, 45, 46, 47, 40, 41}, strings.Repeat("<", 90), 360)
	f.Fuzz(func(t *testing.T, shape []byte, pool string, max int) {
		if len(shape) > 64 || len(pool) > 4096 || max < 1 || max > 1<<15 {
			return
		}
		pool = validOrReplaced(pool)
		events := eventsFrom(shape, pool)
		head := objectHead("s", "label", nil, ptr[int64](7))
		want, wantRec, wantOK := refRetain(head, events, max)
		got, ok, err := retain(context.Background(), head, newEventList(events), max)
		if err != nil {
			t.Fatal(err)
		}
		if ok != wantOK {
			t.Fatalf("fits=%v, reference %v", ok, wantOK)
		}
		if !ok {
			return
		}
		if !bytes.Equal(got.object, want) {
			t.Fatalf("object\n%s\nreference\n%s", got.object, want)
		}
		if got.record != wantRec {
			t.Fatalf("record %+v, reference %+v", got.record, wantRec)
		}
	})
}

// checkpoints is a source of n compaction checkpoints of about size bytes
// each and nothing else, the shape no message can be dropped from.
func checkpoints(n, size int) []Event {
	text := strings.Repeat("summary <of> \"work\" 界 ", size/24+1)[:size]
	ev := make([]Event, n)
	for i := range ev {
		ev[i] = checkpointEv(text)
	}
	return ev
}

func TestRetainAllCheckpointsMatchesReference(t *testing.T) {
	for _, c := range []struct{ n, size, max int }{{300, 120, 65536}, {300, 120, 20000}, {40, 900, 4000}, {300, 30, 7000}} {
		events := checkpoints(c.n, c.size)
		events = append(events, userEv("latest"))
		head := objectHead("s", "s", nil, nil)
		want, wantRec, wantOK := refRetain(head, events, c.max)
		got, ok, err := retain(context.Background(), head, newEventList(events), c.max)
		if err != nil || ok != wantOK || ok && (!bytes.Equal(got.object, want) || got.record != wantRec) {
			t.Fatalf("%+v: ok=%v (reference %v), err %v, record %+v (reference %+v)", c, ok, wantOK, err, got.record, wantRec)
		}
	}
}

// countingCtx is a context whose Err turns to Canceled after a number of
// calls: it ends in the middle of retention, deterministically.
type countingCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countingCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestPrepareCancelledDuringRetention: a context that ends while 50,000
// checkpoints are being fitted makes Prepare return CANCELLED, not go on
// to BUDGET_EXCEEDED.
func TestPrepareCancelledDuringRetention(t *testing.T) {
	m := newMemStore()
	m.put("big", nil, 1, nil, checkpoints(50000, 200)...)
	r, _ := NewResolver(m, Config{})
	// Prepare itself looks twice before retention starts.
	ctx := &countingCtx{Context: context.Background()}
	ctx.left.Store(2)
	_, err := r.Prepare(ctx, Target{ID: "t"}, nil, []Reference{{SessionID: "big"}})
	if CodeOf(err) != CodeCancelled {
		t.Fatalf("got %v, want CANCELLED", err)
	}
	// The same source with a live context does not fit.
	if _, err := r.Prepare(context.Background(), Target{ID: "t"}, nil, []Reference{{SessionID: "big"}}); CodeOf(err) != CodeBudgetExceeded {
		t.Fatalf("got %v, want BUDGET_EXCEEDED", err)
	}
}

// benchRetain times Prepare of one source (served without copying) at
// the default budget; a BUDGET_EXCEEDED answer is a result like any other.
func benchRetain(b *testing.B, events []Event) {
	r, _ := NewResolver(prebuilt{"s": {Session: SessionHeader{ID: "s"}, Events: events}}, Config{})
	ctx := context.Background()
	refs := []Reference{{SessionID: "s"}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Prepare(ctx, Target{ID: "t"}, nil, refs); err != nil && CodeOf(err) != CodeBudgetExceeded {
			b.Fatal(err)
		}
	}
}

// BenchmarkRetainCheckpoints: n checkpoints of 200 B at the default
// budget, where every one must be cut; 10k against 50k shows the growth
// (linear: ×5).
func BenchmarkRetainCheckpoints(b *testing.B) {
	for _, n := range []int{10000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchRetain(b, checkpoints(n, 200)) })
	}
	// Small enough to fit once cut: every checkpoint is cut to nothing
	// or a notice, and the object then fits.
	b.Run("2000-fits", func(b *testing.B) { benchRetain(b, checkpoints(2000, 200)) })
}

// BenchmarkRetainHugeMessage: one message of n bytes cut to the default
// budget; 8 MiB against 64 MiB shows the growth (linear: ×8).
func BenchmarkRetainHugeMessage(b *testing.B) {
	for _, n := range []int{8 << 20, 64 << 20} {
		text := strings.Repeat("abc <b> \"c\" 界\n", n/16) // 16 bytes a unit
		b.Run(fmt.Sprintf("%dMiB", n>>20), func(b *testing.B) {
			b.SetBytes(int64(n))
			benchRetain(b, []Event{userEv("question"), assistantEv(TextBlock(text))})
		})
	}
}
