package composer

import (
	"fmt"
	rules "github.com/dshkit/mentions/mention"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

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
	m.errLine = ""
	picked := m.justPicked
	m.justPicked = false
	if picked && msg.Text == " " && msg.Mod == 0 {
		return m, nil // the pick already put a space after the token
	}
	vertical, reopen := false, true
	switch {
	case key.Matches(msg, k.Submit):
		return m.submit()
	case key.Matches(msg, k.InsertNewline):
		m.insertAtoms([]atom{{text: "\n", space: true}})
	case key.Matches(msg, k.CharacterBackward):
		m.cursor = max(m.cursor-1, 0)
	case key.Matches(msg, k.CharacterForward):
		m.cursor = min(m.cursor+1, len(m.atoms))
	case key.Matches(msg, k.WordBackward):
		m.cursor = wordLeft(m.atoms, m.cursor)
	case key.Matches(msg, k.WordForward):
		m.cursor = wordRight(m.atoms, m.cursor)
	case key.Matches(msg, k.LineStart):
		m.cursor = m.lines()[lineOf(m.lines(), m.cursor)].start
	case key.Matches(msg, k.LineEnd):
		m.cursor = m.lineEnd()
	case key.Matches(msg, k.LinePrevious):
		m.moveLines(-1, false)
		vertical, reopen = true, false
	case key.Matches(msg, k.LineNext):
		m.moveLines(1, false)
		vertical, reopen = true, false
	case key.Matches(msg, k.PageUp):
		m.moveLines(-m.visibleLines(len(m.lines())), true)
		vertical, reopen = true, false
	case key.Matches(msg, k.PageDown):
		m.moveLines(m.visibleLines(len(m.lines())), true)
		vertical, reopen = true, false
	case key.Matches(msg, k.InputBegin):
		m.cursor, reopen = 0, false
	case key.Matches(msg, k.InputEnd):
		m.cursor, reopen = len(m.atoms), false
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
		if !typed(msg) {
			return m, nil
		}
		m.goalCol = -1
		return m.typeText(msg.Text)
	}
	if !vertical {
		m.goalCol = -1
	}
	cmd := m.follow(reopen) // before m is copied into the results
	return m, cmd
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
// same Update: a pick becomes a token at once, a close ends the query,
// and a pick that waits for its answer marks where the query ends, so
// text typed meanwhile goes into the draft after it in the order typed.
func (m Model) updatePicker(msg tea.Msg) (Model, tea.Cmd) {
	wasOpen := m.picker.IsOpen()
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	var p picker.PickedMsg
	var picked bool
	m.picker, p, picked = m.picker.TakePick()
	switch {
	case picked && p.Item != nil:
		m.insertItem(*p.Item)
	case picked:
		m.insertToken(p)
	case wasOpen && !m.picker.IsOpen():
		m.dismiss(m.atIndex) // Esc or a click outside: the @word is text
		m.atIndex, m.pickEnd = -1, -1
	case m.picker.Accepting():
		if m.pickEnd < 0 {
			m.pickEnd = m.cursor
		}
	case m.pickEnd >= 0:
		// The answer came with nothing to pick. If the user typed on,
		// the query is over; if not, the popup says why.
		if m.cursor != m.pickEnd {
			m.closePicker()
		}
		m.pickEnd = -1
	}
	return m, cmd
}

// typeText inserts typed text; see follow for when that opens the
// picker.
func (m Model) typeText(s string) (Model, tea.Cmd) {
	if p := m.picker; m.pickEnd < 0 && p.IsOpen() && isSpaceText(s) && p.Settled() && p.Err() == nil && p.Len() == 0 {
		// A space after a query that matched nothing: the '@' was not a
		// mention after all, and the text goes on as prose.
		m.closePicker()
	}
	if m.draftBytes()+len(s) > MaxDraftBytes {
		m.errLine = fmt.Sprintf("the draft holds at most %s: send or shorten it to type more", textutil.Bytes(MaxDraftBytes))
		return m, nil
	}
	m.undismissAround(m.cursor, false)
	m.insertAtoms(textAtoms(s))
	cmd := m.follow(true) // before m is copied into the results
	return m, cmd
}

// MaxDraftBytes bounds the draft's text (a mention counts its label):
// every keystroke lays the whole draft out again, so its size bounds a
// keystroke's cost (BenchmarkKeystrokeAfterPaste: under 5 ms at the
// bound). A paste past it is cut, and typing stops, each with a message.
const MaxDraftBytes = 32 << 10

// draftBytes is the size of the draft's text.
func (m *Model) draftBytes() int {
	n := 0
	for i := range m.atoms {
		n += len(m.atoms[i].text)
	}
	return n
}

// insertAtoms inserts as at the cursor and puts the cursor after them.
func (m *Model) insertAtoms(as []atom) {
	at := m.cursor
	m.atoms = slices.Insert(m.atoms, at, as...)
	m.cursor = m.resegment(at, at+len(as))
	m.relayout()
}

// resegment splits the text from just before atoms[i] to past atoms[j-1]
// into grapheme clusters again, as rendering will see it: a combining
// mark, a variation selector, a keycap or a ZWJ typed after a character
// joins it, and a deletion can join what it brings together. Regional
// indicators pair from the left and ZWJ sequences chain, so the word
// after j is split again up to a point where nothing before can matter:
// two plain ASCII characters in a row (always a break), a space, a token
// or a newline — or, in a pathological run with none of those, after
// maxResegment atoms, which bounds a keystroke's cost. It returns where
// boundary j is now: after the cluster that holds it.
func (m *Model) resegment(i, j int) int {
	from, to := i, j
	if from > 0 && m.atoms[from-1].tok == nil && !m.atoms[from-1].isNewline() {
		from--
	}
	for to < len(m.atoms) && to-j < maxResegment && m.atoms[to].tok == nil && !m.atoms[to].isSpace() {
		if to > j && plainASCII(m.atoms[to-1]) && plainASCII(m.atoms[to]) {
			break
		}
		to++
	}
	// Split each text run between tokens again; tokens stay as they are.
	var out []atom
	var run strings.Builder
	flush := func() {
		out = append(out, textAtoms(run.String())...)
		run.Reset()
	}
	size := func(a atom) int {
		if a.tok != nil {
			return len(a.tok.Mention)
		}
		return len(a.text)
	}
	offset := 0 // bytes before boundary j
	for k := from; k < to; k++ {
		if k < j {
			offset += size(m.atoms[k])
		}
		if m.atoms[k].tok != nil {
			flush()
			out = append(out, m.atoms[k])
			continue
		}
		run.WriteString(m.atoms[k].text)
	}
	flush()
	n, pos := 0, 0
	for n < len(out) && pos < offset {
		pos += size(out[n])
		n++
	}
	m.atoms = slices.Replace(m.atoms, from, to, out...)
	return from + n
}

const maxResegment = 256

// plainASCII: a printable ASCII character, which never joins a cluster.
func plainASCII(a atom) bool { return len(a.text) == 1 && a.text[0] > 0x20 && a.text[0] < 0x7f }

// relayout recomputes what is derived from the atoms.
func (m *Model) relayout() {
	m.layout = wrap(m.atoms, m.textWidth())
	m.refs = nil // not [:0]: copies of the model share the array
	for _, a := range m.atoms {
		if a.tok != nil && !slices.Contains(m.refs, a.tok.Reference.SessionID) {
			m.refs = append(m.refs, a.tok.Reference.SessionID)
		}
	}
}

// blank reports whether the draft has nothing but whitespace.
func (m Model) blank() bool {
	for _, a := range m.atoms {
		if a.tok != nil || !a.isSpace() {
			return false
		}
	}
	return true
}

// deleteRange removes atoms[from:to]; a token goes as a whole, because it
// is one atom.
func (m *Model) deleteRange(from, to int) {
	if from >= to {
		return
	}
	if m.pickEnd >= 0 && from < m.pickEnd {
		m.closePicker() // the query a pick waits for is being edited
	}
	m.undismissAround(to, true)
	m.atoms = slices.Delete(m.atoms, from, to)
	if m.cursor >= to {
		m.cursor -= to - from
	} else if m.cursor > from {
		m.cursor = from
	}
	if m.cursor == from {
		m.cursor = m.resegment(from, from)
	} else {
		m.resegment(from, from) // the cursor is before from: it holds
	}
	m.relayout()
}

// insertToken replaces "@query" with the picked token and a space. With
// the cursor inside a word ("@par|s") the rest of the word goes too, and
// a space already after it is reused rather than doubled. A pick that
// waited for its answer replaces only the query it was asked for; what
// was typed after it stays, and so does the cursor.
func (m *Model) insertToken(p picker.PickedMsg) {
	ref := sessionref.Reference{SessionID: p.Candidate.SessionID, Label: &p.Candidate.Label}
	m.replaceQuery([]atom{tokenAtom(&Token{Reference: ref, Mention: p.Mention})}, p.Candidate.Label)
}

// insertItem writes a host item's Insert text in place of "@query",
// canonical mentions in it becoming tokens as in a paste; an item without
// Insert text only removes "@query".
func (m *Model) insertItem(it picker.Item) {
	m.replaceQuery(atomsOf(it.Insert), it.Insert)
}

// replaceQuery replaces "@query" with what a pick of label writes,
// followed by a space unless one follows already (or the pick writes
// nothing). With the cursor inside the @word, the rest of the word goes
// too only when it belongs to label (rules.TakesRest).
func (m *Model) replaceQuery(with []atom, label string) {
	at, cur := m.atIndex, m.cursor
	m.atIndex = -1
	end := cur
	if m.pickEnd >= 0 {
		end = m.pickEnd
	} else if at >= 0 && at < cur && cur <= len(m.atoms) {
		if w := m.wordEnd(cur); rules.TakesRest(unitText(m.atoms[at+1:cur]), unitText(m.atoms[cur:w]), label) {
			end = w
		}
	}
	m.pickEnd = -1
	if at < 0 || at >= end || end > len(m.atoms) {
		return
	}
	after := len(with) // the cursor's place after the pick, from at
	if len(with) > 0 {
		after++ // past the space, written or reused
		if end == len(m.atoms) || !m.atoms[end].isSpace() || m.atoms[end].isNewline() {
			with = append(with, atom{text: " ", w: 1, space: true})
		}
	}
	m.atoms = slices.Replace(m.atoms, at, end, with...)
	m.relayout()
	if cur > end {
		m.cursor = cur + len(with) - (end - at) // typed on meanwhile
	} else {
		m.cursor = at + after
		m.justPicked = after > 0
	}
	m.goalCol = -1
	m.afterEdit()
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
