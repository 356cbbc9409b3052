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

// MeasuresPerByte is the most times a linear routine of this module
// measures each byte of its input (an escape it writes for an invisible
// character is measured too, and is six times as long), and
// MeasuresSlack what it may measure besides (the width of a tail, a
// short label).
const (
	MeasuresPerByte = 32
	MeasuresSlack   = 4096
)

// LinearSize is the size CheckLinear grows an input to: a routine that
// measures the rest of its input after each cut of 80 cells measures
// each byte of it about a hundred times.
const LinearSize = 16 << 10

// ExcessWork returns an error when f, given s repeated until it is at
// least n bytes long, measures more than [MeasuresPerByte] times that
// length plus [MeasuresSlack]: a routine that measures the rest of its
// input again after each cut, each line or each cluster does, for some s.
func ExcessWork(s string, n int, f func(s string)) error {
	if s == "" {
		return nil
	}
	big := strings.Repeat(s, (n+len(s)-1)/len(s))
	if w := Work(func() { f(big) }); w > MeasuresPerByte*int64(len(big))+MeasuresSlack {
		return fmt.Errorf("%d bytes (%.20q… repeated) measured %d bytes: %.1f a byte", len(big), s, w, float64(w)/float64(len(big)))
	}
	return nil
}

// CheckLinear fails t when [ExcessWork] finds f does more than linear
// work on s grown to [LinearSize].
func CheckLinear(t *testing.T, name string, s string, f func(s string)) {
	t.Helper()
	if err := ExcessWork(s, LinearSize, f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
