// Package runes holds the rune classes the sanitisers of the core and
// of the terminal components share; it imports nothing but the standard
// library, so the core stays free of terminal packages.
package runes

import "unicode"

// Hidden reports whether r is drawn invisibly or acted on by a terminal:
// a control, a format character, another default-ignorable code point, a
// variation selector, a line or paragraph separator or a noncharacter.
func Hidden(r rune) bool {
	return unicode.IsControl(r) ||
		unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		r == '\u2028' || r == '\u2029' ||
		unicode.Is(unicode.Noncharacter_Code_Point, r)
}
