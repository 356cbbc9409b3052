package sessionref

import (
	"strings"

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
