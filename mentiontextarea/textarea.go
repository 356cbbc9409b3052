package mentiontextarea

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/mentionpick"
	"github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Model adds mentions to a bubbles textarea.Model that the host keeps
// owning: the host calls any of the textarea's methods as before, and
// passes its messages through [Model.Update] instead of the textarea's
// own Update. The textarea shows each mention as its readable "@label";
// the adapter keeps a [mention.Model] that knows which session each one
// stands for, and [Model.Canonical] gives the text to send.
//
// What the textarea cannot do, and the composer package can: draw a
// mention in its own style (the textarea styles whole lines, so a token
// looks like the text around it), and hold the cursor off a token's
// inside (the cursor may stop inside "@label"; an edit there turns the
// token back into plain text, and Backspace or Delete at its edge remove
// it whole). A host that wants those uses composer.Model instead.
//
// The picker disables a session the text mentions already, and every
// session once sessionref.MaxReferences are mentioned, as the composer's
// does. A copy of a Model is independent of the original, as the
// mention model and the picker are.
type Model struct {
	draft  mention.Model
	picker picker.Model
	x, y   int // the textarea's top-left cell on the screen
	item   *picker.PickedMsg
}

// New returns an adapter that completes mentions with p, a picker the
// adapter owns from then on (see [Model.Picker]).
func New(p picker.Model) Model { return Model{picker: p} }

// Picker returns the picker, for its Layer (the popup, placed at the
// '@' being completed), its KeyMap (for help) and its state; set its
// styles, key map, bounds and screen size through it, as on the
// composer's.
func (a *Model) Picker() *picker.Model { return &a.picker }

// SetOrigin tells the adapter where the textarea's top-left cell is on
// the screen, so the popup hangs from the '@' being completed.
func (a *Model) SetOrigin(x, y int) { a.x, a.y = x, y }

// Origin returns the cell set with [Model.SetOrigin].
func (a *Model) Origin() (x, y int) { return a.x, a.y }

// Tokens returns the mentions in the textarea, in text order, as byte
// spans of its Value, as the last Update or Sync saw it.
func (a *Model) Tokens() []mention.Token { return a.draft.Tokens() }

// References returns the mentioned sessions, in text order.
func (a *Model) References() []sessionref.Reference { return a.draft.References() }

// Canonical returns the text to send for ta: every mention as
// @[label](dsh-session:…), for sessionref's Prepare. Use it, not
// ta.Value(): the textarea holds the readable text, "@label", which
// references nothing. ta is followed first (a change the host made
// itself counts), without changing the adapter.
func (a *Model) Canonical(ta textarea.Model) string {
	d := a.synced(ta)
	return d.Canonical()
}

// Readable returns ta's text as a person reads it, mentions as "@label"
// (what ta.Value() holds): for a title, a history entry, a search.
func (a *Model) Readable(ta textarea.Model) string {
	d := a.synced(ta)
	return d.Readable()
}

// synced is the mention model as it will be after following ta.
func (a *Model) synced(ta textarea.Model) mention.Model {
	d := a.draft
	if v, at := valueAndCursor(ta); v != d.Readable() {
		d.Follow(v, at, mention.Paste)
	}
	return d
}

// SetValue sets ta to canonical text (a saved draft, a recalled message):
// its mentions show as "@label" and stay mentions. ta.SetValue with
// canonical text does the same at the next Update or Sync.
func (a *Model) SetValue(ta *textarea.Model, canonical string) {
	a.draft.SetValue(canonical)
	a.apply(ta)
	a.show(ta)
}

// Reset empties ta and forgets its mentions.
func (a *Model) Reset(ta *textarea.Model) {
	ta.Reset()
	a.draft.Reset()
	a.show(ta)
}

// TakePick returns the last pick of a row of a host's own section (see
// picker.WithSection): the adapter has already replaced the @query with
// the item's Insert text; a host that attaches the item reads its Value.
// Session picks are the adapter's own: they become tokens.
func (a *Model) TakePick() (picker.PickedMsg, bool) {
	if a.item == nil {
		return picker.PickedMsg{}, false
	}
	p := *a.item
	a.item = nil
	return p, true
}

// Sync makes the adapter follow changes the host made to ta itself
// (ta.SetValue, InsertString, Reset, a recalled history entry) outside
// Update: canonical mentions in the new text become tokens, as in a
// paste. Update syncs first anyway; call Sync when something reads the
// adapter (Tokens, the popup) before the next message.
func (a *Model) Sync(ta *textarea.Model) {
	v, at := valueAndCursor(*ta)
	if v == a.draft.Readable() {
		return
	}
	if a.draft.Follow(v, at, mention.Paste) {
		a.apply(ta)
	}
	a.show(ta)
}

// WantsKey reports whether the adapter must see msg before the host's
// own key handling: the open picker's keys (moves, Tab and Enter to
// pick, Esc), Backspace at a mention's end and Delete at its start
// (which remove it whole), a space right after a pick, and a key the
// textarea is known to hang on (see the package doc). A host that
// handles keys before its textarea keeps mentions with one check:
//
//	if m.mentions.WantsKey(m.textarea, msg) {
//		return m, m.mentions.Update(&m.textarea, msg)
//	}
func (a *Model) WantsKey(ta textarea.Model, msg tea.KeyPressMsg) bool {
	if a.picker.WantsKey(msg) {
		return true
	}
	d := a.synced(ta)
	d.Move(cursorOffset(ta), mention.Jump)
	km := ta.KeyMap
	switch {
	case mentionpick.SpaceAfterPick(&d, msg):
		return true
	case key.Matches(msg, km.DeleteCharacterBackward):
		return d.DeleteBackward()
	case key.Matches(msg, km.DeleteCharacterForward):
		return d.DeleteForward()
	}
	return hangs(ta, msg)
}

// WantsMouse reports whether the adapter takes msg before anything
// underneath: while the picker is open, every click is its own (inside
// the popup it picks, outside it closes the popup).
func (a *Model) WantsMouse(msg tea.MouseMsg) bool { return a.picker.WantsMouse(msg) }

// Update handles msg for ta and the picker: call it for every message in
// place of ta.Update. While the picker is open it takes the picker's keys
// (moves, Tab and Enter to pick, Esc to close) and clicks; it passes
// everything else to ta.Update and then follows the edit: a token the
// edit touched inside becomes plain text, canonical mentions that
// arrived become tokens, and the picker opens, follows or closes with the
// @query. Backspace and Delete at a token's edge remove the token whole.
// The picker's own messages (its answers and timers) must reach it
// through here too, so route every message you do not handle yourself.
func (a *Model) Update(ta *textarea.Model, msg tea.Msg) tea.Cmd {
	a.Sync(ta)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return a.updateKey(ta, msg)
	case tea.MouseMsg:
		if a.picker.WantsMouse(msg) {
			return a.updatePicker(ta, msg)
		}
		var cmd tea.Cmd
		*ta, cmd = ta.Update(msg)
		how := mention.Jump
		if _, ok := msg.(tea.MouseClickMsg); ok {
			how = mention.Move
		}
		return tea.Batch(cmd, a.follow(ta, how))
	case tea.PasteMsg:
		var cmd tea.Cmd
		*ta, cmd = ta.Update(msg)
		return tea.Batch(cmd, a.follow(ta, mention.Paste))
	}
	pcmd := a.updatePicker(ta, msg)
	var tcmd tea.Cmd
	*ta, tcmd = ta.Update(msg)
	return tea.Batch(pcmd, tcmd, a.follow(ta, mention.Jump))
}

func (a *Model) updateKey(ta *textarea.Model, msg tea.KeyPressMsg) tea.Cmd {
	if a.picker.WantsKey(msg) {
		return a.updatePicker(ta, msg)
	}
	a.draft.Move(cursorOffset(*ta), mention.Jump)
	mentionpick.EndsQuery(&a.picker, &a.draft, msg.Text)
	km := ta.KeyMap
	switch {
	case mentionpick.SpaceAfterPick(&a.draft, msg):
		a.draft.Type(msg.Text) // taken, and not doubled
		return a.show(ta)
	case key.Matches(msg, km.DeleteCharacterBackward) && a.draft.DeleteBackward(),
		key.Matches(msg, km.DeleteCharacterForward) && a.draft.DeleteForward():
		a.apply(ta)
		return a.show(ta)
	case hangs(*ta, msg):
		// Nothing but spaces before the cursor: the word backward is the
		// start of the text, where the textarea would never get.
		ta.MoveToBegin()
		return a.follow(ta, mention.Move)
	}
	var cmd tea.Cmd
	*ta, cmd = ta.Update(msg)
	how := mention.Jump
	if key.Matches(msg, km.CharacterBackward, km.CharacterForward, km.WordBackward, km.WordForward,
		km.LineStart, km.LineEnd) {
		how = mention.Move // a move along the line may open a query
	}
	return tea.Batch(cmd, a.follow(ta, how))
}

// hangs reports whether msg is a key the textarea never returns from on
// ta: bubbles' textarea (v2.0.0 to v2.1.1; v2.2.2 is fixed) loops
// forever in wordLeft when nothing but white space (line breaks
// included) is before the cursor and the first line is empty or starts
// with a space.
func hangs(ta textarea.Model, msg tea.KeyPressMsg) bool {
	if !key.Matches(msg, ta.KeyMap.WordBackward) {
		return false
	}
	v := ta.Value()
	before := v[:cursorOffset(ta)]
	if strings.TrimFunc(before, unicode.IsSpace) != "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(v)
	return before != "" || v == "" || unicode.IsSpace(r)
}

// updatePicker passes msg to the picker and takes what it did: a session
// pick becomes a token, a host item waits for TakePick, a close by the
// user (Esc, a click outside) makes the @word text.
func (a *Model) updatePicker(ta *textarea.Model, msg tea.Msg) tea.Cmd {
	a.draft.Move(cursorOffset(*ta), mention.Jump)
	before := a.draft.Readable()
	cmd, item := mentionpick.Update(&a.picker, &a.draft, msg)
	if item != nil {
		a.item = item
	}
	if a.draft.Readable() != before || a.draft.Cursor() != cursorOffset(*ta) {
		a.apply(ta)
	}
	return tea.Batch(cmd, a.show(ta))
}

// follow reads ta after a change, rewrites it when the model says so,
// and opens, updates or closes the picker.
func (a *Model) follow(ta *textarea.Model, how mention.Change) tea.Cmd {
	if v, at := valueAndCursor(*ta); a.draft.Follow(v, at, how) {
		a.apply(ta)
	}
	return a.show(ta)
}

// show anchors the popup at the query's '@' and opens, follows or closes
// the picker.
func (a *Model) show(ta *textarea.Model) tea.Cmd {
	if _, at, ok := a.draft.Query(); ok {
		a.anchor(*ta, at)
	}
	mentionpick.Disable(&a.picker, &a.draft, sessionref.MaxReferences)
	return mentionpick.Show(&a.picker, &a.draft)
}

// anchor hangs the popup from the '@' at byte at: above or below the
// textarea's visible lines, at the '@”s column.
func (a *Model) anchor(ta textarea.Model, at int) {
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

// apply sets ta to the model's text and cursor.
func (a *Model) apply(ta *textarea.Model) {
	text := a.draft.Readable()
	if ta.Value() != text {
		ta.SetValue(text)
	}
	setCursor(ta, text, a.draft.Cursor())
	if ta.Value() != text {
		// The textarea changed what it was given (its sanitiser, its
		// character limit): follow what it holds.
		v, at := valueAndCursor(*ta)
		a.draft.Follow(v, at, mention.Jump)
	}
}

// cursorOffset is ta's cursor as a byte offset of its value.
func cursorOffset(ta textarea.Model) int {
	_, at := valueAndCursor(ta)
	return at
}

// valueAndCursor is ta's value and the cursor's byte offset in it, the
// value built once (ta.Value joins its lines anew each call).
func valueAndCursor(ta textarea.Model) (string, int) {
	v := ta.Value()
	row, col := ta.Line(), ta.Column()
	off := 0
	for i := 0; i < row; i++ {
		nl := strings.IndexByte(v[off:], '\n')
		if nl < 0 {
			return v, len(v)
		}
		off += nl + 1
	}
	for i := 0; i < col && off < len(v) && v[off] != '\n'; i++ {
		_, n := utf8.DecodeRuneInString(v[off:])
		off += n
	}
	return v, off
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

// ClosePicker closes the picker if it is open, leaving the text as it
// is; unlike Esc it does not make the @word text, so the next edit in it
// opens the picker again. A pick waiting for its answer is dropped.
func (a *Model) ClosePicker() {
	a.draft.Close()
	if a.picker.IsOpen() {
		a.picker.Close()
	}
}

// SetTarget tells the picker the session the draft is now written in (a
// host switched sessions): its next fetches rank for it, and an answer
// for the old session is never shown. See picker.Model.SetTarget.
func (a *Model) SetTarget(t sessionref.Target) tea.Cmd {
	return a.picker.SetTarget(t)
}
