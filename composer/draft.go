package composer

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
)

// atom is one unit of the draft: a grapheme cluster of text, or a token.
// The cursor sits between atoms, so a token is always one step. Atoms
// are derived from the mention model's readable text (see sync): atom i
// covers its bytes [offs[i], offs[i]+n), a token's chip for a token. An
// atom holds no pointer, so copying the atoms of a large draft (every
// edit makes a new slice, which copies of the composer do not share)
// is a plain memory move the collector never scans.
type atom struct {
	n     int32 // bytes of the readable text
	w     int32 // cells on screen, of the atom as shown (see display)
	flags uint8
}

const (
	atomSpace   = 1 << iota // whitespace, where words end and lines may break
	atomNewline             // a line break
	atomToken               // a mention token
	atomASCII               // one printable ASCII character, which never joins a cluster
)

func (a atom) isSpace() bool   { return a.flags&atomSpace != 0 }
func (a atom) isNewline() bool { return a.flags&atomNewline != 0 }
func (a atom) isToken() bool   { return a.flags&atomToken != 0 }

func isSpaceText(s string) bool {
	return s != "" && strings.TrimFunc(s, unicode.IsSpace) == ""
}

func tokenAtom(chip string) atom {
	return atom{n: int32(len(chip)), w: int32(textutil.Width(chip)), flags: atomToken}
}

// dottedCircle is the base a lone combining mark is shown on.
const dottedCircle = "\u25cc"

// display is how cluster c appears on screen: through the one sanitiser
// every view uses, so a control or format character is kept in the draft
// but shown escaped; and self-contained, so it cannot join what is drawn
// beside it (the prompt, a chip, the cursor cell) into a cluster of
// another width: a cluster that starts with a combining mark, a
// variation selector or a joiner (the first of a line, or after a token)
// is shown on a dotted circle, as fonts show lone marks, and one that
// ends with a prepended mark gets one after it.
func display(c string) string {
	s := textutil.Inline(c)
	if s == "" {
		return s
	}
	if s[0] >= 0x80 {
		if first, _ := ansi.FirstGraphemeCluster("x"+s, ansi.GraphemeWidth); first != "x" {
			s = dottedCircle + s
		}
	}
	if s[len(s)-1] >= 0x80 {
		probe := s + "x"
		for probe != "" {
			c, _ := ansi.FirstGraphemeCluster(probe, ansi.GraphemeWidth)
			if c == "" || len(c) == len(probe) {
				break
			}
			probe = probe[len(c):]
		}
		if probe != "x" {
			s += dottedCircle
		}
	}
	return s
}

// textAtoms splits s into grapheme clusters, segmented as x/ansi (and so
// lipgloss) segments them, so the sum of the atoms' widths is the width
// the line is measured at. The atoms' texts add up to s (the mention
// model has made tabs spaces and CR LF a LF already, so what is shown is
// what is sent).
func textAtoms(s string) []atom {
	out := make([]atom, 0, len(s))
	for s != "" {
		c, _ := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if c == "" { // never, but a stuck loop would be worse
			c = s[:1]
		}
		s = s[len(c):]
		a := atom{n: int32(len(c))}
		switch {
		case c == "\n":
			a.flags = atomSpace | atomNewline
		case len(c) == 1 && c[0] > 0x20 && c[0] < 0x7f:
			a.w, a.flags = 1, atomASCII
		default:
			if isSpaceText(c) {
				a.flags = atomSpace
			}
			a.w = int32(textutil.Width(display(c)))
		}
		out = append(out, a)
	}
	return out
}

// wordLeft returns the start of the word before i: skip spaces, then
// non-spaces. A token is a word of its own.
func wordLeft(atoms []atom, i int) int {
	for i > 0 && atoms[i-1].isSpace() {
		i--
	}
	if i > 0 && atoms[i-1].isToken() {
		return i - 1
	}
	for i > 0 && !atoms[i-1].isSpace() && !atoms[i-1].isToken() {
		i--
	}
	return i
}

// wordRight returns the end of the word after i.
func wordRight(atoms []atom, i int) int {
	n := len(atoms)
	for i < n && atoms[i].isSpace() {
		i++
	}
	if i < n && atoms[i].isToken() {
		return i + 1
	}
	for i < n && !atoms[i].isSpace() && !atoms[i].isToken() {
		i++
	}
	return i
}

// line is one visual line: atoms[start:end]. A line ended by a newline
// does not include it; the next line starts after it.
type line struct{ start, end int }

// wrap lays atoms out in lines of at most width cells, breaking after
// spaces when it can and inside a word only when a word is wider than a
// line. An atom wider than a whole line (a long chip, an escaped
// sequence in a narrow editor) sits alone on its line and is drawn cut to
// the width, so it counts as width cells (see cells).
func wrap(atoms []atom, width int) []line {
	width = max(width, 1)
	var lines []line
	start, col, brk := 0, 0, -1 // brk: index after the last space on the line
	for i := 0; i < len(atoms); i++ {
		a := atoms[i]
		if a.isNewline() {
			lines = append(lines, line{start, i})
			start, col, brk = i+1, 0, -1
			continue
		}
		w := min(int(a.w), width)
		for col > 0 && col+w > width {
			if brk > start && brk <= i {
				lines = append(lines, line{start, brk})
				start = brk
				col = cells(atoms[start:i], width)
			} else {
				lines = append(lines, line{start, i})
				start, col = i, 0
			}
			brk = -1
		}
		col += w
		if a.isSpace() {
			brk = i + 1
		}
	}
	return append(lines, line{start, len(atoms)})
}

// cells is the width the atoms take on a line of width cells.
func cells(atoms []atom, width int) int {
	w := 0
	for _, a := range atoms {
		w += min(int(a.w), width)
	}
	return w
}

// lineOf returns the index of the line the cursor position i is on: the
// last line that starts at or before it.
func lineOf(lines []line, i int) int {
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid].start <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// indexAtCol returns the cursor position on line l closest to column col
// without passing it, on a line of width cells.
func indexAtCol(atoms []atom, l line, col, width int) int {
	c := 0
	for i := l.start; i < l.end; i++ {
		w := min(int(atoms[i].w), width)
		if c+w > col {
			return i
		}
		c += w
	}
	return l.end
}
