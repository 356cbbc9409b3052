package sessionref

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// lowerJS lowers s like JavaScript's toLocaleLowerCase in the root
// locale, which applies full special casing. Besides the simple mappings
// strings.ToLower uses, root-locale full lowering differs only for U+0130
// (İ → i + U+0307) and final sigma (Σ → ς at a word end), so only strings
// holding one of those pay for the full caser.
func lowerJS(s string) string {
	if !strings.ContainsAny(s, "\u0130\u03a3") {
		return strings.ToLower(s)
	}
	return cases.Lower(language.Und).String(s)
}

// containsLower reports whether lowerJS(s) contains needle, which is
// already lowered. ASCII text, the common case, is searched in place
// without building its lowered copy.
func containsLower(s, needle string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(lowerJS(s), needle)
		}
	}
	if len(needle) > len(s) {
		return false
	}
	if len(needle) == 0 {
		return true
	}
	first := needle[0]
	for i := 0; i+len(needle) <= len(s); i++ {
		if asciiLower(s[i]) != first {
			continue
		}
		j := 1
		for j < len(needle) && asciiLower(s[i+j]) == needle[j] {
			j++
		}
		if j == len(needle) {
			return true
		}
	}
	return false
}

func asciiLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Lower lowers s exactly as candidate matching does (JavaScript's
// toLocaleLowerCase in the root locale, full special casing), so a UI
// that highlights where a query matched agrees with what matched.
func Lower(s string) string { return lowerJS(s) }
