package sessionref

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// surfaceOf builds a surface of n alternating user/assistant messages of
// about size bytes each; the text is shared, as a store's cache would be.
func surfaceOf(id string, n, size int) Surface {
	text := strings.Repeat("lorem ipsum <dolor> sit amet, \"consectetur\" 界 ", size/48+1)[:size]
	ev := make([]Event, n)
	for i := range ev {
		if i%2 == 0 {
			ev[i] = userEv(text)
		} else {
			ev[i] = assistantEv(TextBlock(text))
		}
	}
	seq := int64(n - 1)
	return Surface{Session: SessionHeader{ID: id}, CapturedThroughSeq: &seq, Events: ev}
}

// prebuilt serves surfaces without copying them.
type prebuilt map[string]Surface

func (p prebuilt) ListSessions(context.Context) ([]SessionHeader, error) { return nil, nil }
func (p prebuilt) ReadTitles(_ context.Context, ids []string) ([]TitleResult, error) {
	return make([]TitleResult, len(ids)), nil
}
func (p prebuilt) ReadSurface(_ context.Context, id string) (Surface, error) { return p[id], nil }

func benchPrepare(b *testing.B, n int) {
	store := prebuilt{}
	refs := []Reference{}
	for _, id := range []string{"a", "b", "c"} {
		store[id] = surfaceOf(id, n, 1024)
		refs = append(refs, Reference{SessionID: id})
	}
	r, _ := NewResolver(store, Config{})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Prepare(ctx, Target{ID: "t"}, nil, refs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare: 3 sources of n messages of 1 KiB at the default
// budget. The 100k/1k ratio shows the cost of a dropped message is O(1).
func BenchmarkPrepare(b *testing.B) {
	for _, n := range []int{1000, 5000, 100000} {
		b.Run(fmt.Sprintf("3x%d", n), func(b *testing.B) { benchPrepare(b, n) })
	}
}

func BenchmarkParseText1MB(b *testing.B) {
	var sb strings.Builder
	filler := strings.Repeat("some ordinary words @here and there, ", 28)[:1000]
	for i := 0; sb.Len() < 1<<20; i++ {
		if i%2 == 0 {
			m, _ := FormatMention(Reference{SessionID: fmt.Sprintf("session-%d", i), Label: ptr("Label ] " + fmt.Sprint(i))})
			sb.WriteString(m)
		} else {
			u, _ := EncodeURI(fmt.Sprintf("session-%d", i))
			sb.WriteString(u)
		}
		sb.WriteString(" ")
		sb.WriteString(filler)
	}
	text := sb.String()
	p, _ := ParseText(text)
	b.ReportMetric(float64(len(p.References)), "mentions")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ParseText(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeURI(b *testing.B) {
	for b.Loop() {
		EncodeURI("2f1c9a7e-5b3d-4e8a-9c6f-0d1e2f3a4b5c")
	}
}

func BenchmarkDecodeURI(b *testing.B) {
	uri, _ := EncodeURI("2f1c9a7e-5b3d-4e8a-9c6f-0d1e2f3a4b5c")
	for b.Loop() {
		DecodeURI(uri)
	}
}

// BenchmarkListCandidates: a non-empty query over 100,000 sessions whose
// titles the store serves.
func BenchmarkListCandidates(b *testing.B) {
	m := newMemStore()
	words := []string{"Refactor", "parser", "Fix", "flaky", "CI", "重构", "日志", "Ünïcode", "ΣΥΝΕΔΡΊΑ", "deploy", "review", "🙂 emoji"}
	for i := range 100000 {
		cwd := ptr(fmt.Sprintf("/home/dev/src/project-%d", i%40))
		if i%17 == 0 {
			cwd = nil
		}
		id := fmt.Sprintf("%08x-4b3d-4e8a-9c6f-%012x", i*2654435761, i)
		m.headers = append(m.headers, SessionHeader{ID: id, Cwd: cwd, CreatedAt: int64(2e12 - i)})
		m.titles[id] = TitleResult{Title: &Title{Text: words[i%len(words)] + " " + words[(i/7)%len(words)] + fmt.Sprint(" #", i)}}
	}
	r, _ := NewResolver(m, Config{})
	t := Target{ID: "x", Cwd: ptr("/home/dev/src/project-3")}
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.ListCandidates(context.Background(), t, "pars", 50); err != nil {
			b.Fatal(err)
		}
	}
}
