package textutil

import (
	"fmt"
	"strings"
	"time"

	"github.com/dshkit/mentions/internal/plain"
)

// Bytes renders a byte count in binary units ("512 B", "64 KiB",
// "6.1 KiB"), the one way every component prints sizes.
func Bytes(n int) string { return plain.Bytes(n) }

// ShortIDWidth is the most cells [ShortID] uses.
const ShortIDWidth = 12

// ShortID is a short, readable, safe form of a session id for places
// where the whole id does not fit: the first 8 characters of a UUID (as
// git shortens hashes), or for any other id the whole id when it fits in
// [ShortIDWidth] cells and its two ends around "…" when it does not, so
// "persisted-session-2" reads "persi…sion-2" rather than "persiste".
func ShortID(id string) string {
	id = Inline(id)
	if plain.IsUUID(id) {
		return id[:8]
	}
	return Middle(id, ShortIDWidth)
}

// IDWidth is the most cells an id's short form ever takes: 8 for a UUID,
// else the width of the whole id made safe.
func IDWidth(id string) int {
	id = Inline(id)
	if plain.IsUUID(id) {
		return 8
	}
	return Width(id)
}

// ShortIDs gives each id a short form of at most w cells, for a column of
// ids that must tell rows apart: a UUID's first 8 characters; another id
// whole when it fits, else its two ends around "…", as [ShortID] does.
// When the forms of two different ids would read the same, the point
// between head and tail moves (the same for every id, the middle first)
// to where they differ. ok is false when no split at w tells every two
// ids apart; the forms are then cut in the middle. Two UUIDs that share
// their first 8 characters, or ids that are one text once made safe,
// are not counted: no split tells them apart. w is at least 1.
func ShortIDs(ids []string, w int) (forms []string, ok bool) {
	w = max(w, 1)
	safe := make([]string, len(ids))
	// Only an id's first and last w cells can show: where each count of
	// cells ends (from the start) and starts (from the end) is found once,
	// so a split costs a slice an id however long the ids are.
	cuts := make([]idCuts, len(ids))
	for i, id := range ids {
		safe[i] = Inline(id)
		cuts[i] = cutsOf(safe[i], w)
	}
	at := func(head int) []string {
		out := make([]string, len(safe))
		for i, id := range safe {
			switch {
			case plain.IsUUID(id):
				out[i] = id[:8]
			case head < 0 || cuts[i].width <= w:
				out[i] = Middle(id, w)
			default:
				c := cuts[i]
				h := id[:c.head[head]]
				out[i] = h + "…" + id[c.tail[w-1-c.headW[head]]:]
			}
		}
		return out
	}
	forms = at(-1)
	if distinct(safe, forms) {
		return forms, true
	}
	mid := (w - 1) / 2
	for d := 1; mid-d >= 1 || mid+d <= w-2; d++ {
		for _, head := range []int{mid + d, mid - d} {
			if head < 1 || head > w-2 {
				continue
			}
			if f := at(head); distinct(safe, f) {
				return f, true
			}
		}
	}
	return forms, false
}

// idCuts are the byte offsets where an id's first k cells end (head,
// with their width headW) and where its last k cells start (tail), for k
// up to a column's width, cut at grapheme cluster boundaries as
// Truncate and LastCells cut.
type idCuts struct {
	head, headW, tail []int
	width             int
}

func cutsOf(s string, w int) idCuts {
	type cl struct{ at, w int }
	// The clusters of the first w+1 cells, and those of the longest end
	// of s that fits in w cells (a queue, as LastCells keeps it): the
	// rest of a long id is only counted.
	var first, last []cl
	c := idCuts{head: make([]int, w+1), headW: make([]int, w+1), tail: make([]int, w+1)}
	lead, tailW, at := 0, 0, 0
	pieces(s, func(p piece) bool {
		x := cl{at, p.width}
		at += len(p.text)
		if c.width <= w {
			first = append(first, x)
		}
		c.width += p.width
		last = append(last, x)
		for tailW += p.width; tailW > w; lead++ {
			tailW -= last[lead].w
		}
		if lead > 1024 && lead > len(last)/2 {
			last, lead = append(last[:0], last[lead:]...), 0
		}
		return true
	})
	last = last[lead:]
	k, used := 0, 0
	for n := 0; n <= w; n++ {
		for k < len(first) && used+first[k].w <= n {
			used += first[k].w
			k++
		}
		c.head[n], c.headW[n] = len(s), used
		if k < len(first) {
			c.head[n] = first[k].at
		}
	}
	k, used = len(last), 0
	for n := 0; n <= w; n++ {
		for k > 0 && used+last[k-1].w <= n {
			used += last[k-1].w
			k--
		}
		c.tail[n] = len(s)
		if k < len(last) {
			c.tail[n] = last[k].at
		}
	}
	return c
}

// distinct reports whether ids that differ have forms that differ.
func distinct(ids, forms []string) bool {
	seen := make(map[string]string, len(forms))
	for i, f := range forms {
		other, dup := seen[f]
		if dup && other != ids[i] && !(plain.IsUUID(other) && plain.IsUUID(ids[i])) {
			return false
		}
		seen[f] = ids[i]
	}
	return true
}

// ShortenHome writes a path under home as "~/…" ("~" for home itself).
// Only whole path elements match, so with home /home/dev the path
// /home/dev2 stays as it is. Both separators are understood, so Windows
// paths shorten too.
func ShortenHome(p, home string) string {
	home = strings.TrimRight(home, `/\`)
	if home == "" || p == "" {
		return p
	}
	if p == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, home); ok && (rest[0] == '/' || rest[0] == '\\') {
		return "~" + rest
	}
	return p
}

// PlausibleTime reports whether a Unix-millisecond creation time is one
// to show: not before 2000-01-01 UTC and not more than a day after now.
func PlausibleTime(now time.Time, unixMs int64) bool {
	return plain.PlausibleMillis(unixMs, now)
}

// Age renders how long ago a Unix-millisecond time was, the one way every
// component prints ages: "just now" (also for a time a little ahead of
// now), "5m ago", "3h ago", "12d ago", "4mo ago", "2y ago"; "—" when the
// time is unknown: zero, or not plausible (see [PlausibleTime]).
func Age(now time.Time, unixMs int64) string {
	if !PlausibleTime(now, unixMs) {
		return "—"
	}
	d := now.Sub(time.UnixMilli(unixMs))
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	case d < 365*24*time.Hour:
		return fmt.Sprintf("%dmo ago", int(d/(30*24*time.Hour)))
	}
	return fmt.Sprintf("%dy ago", int(d/(365*24*time.Hour)))
}
