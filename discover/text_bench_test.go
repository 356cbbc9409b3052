package discover

import (
	"context"
	"testing"

	"github.com/dshkit/mentions/internal/textutil/texttest"
)

// The discover package's text routines over one text: the snippet of a
// hit (the best line, its window, made safe, its matches), the fold the
// matching reads, and the text the index is given.
var textRoutines = []struct {
	name string
	f    func(s string)
}{
	{"snippet", func(s string) {
		ns := needles(parseQuery("abcd 话界 e"))
		snippet(context.Background(), "title", s, ns)
	}},
	{"snippetNoMatch", func(s string) {
		snippet(context.Background(), "title", s, needles(parseQuery("zzz")))
	}},
	{"fold", func(s string) { fold(s) }},
	{"readable", func(s string) { readable(s) }},
	{"withGrams", func(s string) { withGrams(s) }},
}

// BenchmarkText times each routine over the three hostile shapes at
// 64 KiB and 1 MiB (scripts/bench-text prints the ratios).
func BenchmarkText(b *testing.B) {
	for _, r := range textRoutines {
		b.Run(r.name, func(b *testing.B) { texttest.Bench(b, r.f) })
	}
}
