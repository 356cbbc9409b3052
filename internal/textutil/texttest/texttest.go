// Package texttest holds what the text routines' benchmarks and
// linearity tests share: the hostile shapes of text (one long word, a
// line of wide characters, a base under combining marks) at the sizes
// the benchmarks compare, and the check that a routine's work is linear
// in its input, counted with [textutil.Measured] rather than timed.
package texttest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshkit/mentions/internal/textutil"
)

// Shapes are the three inputs every text routine is benchmarked over.
var Shapes = []string{"word", "wide", "marks"}

// Sizes are the sizes every text routine is benchmarked at; the ratio of
// their times is about 16 when the routine is linear
// (scripts/bench-text prints it).
var Sizes = []struct {
	Name  string
	Bytes int
}{{"64KiB", 64 << 10}, {"1MiB", 1 << 20}}

// Input is n bytes (or a few less) of one shape: "word" is one word of
// ASCII letters, "wide" a line of CJK characters with no space (two
// cells each), "marks" one base under combining marks (one grapheme
// cluster).
func Input(shape string, n int) string {
	switch shape {
	case "word":
		return strings.Repeat("abcdefgh", n/8)
	case "wide":
		return strings.Repeat("会话界", n/9)
	case "marks":
		return "e" + strings.Repeat("\u0301", (n-1)/2)
	}
	panic("texttest: no shape " + shape)
}

// Bench runs f over every shape at every size, as sub-benchmarks named
// shape/size, which scripts/bench-text pairs up.
func Bench(b *testing.B, f func(s string)) {
	for _, shape := range Shapes {
		for _, size := range Sizes {
			s := Input(shape, size.Bytes)
			b.Run(fmt.Sprintf("%s/%s", shape, size.Name), func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					f(s)
				}
			})
		}
	}
}

// Work is how many bytes f measured (see [textutil.Measured]) while it
// ran. Tests that use it must not run in parallel with other text work.
func Work(f func()) int64 {
	before := textutil.Measured()
	f()
	return textutil.Measured() - before
}

// The linearity check grows an input to SmallSize and to 16 times that,
// and allows the larger [GrowthLimit] times the work of the smaller plus
// [WorkSlack]: a linear routine does 16 times the work, one that measures
// the rest of its input again after each cut, line or cluster about 256
// times, whatever its constant factors (an escape it writes for an
// invisible character is longer than the character, and measured too).
const (
	SmallSize   = 2 << 10
	GrowthLimit = 24
	WorkSlack   = 4096
)

// ExcessWork returns an error when f does more than linear work on s:
// given s repeated to [SmallSize] bytes and that repeated 16 times, it
// measures more than [GrowthLimit] times as many bytes (plus
// [WorkSlack]) on the larger.
func ExcessWork(s string, f func(s string)) error {
	if s == "" {
		return nil
	}
	small := strings.Repeat(s, (SmallSize+len(s)-1)/len(s))
	big := strings.Repeat(small, 16)
	ws := Work(func() { f(small) })
	wb := Work(func() { f(big) })
	if wb > GrowthLimit*ws+WorkSlack {
		return fmt.Errorf("%.20q… repeated: %d bytes measured %d, 16 times as many %d (%.0f times the work)",
			s, len(small), ws, wb, float64(wb)/float64(max(ws, 1)))
	}
	return nil
}

// CheckLinear fails t when [ExcessWork] finds f does more than linear
// work on s.
func CheckLinear(t *testing.T, name string, s string, f func(s string)) {
	t.Helper()
	if err := ExcessWork(s, f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
