package composer

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/mentionpick"
	"github.com/dshkit/mentions/internal/textutil"
	rules "github.com/dshkit/mentions/mention"
)

// The composer is an editor and a view over a rules.Model (m.draft),
// which holds the text, the tokens, the @query and the pick protocol —
// the same model the textarea adapter keeps. Keys become the model's
// edits, in byte offsets of its readable text; the atoms (grapheme
// clusters and tokens), the cursor's atom and the layout are derived from
// the model after every change (sync).

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.KeyMap()
	if m.preparing {
		if key.Matches(msg, k.Cancel) {
			if m.cancel != nil {
				m.cancel()
			}
			return m, nil
		}
		// The draft is read-only until the submit settles; the busy line
		// shows what was not taken.
		m.refuse(msg.Text)
		return m, nil
	}
	if m.picker.WantsKey(msg) {
		// Its keys while open, Enter and Tab included: they pick (or say
		// why they cannot), never send.
		return m.updatePicker(msg)
	}
	m.setErr(nil, "")
	if mentionpick.SpaceAfterPick(&m.draft, msg) {
		m.draft.Type(msg.Text) // the pick already put a space after the token
		return m, m.sync()
	}
	if key.Matches(msg, k.Submit) {
		return m.submit()
	}
	if m.editKey(k, msg) || m.moveKey(k, msg) {
		return m, m.sync()
	}
	if !typed(msg) {
		return m, nil
	}
	m.goalCol = -1
	return m.typeText(msg.Text)
}

// editKey handles the keys that change the draft or move along the
// line or to its start or end.
func (m *Model) editKey(k KeyMap, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, k.InsertNewline):
		m.typeRaw("\n")
	case key.Matches(msg, k.CharacterBackward):
		m.moveTo(max(m.cursor-1, 0), rules.Move)
	case key.Matches(msg, k.CharacterForward):
		m.moveTo(min(m.cursor+1, len(m.atoms)), rules.Move)
	case key.Matches(msg, k.WordBackward):
		m.moveTo(wordLeft(m.atoms, m.cursor), rules.Move)
	case key.Matches(msg, k.WordForward):
		m.moveTo(wordRight(m.atoms, m.cursor), rules.Move)
	case key.Matches(msg, k.LineStart):
		m.moveTo(m.lines()[lineOf(m.lines(), m.cursor)].start, rules.Move)
	case key.Matches(msg, k.LineEnd):
		m.moveTo(m.lineEnd(), rules.Move)
	case key.Matches(msg, k.InputBegin):
		m.moveTo(0, rules.Jump)
	case key.Matches(msg, k.InputEnd):
		m.moveTo(len(m.atoms), rules.Jump)
	case key.Matches(msg, k.DeleteCharacterBackward):
		m.deleteRange(max(m.cursor-1, 0), m.cursor)
	case key.Matches(msg, k.DeleteCharacterForward):
		m.deleteRange(m.cursor, min(m.cursor+1, len(m.atoms)))
	case key.Matches(msg, k.DeleteWordBackward):
		m.deleteRange(wordLeft(m.atoms, m.cursor), m.cursor)
	case key.Matches(msg, k.DeleteWordForward):
		m.deleteRange(m.cursor, wordRight(m.atoms, m.cursor))
	case key.Matches(msg, k.DeleteBeforeCursor):
		m.deleteRange(m.lines()[lineOf(m.lines(), m.cursor)].start, m.cursor)
	case key.Matches(msg, k.DeleteAfterCursor):
		m.deleteRange(m.cursor, m.lineEnd())
	default:
		return false
	}
	m.goalCol = -1
	return true
}

// moveKey handles the vertical moves, which keep the column a run of
// them started from and never open a query.
func (m *Model) moveKey(k KeyMap, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, k.LinePrevious):
		m.moveLines(-1, false)
	case key.Matches(msg, k.LineNext):
		m.moveLines(1, false)
	case key.Matches(msg, k.PageUp):
		m.moveLines(-m.visibleLines(len(m.lines())), true)
	case key.Matches(msg, k.PageDown):
		m.moveLines(m.visibleLines(len(m.lines())), true)
	default:
		return false
	}
	m.draft.Move(m.off(m.cursor), rules.Jump)
	return true
}

// typed reports whether msg is text to insert: not a bare Enter, Tab or
// Esc (which may carry text on some terminals) and no ctrl or alt chord.
func typed(msg tea.KeyPressMsg) bool {
	switch {
	case msg.Text == "", msg.Mod.Contains(tea.ModCtrl), msg.Mod.Contains(tea.ModAlt):
		return false
	case msg.Code == tea.KeyEnter, msg.Code == tea.KeyTab, msg.Code == tea.KeyEscape:
		return false
	}
	return true
}

// updatePicker passes msg to the picker and takes what it did in the
// same Update (see mentionpick.Update): a pick becomes a token at once,
// a close ends the query, and a pick that waits for its answer marks
// where the query ends, so text typed meanwhile goes into the draft
// after it in the order typed.
func (m Model) updatePicker(msg tea.Msg) (Model, tea.Cmd) {
	cmd, _ := mentionpick.Update(&m.picker, &m.draft, msg)
	return m, tea.Batch(cmd, m.sync())
}

// typeText inserts typed text, which may open the picker. A space after
// a query that matched nothing ends the query as prose.
func (m Model) typeText(s string) (Model, tea.Cmd) {
	mentionpick.EndsQuery(&m.picker, &m.draft, s)
	m.typeRaw(s)
	return m, m.sync()
}

// typeRaw inserts s at the cursor, within the draft's bound.
func (m *Model) typeRaw(s string) {
	if len(m.draft.Readable())+len(s) > MaxDraftBytes {
		m.setErr(nil, fmt.Sprintf("the draft holds at most %s: send or shorten it to type more", textutil.Bytes(MaxDraftBytes)))
		return
	}
	m.draft.Type(s)
}

// MaxDraftBytes bounds the draft's readable text: every keystroke lays
// the whole draft out again, so its size bounds a keystroke's cost
// (BenchmarkKeystrokeAfterPaste: under 5 ms at the bound). A paste past
// it is cut, and typing stops, each with a message.
const MaxDraftBytes = 32 << 10

// moveTo puts the cursor before atom i.
func (m *Model) moveTo(i int, how rules.Change) {
	m.draft.Move(m.off(min(max(i, 0), len(m.atoms))), how)
}

// deleteRange removes atoms[from:to]; a token goes as a whole, because it
// is one atom.
func (m *Model) deleteRange(from, to int) {
	if from >= to {
		return
	}
	m.draft.Delete(m.off(from), m.off(to))
}

// sync derives the atoms, the cursor's atom and the layout from the
// mention model after a change, and brings the picker in step with its
// query. Only the part of the text that changed is split into atoms
// again (see resegment).
func (m *Model) sync() tea.Cmd {
	if from, oldEnd, newEnd, ok := m.draft.TakeChange(); ok {
		m.resegment(from, oldEnd, newEnd)
		m.relayout()
	}
	m.cursor = m.atomAt(m.draft.Cursor())
	if m.off(m.cursor) != m.draft.Cursor() {
		// inside a cluster the edit made: the cursor goes after it
		m.draft.Move(m.off(m.cursor), rules.Jump)
	}
	cmd := mentionpick.Show(&m.picker, &m.draft)
	m.scrollToCursor()
	m.syncPicker()
	return cmd
}

// atomAt is the index of the atom boundary at byte offset b of the
// readable text, or the first one after it.
func (m *Model) atomAt(b int) int {
	return m.search(b)
}

// resegment replaces the atoms that held the old text's [from, oldEnd)
// with atoms of the new text's [from, newEnd). The clusters around the
// change are split again, as rendering will see them: a combining mark,
// a variation selector, a keycap or a ZWJ typed after a character joins
// it, and a deletion can join what it brings together. Regional
// indicators pair from the left and ZWJ sequences chain, so the word
// after the change is split again up to a point where nothing before can
// matter: two plain ASCII characters in a row (always a break), a space,
// a token or a newline — or, in a pathological run with none of those,
// after maxResegment atoms, which bounds a keystroke's cost. The atoms
// are a new slice: a copy of the composer keeps its own.
func (m *Model) resegment(from, oldEnd, newEnd int) {
	i := max(m.search(from+1)-1, 0) // the atom holding from
	if i > 0 && !m.atoms[i-1].isToken() && !m.atoms[i-1].isNewline() {
		i--
	}
	j := m.search(oldEnd) // the first atom at or after oldEnd
	for j0 := j; j < len(m.atoms) && j-j0 < maxResegment && !m.atoms[j].isToken() && !m.atoms[j].isSpace(); j++ {
		if j > j0 && plainASCII(m.atoms[j-1]) && plainASCII(m.atoms[j]) {
			break
		}
	}
	delta := newEnd - oldEnd
	start, end := 0, len(m.draft.Readable())
	if len(m.offs) > 0 {
		start = m.off(i)
		end = m.off(min(j, len(m.offs)-1)) + delta
	}
	mid := atomsOf(m.draft.Readable(), m.draft.Tokens(), start, end)
	out := make([]atom, 0, i+len(mid)+len(m.atoms)-j)
	out = append(append(append(out, m.atoms[:i]...), mid...), m.atoms[min(j, len(m.atoms)):]...)
	m.atoms = out
}

const maxResegment = 256

// atomsOf splits text[start:end] into atoms: its tokens whole, the text
// between them into grapheme clusters.
func atomsOf(text string, toks []rules.Token, start, end int) []atom {
	var out []atom
	last := start
	for _, t := range toks {
		if t.Start < start || t.End > end {
			continue
		}
		out = append(out, textAtoms(text[last:t.Start])...)
		out = append(out, tokenAtom(text[t.Start:t.End]))
		last = t.End
	}
	return append(out, textAtoms(text[last:end])...)
}

// plainASCII: a printable ASCII character, which never joins a cluster.
func plainASCII(a atom) bool { return a.flags&atomASCII != 0 }

// text is the readable text of atom i.
func (m *Model) text(i int) string { return m.draft.Readable()[m.offs[i]:m.offs[i+1]] }

// search is the first atom boundary at or after byte offset b.
func (m *Model) search(b int) int {
	return sort.Search(len(m.offs), func(i int) bool { return int(m.offs[i]) >= b })
}

// off is the byte offset of atom i.
func (m *Model) off(i int) int { return int(m.offs[i]) }

// relayout recomputes what is derived from the atoms.
func (m *Model) relayout() {
	m.layout = wrap(m.atoms, m.textWidth())
	m.offs = make([]int32, len(m.atoms)+1) // not reused: copies share it
	off := int32(0)
	for i, a := range m.atoms {
		m.offs[i] = off
		off += a.n
	}
	m.offs[len(m.atoms)] = off
	m.refs = nil
	for _, t := range m.draft.Tokens() {
		if !slices.Contains(m.refs, t.Reference.SessionID) {
			m.refs = append(m.refs, t.Reference.SessionID)
		}
	}
}

// blank reports whether the draft has nothing but whitespace.
func (m Model) blank() bool {
	return len(m.draft.Tokens()) == 0 && strings.TrimSpace(m.draft.Readable()) == ""
}

// moveLines moves the cursor by delta visual lines, aiming for the column
// the first of a run of vertical moves started from, so passing through
// a short line does not lose it. Past the first or last line a single
// line move goes to the start or end of the draft; a page move stops on
// that line, and the view scrolls with it.
func (m *Model) moveLines(delta int, page bool) {
	lines := m.lines()
	l := lineOf(lines, m.cursor)
	tw := m.textWidth()
	if m.goalCol < 0 {
		m.goalCol = cells(m.atoms[lines[l].start:m.cursor], tw)
	}
	t := l + delta
	if page {
		h := m.visibleLines(len(lines))
		m.top = min(max(m.top+delta, 0), max(len(lines)-h, 0))
		t = min(max(t, 0), len(lines)-1)
		if t == l {
			t += delta // already on the first or last line
		}
	}
	if t < 0 {
		m.cursor = 0
		return
	}
	if t >= len(lines) {
		m.cursor = len(m.atoms)
		return
	}
	i := indexAtCol(m.atoms, lines[t], m.goalCol, tw)
	if t+1 < len(lines) && i == lines[t].end && lines[t+1].start == i && i > lines[t].start {
		i-- // a soft-wrapped line's end is the next line's start
	}
	m.cursor = i
}

func (m Model) lineEnd() int {
	lines := m.lines()
	l := lineOf(lines, m.cursor)
	end := lines[l].end
	if l+1 < len(lines) && lines[l+1].start == end && end > lines[l].start {
		end--
	}
	return max(end, m.cursor)
}
