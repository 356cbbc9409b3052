// Package plain holds the text helpers that need nothing but the standard
// library, so the core (sessionref) and the UI's textutil share one copy
// without the core importing terminal code.
package plain

import "strconv"

// Bytes renders a byte count in binary units, the one way the module
// prints sizes: whole units when exact ("64 KiB", "2 MiB"), one decimal
// otherwise ("6.1 KiB"), plain bytes under 1 KiB ("512 B").
func Bytes(n int) string {
	unit, div := "", 1
	switch {
	case n >= 1<<30 || n <= -1<<30:
		unit, div = "GiB", 1<<30
	case n >= 1<<20 || n <= -1<<20:
		unit, div = "MiB", 1<<20
	case n >= 1<<10 || n <= -1<<10:
		unit, div = "KiB", 1<<10
	default:
		return strconv.Itoa(n) + " B"
	}
	if n%div == 0 {
		return strconv.Itoa(n/div) + " " + unit
	}
	return strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64) + " " + unit
}

// IsUUID reports whether s is a UUID in its 36-character text form.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}
