package demo

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/sessionref"
)

var (
	ctrlO = tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	pgUp  = tea.KeyPressMsg{Code: tea.KeyPgUp}
)

var (
	moreBelow = regexp.MustCompile(`↓ (\d+) more(?: lines?)? · pgdn`)
	moreAbove = regexp.MustCompile(`↑ (\d+) more(?: lines?)? · pgup`)
)

// TestTranscriptSaysThereIsMore: after ctrl+o expands a card (here at
// 80×16: the test store's sessions are short), the message and reply below it are out of view, and the transcript
// says so with the key that shows them; paging down to the end takes the
// sign away and one for the lines above appears; the hint line names
// the paging keys while the transcript scrolls.
func TestTranscriptSaysThereIsMore(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 80, 16, nil)
	if moreBelow.MatchString(text(m)) || moreAbove.MatchString(text(m)) {
		t.Fatalf("a scroll sign on a transcript that fits:\n%s", text(m))
	}
	if strings.Contains(lastLine(m), "pgup") {
		t.Fatalf("paging keys offered with nothing to page: %q", lastLine(m))
	}
	m = drive(m, ctrlO)
	sc := text(m)
	below := moreBelow.FindStringSubmatch(sc)
	if below == nil {
		t.Fatalf("expanded card hides the rest with no sign:\n%s", sc)
	}
	if want := m.vp.TotalLineCount() - m.vp.YOffset() - m.vp.Height(); below[1] != itoa(want) {
		t.Fatalf("sign says %s more lines, %d are below", below[1], want)
	}
	if !strings.Contains(lastLine(m), "pgup/pgdn") {
		t.Fatalf("hint line %q does not name the paging keys", lastLine(m))
	}
	for range 20 {
		m = drive(m, pgDn)
	}
	sc = text(m)
	if moreBelow.MatchString(sc) || !moreAbove.MatchString(sc) || !strings.Contains(sc, "Assistant") {
		t.Fatalf("at the end:\n%s", sc)
	}
	for _, l := range strings.Split(sc, "\n") {
		if moreAbove.MatchString(l) && !strings.HasSuffix(strings.TrimRight(l, " "), "pgup") {
			t.Fatalf("the sign is not at the right: %q", l)
		}
	}
	m = drive(m, pgUp)
	if !moreBelow.MatchString(text(m)) {
		t.Fatalf("back up, no sign below:\n%s", text(m))
	}
	// While the picker is open it lies over the transcript: no sign.
	m = typeIn(m, "@")
	if !m.comp.Picker().IsOpen() || moreBelow.MatchString(text(m)) || moreAbove.MatchString(text(m)) {
		t.Fatalf("picker open:\n%s", text(m))
	}
}

// TestScrollSignsFitSmall: at 40×12 the signs fit the width and the
// screen its height.
func TestScrollSignsFitSmall(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 40, 12, nil)
	m = drive(m, ctrlO)
	m = drive(m, pgDn)
	sc := text(m)
	if !moreBelow.MatchString(sc) || !moreAbove.MatchString(sc) {
		t.Fatalf("no signs at 40×12:\n%s", sc)
	}
	lines := strings.Split(sc, "\n")
	if len(lines) > 12 {
		t.Fatalf("%d lines", len(lines))
	}
}

// TestScrollLineCoversNothing: the "↑/↓ N more lines" signs take a row
// of their own under the transcript: every transcript row the viewport
// shows is on screen as it is, and the signs' row holds nothing else; at
// 40 and 80 columns, before and after ctrl+o and paging.
func TestScrollLineCoversNothing(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {80, 12}, {80, 16}} {
		m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, sz[0], sz[1], nil)
		signs := 0
		for step, k := range []tea.KeyPressMsg{ctrlO, pgDn, pgDn, pgUp, ctrlO} {
			m = drive(m, k)
			lines := strings.Split(text(m), "\n")
			vp := strings.Split(ansi.Strip(m.vp.View()), "\n")
			for i, want := range vp {
				if got := lines[headerH+i]; strings.TrimRight(got, " ") != strings.TrimRight(want, " ") {
					t.Fatalf("%v step %d: transcript row %d is %q on screen, %q in the transcript", sz, step, i, got, want)
				}
			}
			for i, l := range lines {
				loc := regexp.MustCompile(`[↑↓] \d+`).FindStringIndex(l)
				if loc == nil {
					continue
				}
				signs++
				if i < headerH+len(vp) || strings.TrimSpace(l[:loc[0]]) != "" {
					t.Fatalf("%v step %d: a scroll sign shares row %d with text: %q", sz, step, i, l)
				}
			}
			if len(lines) > sz[1] {
				t.Fatalf("%v step %d: %d lines", sz, step, len(lines))
			}
		}
		if signs == 0 {
			t.Fatalf("%v: never a scroll sign: the test proves nothing", sz)
		}
	}
}

// TestHelpListsMouseAndEveryNewlineKey: F1 names the mouse's uses and
// every key that makes a newline, not only shift+enter.
func TestHelpListsMouseAndEveryNewlineKey(t *testing.T) {
	m := at(t, scenario{"help", sessionref.Config{}, func(m Model) Model { return drive(m, f1) }}, 200, 60, nil)
	sc := text(m)
	for _, want := range []string{"shift+enter", "alt+enter", "ctrl+j", "wheel", "scroll the transcript", "click", "expand/collapse a card", "pgup", "pgdn"} {
		if !strings.Contains(sc, want) {
			t.Errorf("F1 lacks %q", want)
		}
	}
	// Everything fits at 200×60: no scroll keys offered.
	if strings.Contains(lastLine(m), "scroll") || !strings.Contains(lastLine(m), "all ") {
		t.Errorf("F1 footer offers scrolling with nothing to scroll: %q", lastLine(m))
	}
	small := at(t, scenario{"help", sessionref.Config{}, func(m Model) Model { return drive(m, f1) }}, 80, 24, nil)
	if !strings.Contains(lastLine(small), "pgup/pgdn") {
		t.Errorf("F1 footer at 80×24 does not offer scrolling: %q", lastLine(small))
	}
	noMouse := at(t, scenario{"help", sessionref.Config{}, func(m Model) Model { return drive(m, f1) }}, 200, 60, func(o *Options) { o.NoMouse = true })
	if strings.Contains(text(noMouse), "wheel") {
		t.Error("F1 names the mouse with mouse reporting off")
	}
}

// TestInspectorSummaryKeepsIndent: a reference's summary line that wraps
// at 40 columns keeps its indent on every line.
func TestInspectorSummaryKeepsIndent(t *testing.T) {
	m := at(t, scenario{"inspector", sessionref.Config{}, func(m Model) Model { return drive(sendWithReference(m), ctrlT) }}, 40, 12, nil)
	lines := strings.Split(stripAll(m.inspVP.GetContent()), "\n")
	in := false
	n := 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "── message 1 of 2"):
			in = true
			continue
		case in && strings.HasPrefix(l, "session-reference"):
			continue // the title's own wrap
		case in && strings.TrimSpace(l) == "":
			in = false
		case in:
			n++
			if !strings.HasPrefix(l, "   ") {
				t.Errorf("summary line without its indent: %q", l)
			}
		}
	}
	if n < 2 {
		t.Fatalf("the summary did not wrap (%d lines):\n%s", n, strings.Join(lines, "\n"))
	}
}

func lastLine(m Model) string {
	lines := strings.Split(text(m), "\n")
	return lines[len(lines)-1]
}

func itoa(n int) string { return strconv.Itoa(n) }

func stripAll(s string) string { return ansi.Strip(s) }

// Home and End jump to the top and the bottom of the inspector and of
// F1, and the bottom line offers them when it has room.
func TestOverlaysGoToStartAndEnd(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 80, 12, nil)
	for _, open := range []tea.KeyPressMsg{f1, {Code: 't', Mod: tea.ModCtrl}} {
		m = drive(m, open)
		first := lastLine(m)
		if !strings.Contains(first, "lines 1–") {
			t.Fatalf("not at the top: %q", first)
		}
		m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnd})
		if l := lastLine(m); !strings.Contains(l, "(100%)") {
			t.Fatalf("end did not reach the bottom: %q", l)
		}
		m = drive(m, tea.KeyPressMsg{Code: tea.KeyHome})
		if l := lastLine(m); !strings.Contains(l, "lines 1–") {
			t.Fatalf("home did not reach the top: %q", l)
		}
		m = drive(m, esc)
	}
	wide := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 120, 12, nil)
	if l := lastLine(drive(wide, f1)); !strings.Contains(l, "home/end") {
		t.Fatalf("the bottom line does not offer home/end at 120 columns: %q", l)
	}
}

// A click on the scroll line toggles no card: the line below the
// transcript is not a transcript row, even when a card is scrolled just
// out of sight below it.
func TestClickOnScrollLineTogglesNothing(t *testing.T) {
	twice := func(m Model) Model { return sendWithReference(sendWithReference(m)) }
	m := at(t, scenario{"sent twice", sessionref.Config{}, twice}, 100, 14, nil)
	row := headerH + m.vp.Height()
	hidden := false
	for range 40 { // scroll up a line at a time until a card starts just below the view
		if _, ok := m.cardAt(row); ok {
			hidden = true
			break
		}
		m.vp.ScrollUp(1)
	}
	if !hidden {
		t.Fatal("no card below the view: the test proves nothing")
	}
	before := map[int64]bool{}
	for seq, c := range m.cards {
		before[seq] = c.Expanded()
	}
	m = drive(m, tea.MouseClickMsg{X: 5, Y: row, Button: tea.MouseLeft})
	for seq, c := range m.cards {
		if c.Expanded() != before[seq] {
			t.Fatalf("a click on the scroll line (row %d) toggled card %d", row, seq)
		}
	}
}

// TestSendScrollsToTheNewest: after the transcript was scrolled up (pgup,
// or pgup then ctrl+o expanding a card), a send brings the message and
// its reply into view, so the send never looks lost.
func TestSendScrollsToTheNewest(t *testing.T) {
	for _, keys := range [][]tea.KeyPressMsg{{pgUp}, {pgUp, ctrlO}} {
		for _, sz := range [][2]int{{40, 12}, {80, 16}} {
			m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, sz[0], sz[1], nil)
			m = sendWithReference(m) // enough lines to scroll
			for _, k := range keys {
				m = drive(m, k)
			}
			if m.vp.AtBottom() {
				t.Fatalf("%v %v: setup: the transcript is at its bottom", sz, keys)
			}
			m = typeIn(m, "zzq latest words")
			m = drive(m, enter)
			if !m.vp.AtBottom() {
				t.Fatalf("%v %v: after a send the transcript is not at its newest:\n%s", sz, keys, text(m))
			}
			if sc := text(m); !strings.Contains(strings.Join(strings.Fields(sc), " "), "zzq latest words Assistant · demo stand-in [demo stand-in, no model] Message received.") || moreBelow.MatchString(sc) {
				t.Fatalf("%v %v: the reply is not in view:\n%s", sz, keys, sc)
			}
		}
	}
}

// TestCardRendersOffUpdate: ctrl+o and a resize of an expanded card
// return with a placeholder where the conversation goes; the Cmd they
// return renders it, and the card the user expanded shows from its top.
func TestCardRendersOffUpdate(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 80, 16, nil)
	next, cmd := m.Update(ctrlO)
	m = next.(Model)
	seq, _ := m.lastCard()
	if c := m.cards[seq]; !c.Expanded() || !c.Rendering() || !strings.Contains(text(m), "rendering the conversation…") {
		t.Fatalf("ctrl+o: expanded %v, rendering %v:\n%s", c.Expanded(), c.Rendering(), text(m))
	}
	for _, msg := range run(cmd) {
		m = drive(m, msg)
	}
	sc := text(m)
	if m.cards[seq].Rendering() || strings.Contains(sc, "rendering the conversation…") || !strings.Contains(sc, "▾ Referenced") || !strings.Contains(sc, "You:") {
		t.Fatalf("the render did not show the card from its top:\n%s", sc)
	}
	next, cmd = m.Update(tea.WindowSizeMsg{Width: 60, Height: 16})
	m = next.(Model)
	if !m.cards[seq].Rendering() {
		t.Fatal("a resize rendered the expanded card in Update")
	}
	for _, msg := range run(cmd) {
		m = drive(m, msg)
	}
	// The size settles (the demo's tick never fires in tests: its message
	// is delivered here); an older size's settling starts nothing.
	if _, cmd := m.Update(resizedMsg{m.resizes - 1}); cmd != nil {
		t.Fatal("a size that did not last started a render")
	}
	m = drive(m, resizedMsg{m.resizes})
	if m.cards[seq].Rendering() || strings.Contains(text(m), "rendering the conversation…") {
		t.Fatalf("after a resize the render did not come:\n%s", text(m))
	}
}

// TestHelpLaidOutAsOneTable: F1's columns line up across the rows they
// wrap into (each section one table), pgup is listed once with one
// meaning, F1 over the inspector opens the keys and Esc goes back to
// the inspector, and a resize keeps F1 where it was read.
func TestHelpLaidOutAsOneTable(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 80, 40, nil)
	m = drive(m, f1)
	lines := strings.Split(ansi.Strip(m.helpVP.GetContent()), "\n")
	// In the Writing section every description starts in one column.
	descAt := map[int]bool{}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		for _, first := range []string{"shift+enter ", "home ", "ctrl+home "} { // rows of both tables
			if strings.HasPrefix(l, first) {
				descAt[len(l)-len(strings.TrimLeft(l[len(first):], " "))] = true
			}
		}
	}
	if len(descAt) != 1 {
		t.Fatalf("Writing's descriptions start in %d columns:\n%s", len(descAt), strings.Join(lines, "\n"))
	}
	writing := strings.Join(lines[:slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "In the picker") })], "\n")
	if strings.Contains(writing, "pgup") || strings.Contains(writing, "pgdn") {
		t.Fatalf("pgup listed under Writing, though the transcript takes it:\n%s", writing)
	}

	m = drive(drive(m, esc), ctrlT)
	m = drive(m, f1)
	if m.screen != helpScreen {
		t.Fatal("F1 in the inspector does nothing")
	}
	if m = drive(m, esc); m.screen != inspectScreen {
		t.Fatalf("Esc from F1 opened over the inspector went to screen %d", m.screen)
	}

	m = drive(drive(m, esc), tea.WindowSizeMsg{Width: 60, Height: 14})
	m = drive(m, f1)
	for range 2 {
		m = drive(m, pgDn)
	}
	at := scrolled(m.helpVP)
	if at == 0 || at == 1 {
		t.Fatalf("setup: F1 at %v", at)
	}
	m = drive(m, tea.WindowSizeMsg{Width: 50, Height: 14})
	if got := scrolled(m.helpVP); got < at-0.15 || got > at+0.15 {
		t.Fatalf("a resize moved F1 from %.2f to %.2f of its length", at, got)
	}
}

// The inspector read to its end stays at its end through a resize to a
// size where everything fits and back: the size in between says nothing
// of where the reader was.
func TestInspectorKeepsItsPlaceThroughASizeThatFits(t *testing.T) {
	m := at(t, scenario{"sent", sessionref.Config{}, sendWithReference}, 80, 12, nil)
	m = drive(m, ctrlT)
	m = drive(m, tea.KeyPressMsg{Code: tea.KeyEnd})
	if l := lastLine(m); !strings.Contains(l, "(100%)") {
		t.Fatalf("setup: end did not reach the bottom: %q", l)
	}
	m = drive(m, tea.WindowSizeMsg{Width: 200, Height: 200})
	if m.inspVP.TotalLineCount() > m.inspVP.Height() {
		t.Fatalf("setup: the inspector does not fit at 200×200 (%d lines)", m.inspVP.TotalLineCount())
	}
	m = drive(m, tea.WindowSizeMsg{Width: 80, Height: 12})
	if l := lastLine(m); !strings.Contains(l, "(100%)") {
		t.Fatalf("the inspector left its end after a resize through a size that fits: %q", l)
	}
	// Opened again, it starts at the top, whatever the last reading was.
	m = drive(drive(m, esc), tea.WindowSizeMsg{Width: 200, Height: 200})
	m = drive(drive(m, ctrlT), tea.WindowSizeMsg{Width: 80, Height: 12})
	if l := lastLine(m); !strings.Contains(l, "lines 1–") {
		t.Fatalf("the inspector opened again is not at its top: %q", l)
	}
}

// The inspector says a snapshot was truncated, as the card does collapsed
// and expanded: the summary names every flag of the record.
func TestInspectorSaysTruncated(t *testing.T) {
	for _, budget := range []int{250, 0} {
		m := at(t, scenario{"inspector", sessionref.Config{MaxReferenceBytes: budget}, func(m Model) Model { return drive(sendWithReference(m), ctrlT) }}, 200, 60, nil)
		at, ok := m.lastReference()
		if !ok {
			t.Fatalf("budget %d: nothing was referenced", budget)
		}
		seq := *m.events[at].Seq
		rec := m.cards[seq].Record()
		if len(rec.References) == 0 {
			t.Fatalf("budget %d: no reference in the record", budget)
		}
		got := strings.Contains(stripAll(m.inspVP.GetContent()), ", truncated")
		if want := rec.References[0].Truncated; got != want {
			t.Fatalf("budget %d: the inspector says truncated %v, the record %v", budget, got, want)
		}
		if budget == 250 && !got {
			t.Fatalf("setup: a 250-byte budget did not truncate")
		}
	}
}
