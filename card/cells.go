package card

import "github.com/dshkit/mentions/internal/textutil"

// The card measures every line with textutil.Width, and cuts and wraps
// through textutil: fit is textutil.Fit (cut with "…" and padded to w
// cells) and wrap is textutil.HardWrap (a styled line broken between
// grapheme clusters).
func fit(s string, w int) string { return textutil.Fit(s, w) }

func wrap(s string, w int) []string { return textutil.HardWrap(s, w) }
