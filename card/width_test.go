package card

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/textutil"
)

// wide is text whose width is easy to get wrong: keycaps, emoji ZWJ
// sequences, flags, CJK, combining marks, and emoji with a variation
// selector.
var wide = []string{
	strings.Repeat("1️⃣", 40),
	strings.Repeat("👩‍👩‍👧 ", 30),
	strings.Repeat("🇯🇵🇫🇷", 30),
	strings.Repeat("重构日志模块", 20),
	strings.Repeat("e\u0301a\u0308", 40),
	strings.Repeat("☺️❤️", 30),
	"mixed 1️⃣2️⃣ 👩‍👩‍👧 🇯🇵 重构 café e\u0301 #️⃣ *️⃣ " + strings.Repeat("x", 200),
}

// TestNoLineWiderThanTheCard puts the hard text everywhere the card
// prints untrusted text (label, title, id, cwd, conversation) and checks
// every line of the collapsed and expanded card at many widths.
func TestNoLineWiderThanTheCard(t *testing.T) {
	for _, text := range wide {
		cwd := "/home/" + text
		snap := snapshot(text, text, text, "**"+text+"**\n\n- "+text+"\n\n```\n"+text+"\n```")
		snap.Cwd = &cwd
		msg := messageOf(snap, snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "plain", "hello"))
		titles := func(string) (string, bool) { return "title " + text, true }
		for _, w := range []int{10, 17, 24, 41, 80, 121} {
			st := DefaultStyles(true)
			if w%2 == 1 { // the frame is the same; the Markdown style differs
				st = PlainStyles()
			}
			c := New(msg)
			c.SetStyles(st)
			c.SetWidth(w)
			c.SetMaxHeight(400)
			c.SetTitles(titles)
			requireFits(t, c.View(), w, c.Height())
			c.Toggle()
			c.Render()
			requireFits(t, c.View(), w, c.Height())
		}
	}
}

// TestFitCorrectsUndercountedGraphemes: x/ansi's Truncate counts a keycap
// as one cell while textutil.Width counts two; the card's lines, cut by
// textutil.Fit and wrapped by textutil.HardWrap, still keep to w.
func TestFitCorrectsUndercountedGraphemes(t *testing.T) {
	s := strings.Repeat("1️⃣", 20)
	for w := 1; w <= 30; w++ {
		if got := textutil.Fit(s, w); widthOf(got) != w {
			t.Fatalf("Fit(keycaps, %d) is %d cells: %q", w, widthOf(got), got)
		}
		for _, l := range textutil.HardWrap(s, w) {
			if widthOf(l) > max(w, 2) {
				t.Fatalf("HardWrap(keycaps, %d) has a %d-cell line", w, widthOf(l))
			}
		}
	}
}

func widthOf(s string) int { w, _ := widest(s); return w }

// TestSessionLineAsThePickerShowsIt: an expanded card names a session's
// folder under the home as "~/…"; when the line is too wide the id gives
// way to its short form before the folder is cut; the capture line
// breaks between its phrases, indented, never inside "(113.6 KiB)".
func TestSessionLineAsThePickerShowsIt(t *testing.T) {
	cwd := "/home/dev/src/payments-service"
	s := snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "Ledger", "hello")
	s.Cwd = &cwd
	msg := messageOf(s)
	msg.Source.References[0].OmittedMessages = 4
	msg.Source.References[0].OmittedBytes = 116224
	for _, w := range []int{40, 80, 120} {
		c := New(msg, WithHome("/home/dev"))
		c.SetStyles(PlainStyles())
		c.SetWidth(w)
		c.Toggle()
		c.Render()
		v := ansi.Strip(c.View())
		if !strings.Contains(v, "~/src/") || strings.Contains(v, "/home/dev") {
			t.Errorf("%d: the folder is not shown as ~/…:\n%s", w, v)
		}
		if !strings.Contains(v, "4 omitted (113.5 KiB)") {
			t.Errorf("%d: the capture line is split inside a phrase:\n%s", w, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "omitted") && !strings.HasPrefix(l, "│    ") {
				t.Errorf("%d: the capture line lost its indent: %q", w, l)
			}
		}
		if w == 40 && !strings.Contains(v, "0f8e2c4a · ~/src/") {
			t.Errorf("40: the id did not give way to the folder:\n%s", v)
		}
		if w == 80 && !strings.Contains(v, "0f8e2c4a-1b2c-4d3e-8f90-123456789abc · ~/src/payments-service") {
			t.Errorf("80: the whole id and folder fit, and are not shown:\n%s", v)
		}
	}
}
