package textutil

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkShortIDsMiddle: ids of 2,000 bytes that differ only in their
// middle, which no split of a narrow column tells apart: the cost must
// not grow with the ids' length.
func BenchmarkShortIDsMiddle(b *testing.B) {
	for _, n := range []int{100, 2000} {
		ids := make([]string, 30)
		for i := range ids {
			ids[i] = strings.Repeat("a", n/2) + fmt.Sprintf("%02d", i) + strings.Repeat("b", n/2)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				ShortIDs(ids, 60)
			}
		})
	}
}
