package picker

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/sessionref"
)

// lowerJS is the core's lowering, which candidate matching uses.
var lowerJS = sessionref.Lower

// matchRange finds the first match of query in label the way the core
// matches titles (the JS-lowered query inside the JS-lowered label) and
// returns its byte range in label, widened to whole runes when the match
// starts or ends inside the lowered form of one rune (İ lowers to two).
func matchRange(label, query string) (int, int, bool) {
	q := lowerJS(query)
	if q == "" {
		return 0, 0, false
	}
	low := lowerJS(label)
	at := strings.Index(low, q)
	if at < 0 {
		return 0, 0, false
	}
	// Walk label's runes beside their lowered forms. Lowering in the root
	// locale maps each rune on its own (only the choice between σ and ς
	// looks at the neighbours, and both are two bytes), so the lowered
	// length of each rune is that of the rune lowered alone; if the sum
	// disagrees, no highlight is better than a wrong one.
	end := at + len(q)
	a, z, lo := -1, -1, 0
	for i := 0; i < len(label); {
		r, size := utf8.DecodeRuneInString(label[i:])
		n := loweredLen(r)
		if a < 0 && at < lo+n {
			a = i
		}
		if z < 0 && end <= lo+n {
			z = i + size
		}
		lo += n
		i += size
	}
	if a < 0 || z < 0 || lo != len(low) {
		return 0, 0, false
	}
	return a, z, true
}

// highlightMatch splits label into segments, the first match of query
// (as the core matches) in the match style, so the match shows without
// colour too (the default underlines it).
func highlightMatch(label, query string) []seg {
	a, z, ok := matchRange(label, query)
	if !ok {
		return []seg{{label, partLabel}}
	}
	a, z = wholeClusters(label, a, z)
	return []seg{{label[:a], partLabel}, {label[a:z], partMatch}, {label[z:], partLabel}}
}

func loweredLen(r rune) int {
	switch r {
	case '\u0130':
		return len("i\u0307")
	case '\u03a3':
		return len("σ")
	}
	return len(strings.ToLower(string(r)))
}

// wholeClusters widens the byte range [a, z) of s to whole grapheme
// clusters, so no segment of a row starts inside one: a cluster's pieces
// can measure narrower apart than together (a query of U+FE0F alone
// would split the keycap "1️⃣"), and a row is fitted by adding up the
// widths of its segments.
func wholeClusters(s string, a, z int) (int, int) {
	na, nz := a, z
	for i := 0; i < len(s); {
		c, _ := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
		n := max(len(c), 1)
		if i <= a && a < i+n {
			na = i
		}
		if i < z && z <= i+n {
			nz = i + n
		}
		i += n
	}
	return na, nz
}
