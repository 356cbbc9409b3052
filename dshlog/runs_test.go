package dshlog

import (
	"slices"
	"testing"
)

// FuzzBitset: prev, next and has agree with a plain set through sets and
// unsets spread over long empty stretches (the summary's skips).
func FuzzBitset(f *testing.F) {
	f.Add([]byte{1, 200, 3, 255, 7}, uint16(5000))
	f.Add([]byte{0, 0, 9, 9}, uint16(300))
	f.Fuzz(func(t *testing.T, ops []byte, spread uint16) {
		var b bitset
		plain := map[int64]bool{}
		scale := int64(spread)%5000 + 1
		for i, op := range ops {
			at := int64(op) * scale
			if i%3 == 2 {
				b.unset(at)
				delete(plain, at)
			} else {
				b.set(at)
				plain[at] = true
			}
		}
		var members []int64
		for k := range plain {
			members = append(members, k)
		}
		slices.Sort(members)
		top := 256*scale + 130
		for q := int64(-1); q < top; q += max(1, scale/7) {
			wantPrev, wantNext := int64(-1), int64(-1)
			for _, m := range members {
				if m <= q {
					wantPrev = m
				}
				if m >= q && wantNext < 0 {
					wantNext = m
				}
			}
			if got := b.prev(q); got != wantPrev {
				t.Fatalf("prev(%d) = %d, want %d (members %v)", q, got, wantPrev, members)
			}
			if got := b.next(q); got != wantNext {
				t.Fatalf("next(%d) = %d, want %d (members %v)", q, got, wantNext, members)
			}
			if b.has(q) != plain[q] {
				t.Fatalf("has(%d) = %v", q, b.has(q))
			}
		}
	})
}
