package plain_test

import (
	"testing"

	"github.com/dshkit/mentions/internal/plain"
	"github.com/dshkit/mentions/internal/textutil/texttest"
)

// BenchmarkText times the display rule (sessionref.SafeLine is
// plain.Line) over the three hostile shapes at 64 KiB and 1 MiB
// (scripts/bench-text prints the ratios).
func BenchmarkText(b *testing.B) {
	b.Run("Line", func(b *testing.B) { texttest.Bench(b, func(s string) { plain.Line(s) }) })
}
