package mention

import (
	"slices"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Textarea adds mentions to a bubbles textarea.Model that the host keeps
// owning: the host calls any of the textarea's methods as before, and
// passes its messages through [Textarea.Update] instead of the
// textarea's own Update. The textarea shows each mention as its readable
// "@label"; the adapter keeps which session each one stands for, and
// [Textarea.Value] gives the canonical text to send.
//
// What the textarea cannot do, and the composer package can: draw a
// mention in its own style (the textarea styles whole lines, so a token
// looks like the text around it), and hold the cursor off a token's
// inside (the cursor may stop inside "@label"; an edit there turns the
// token back into plain text, and Backspace or Delete at its edge remove
// it whole). A host that wants those uses composer.Model instead.
//
// Textarea is a value; its methods that change it take a pointer, as the
// textarea's own setters do.
type Textarea struct {
	tracker Tracker
	picker  picker.Model
	x, y    int // the textarea's top-left cell on the screen
	item    *picker.PickedMsg
	// waiting is set while a pick asked for before the picker's answer
	// waits for it; pickEnd is where the query ended then. Text typed
	// meanwhile goes after it.
	waiting bool
	pickEnd int
}

// NewTextarea returns an adapter that completes mentions with p, a
// picker the adapter owns from then on (see [Textarea.Picker]).
func NewTextarea(p picker.Model) Textarea { return Textarea{picker: p} }

// Picker returns the picker, for its Layer (the popup, placed at the
// '@' being completed), its KeyMap (for help) and its state. Changing
// the copy changes nothing; use [Textarea.SetPicker] for that.
func (a Textarea) Picker() picker.Model { return a.picker }

// SetPicker replaces the picker (new styles, key map, bounds).
func (a *Textarea) SetPicker(p picker.Model) { a.picker = p }

// SetOrigin tells the adapter where the textarea's top-left cell is on
// the screen, so the popup hangs from the '@' being completed.
func (a *Textarea) SetOrigin(x, y int) { a.x, a.y = x, y }

// Spans returns the mentions in the textarea, in text order, as byte
// ranges of its Value.
func (a Textarea) Spans() []Span { return a.tracker.Spans() }

// References returns the mentioned sessions, in text order.
func (a Textarea) References() []sessionref.Reference { return a.tracker.References() }

// Value returns the canonical text of ta — every mention as
// @[label](dsh-session:…) — for sessionref's Prepare.
func (a Textarea) Value(ta textarea.Model) string {
	t := a.tracker
	t.spans = slices.Clone(t.spans)
	t.Follow(ta.Value(), cursorOffset(ta), false)
	return t.Canonical()
}

// SetValue sets ta to canonical text (a saved draft, a recalled message):
// its mentions show as "@label" and stay mentions.
func (a *Textarea) SetValue(ta *textarea.Model, canonical string) {
	res := a.tracker.SetValue(canonical)
	a.apply(ta, res)
	a.closePicker()
}

// Reset empties ta and forgets its mentions.
func (a *Textarea) Reset(ta *textarea.Model) {
	ta.Reset()
	a.tracker.Reset()
	a.closePicker()
}

// TakePick returns the last pick of a row of a host's own section (see
// picker.WithSection): the adapter has already replaced the @query with
// the item's Insert text; a host that attaches the item reads its Value.
// Session picks are the adapter's own: they become tokens.
func (a *Textarea) TakePick() (picker.PickedMsg, bool) {
	if a.item == nil {
		return picker.PickedMsg{}, false
	}
	p := *a.item
	a.item = nil
	return p, true
}

// Sync makes the adapter follow changes the host made to ta itself
// (SetValue, InsertString, Reset, a recalled history entry) outside
// Update. Update syncs first anyway; call Sync when something reads the
// adapter (Spans, the popup) before the next message.
func (a *Textarea) Sync(ta *textarea.Model) {
	if ta.Value() == a.tracker.Text() {
		return
	}
	a.follow(ta, false)
}

// Update handles msg for ta and the picker: call it for every message in
// place of ta.Update. While the picker is open it takes the picker's keys
// (moves, Tab and Enter to pick, Esc to close) and clicks; it passes
// everything else to ta.Update and then follows the edit: a token the
// edit touched inside becomes plain text, pasted canonical mentions
// become tokens, and the picker opens, follows or closes with the
// @query. Backspace and Delete at a token's edge remove the token whole.
// The picker's own messages (its answers and timers) must reach it
// through here too, so route every message you do not handle yourself.
func (a *Textarea) Update(ta *textarea.Model, msg tea.Msg) tea.Cmd {
	a.Sync(ta)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if a.picker.WantsKey(msg) {
			return a.updatePicker(ta, msg)
		}
		if !a.waiting && EndsQuery(a.picker, msg.Text) {
			a.closePicker()
			a.tracker.Dismiss()
		}
		switch {
		case key.Matches(msg, ta.KeyMap.DeleteCharacterBackward):
			if res, ok := a.tracker.DeleteBefore(cursorOffset(*ta)); ok {
				a.apply(ta, res)
				return a.show(ta, res)
			}
		case key.Matches(msg, ta.KeyMap.DeleteCharacterForward):
			if res, ok := a.tracker.DeleteAfter(cursorOffset(*ta)); ok {
				a.apply(ta, res)
				return a.show(ta, res)
			}
		}
		var cmd tea.Cmd
		*ta, cmd = ta.Update(msg)
		return tea.Batch(cmd, a.follow(ta, alongLine(ta.KeyMap, msg)))
	case tea.MouseMsg:
		if a.picker.WantsMouse(msg) {
			return a.updatePicker(ta, msg)
		}
		var cmd tea.Cmd
		*ta, cmd = ta.Update(msg)
		return tea.Batch(cmd, a.follow(ta, false))
	case tea.WindowSizeMsg:
		a.picker.SetScreenSize(msg.Width, msg.Height)
	}
	pcmd := a.updatePicker(ta, msg)
	var tcmd tea.Cmd
	*ta, tcmd = ta.Update(msg)
	return tea.Batch(pcmd, tcmd, a.follow(ta, false))
}

// alongLine reports a move along the line, which may open an @query the
// cursor lands in (a vertical move does not).
func alongLine(k textarea.KeyMap, msg tea.KeyPressMsg) bool {
	return key.Matches(msg, k.CharacterBackward, k.CharacterForward, k.WordBackward, k.WordForward,
		k.LineStart, k.LineEnd)
}

// updatePicker passes msg to the picker and takes what it did: a session
// pick becomes a token, a host item waits for TakePick, a close by the
// user (Esc, a click outside) makes the @word text.
func (a *Textarea) updatePicker(ta *textarea.Model, msg tea.Msg) tea.Cmd {
	wasOpen := a.picker.IsOpen()
	var cmd tea.Cmd
	a.picker, cmd = a.picker.Update(msg)
	p, picked := a.takePick()
	waited, end := a.waiting, a.pickEnd
	a.waiting = false
	switch {
	case picked && p.Item == nil: // a session: a token
		label := p.Candidate.Label
		ref := sessionref.Reference{SessionID: p.Candidate.SessionID, Label: &label}
		cur := cursorOffset(*ta)
		var res Result
		var ok bool
		if waited {
			res, ok = a.tracker.PickUntil(ref, end, cur)
		} else {
			res, ok = a.tracker.Pick(ref, cur)
		}
		if ok {
			a.apply(ta, res)
		}
		return tea.Batch(cmd, a.show(ta, res))
	case picked:
		// A host's item: its Insert replaces the @query (an empty one
		// just removes it), and the pick waits for TakePick, for a host
		// that attaches the item's Value.
		res := a.tracker.Replace(p.Item.Insert, nil, cursorOffset(*ta))
		a.apply(ta, res)
		a.item = &p
		return cmd
	case a.picker.Accepting():
		// Tab or Enter before the answer: the pick waits for it.
		a.waiting, a.pickEnd = true, end
		if !waited {
			a.pickEnd = cursorOffset(*ta)
		}
	case wasOpen && !a.picker.IsOpen():
		a.tracker.Dismiss()
	}
	return cmd
}

func (a *Textarea) takePick() (picker.PickedMsg, bool) {
	var p picker.PickedMsg
	var ok bool
	a.picker, p, ok = a.picker.TakePick()
	return p, ok
}

// follow reads ta after a change, rewrites it when the tracker says so,
// and opens, updates or closes the picker.
func (a *Textarea) follow(ta *textarea.Model, reopen bool) tea.Cmd {
	res := a.tracker.Follow(ta.Value(), cursorOffset(*ta), reopen)
	if res.Rewrite {
		a.apply(ta, res)
	}
	return a.show(ta, res)
}

// show opens, follows or closes the picker for res, and anchors it.
func (a *Textarea) show(ta *textarea.Model, res Result) tea.Cmd {
	if a.waiting {
		if res.Open && res.Cursor >= a.pickEnd && res.At < a.pickEnd {
			return nil // typed on after the query: the pick still waits
		}
		a.waiting = false // went back into the query: the pick is dropped
		a.closePicker()
		return nil
	}
	if !res.Open {
		a.closePicker()
		return nil
	}
	a.anchor(*ta, res.At)
	var cmd tea.Cmd
	if a.picker.IsOpen() {
		a.picker, cmd = a.picker.SetQuery(res.Query)
	} else {
		a.picker, cmd = a.picker.Open(res.Query)
	}
	return cmd
}

func (a *Textarea) closePicker() {
	if a.picker.IsOpen() {
		a.picker = a.picker.Close()
	}
}

// anchor hangs the popup from the '@' at byte at: above or below the
// textarea's visible lines, at the '@”s column.
func (a *Textarea) anchor(ta textarea.Model, at int) {
	x, _, ok := AtCell(ta, at)
	if !ok {
		return
	}
	a.picker.SetAnchorSpan(a.x+x, a.y, a.y+max(ta.Height()-1, 0))
}

// AtCell returns the cell of byte offset at of ta's value, relative to
// the textarea's top-left cell as its View draws it: after soft wraps,
// the prompt (or prompt function) and line numbers, in a scrolled
// textarea. at must be on the cursor's line (a pending @query always
// is); it reports false otherwise, when ta is not focused, or when the
// cell is scrolled out of view. ta is not changed.
func AtCell(ta textarea.Model, at int) (x, y int, ok bool) {
	row, col := rowCol(ta.Value(), at)
	if !ta.Focused() || row != ta.Line() {
		return 0, 0, false
	}
	// ta is a copy: moving its cursor along the line and asking for the
	// real cursor touches nothing the host holds.
	ta.SetVirtualCursor(false)
	ta.SetCursorColumn(col)
	c := ta.Cursor()
	if c == nil || c.Y < 0 || c.Y >= ta.Height() {
		return 0, 0, false
	}
	return c.X, c.Y, true
}

// apply sets ta to res's text and cursor.
func (a *Textarea) apply(ta *textarea.Model, res Result) {
	if ta.Value() != res.Text {
		ta.SetValue(res.Text)
	}
	setCursor(ta, res.Text, res.Cursor)
	if ta.Value() != res.Text {
		// The textarea changed what it was given (its sanitiser, its
		// character limit): follow what it holds.
		a.tracker.Follow(ta.Value(), cursorOffset(*ta), false)
	}
}

// cursorOffset is ta's cursor as a byte offset of its value.
func cursorOffset(ta textarea.Model) int {
	v := ta.Value()
	row, col := ta.Line(), ta.Column()
	off := 0
	for i := 0; i < row; i++ {
		nl := strings.IndexByte(v[off:], '\n')
		if nl < 0 {
			return len(v)
		}
		off += nl + 1
	}
	for i := 0; i < col && off < len(v) && v[off] != '\n'; i++ {
		_, n := utf8.DecodeRuneInString(v[off:])
		off += n
	}
	return off
}

// rowCol is the line and the rune column of byte offset at in v.
func rowCol(v string, at int) (row, col int) {
	at = min(max(at, 0), len(v))
	row = strings.Count(v[:at], "\n")
	start := strings.LastIndexByte(v[:at], '\n') + 1
	return row, utf8.RuneCountInString(v[start:at])
}

// setCursor puts ta's cursor at byte offset at of text.
func setCursor(ta *textarea.Model, text string, at int) {
	row, col := rowCol(text, at)
	if ta.Line() > row {
		ta.MoveToBegin()
	}
	for guard := len(text) + 1; ta.Line() < row && guard > 0; guard-- {
		ta.CursorDown()
	}
	ta.SetCursorColumn(col)
}

// SetTarget tells the picker the session the draft is now written in (a
// host switched sessions): its next fetches rank for it, and an answer
// for the old session is never shown. See picker.Model.SetTarget.
func (a *Textarea) SetTarget(t sessionref.Target) tea.Cmd {
	return a.picker.SetTarget(t)
}
