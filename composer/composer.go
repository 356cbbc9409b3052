package composer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Preparer prepares a draft's canonical text for sending: it parses the
// mentions and builds the context. It runs in a tea.Cmd and must honour
// ctx, which Esc cancels.
type Preparer func(ctx context.Context, draft string) (sessionref.PreparedText, error)

// ResolverPreparer prepares drafts written in target with r.
func ResolverPreparer(r *sessionref.Resolver, target sessionref.Target) Preparer {
	return func(ctx context.Context, draft string) (sessionref.PreparedText, error) {
		return r.PrepareText(ctx, target, draft)
	}
}

// SubmittedMsg is sent when a draft was prepared: the host appends
// Context (when not nil) and then the direct message to its session.
type SubmittedMsg struct {
	// Text is the readable message, mentions shown as @label.
	Text string
	// Canonical is the draft as sent, mentions in full.
	Canonical string
	// Content is the direct message's content.
	Content []sessionref.Block
	// Context is the additional-context message; nil without mentions.
	Context *sessionref.Message
	// References are the draft's mentions in order, duplicates included.
	References []sessionref.Reference
}

// SubmitFailedMsg is sent when preparing failed; the draft is kept as it
// was and Message says what happened in words for people.
type SubmitFailedMsg struct {
	Err     error
	Message string
}

type prepareDoneMsg struct {
	composer int64
	seq      uint64
	res      sessionref.PreparedText
	err      error
}

// Model is the draft editor. Text is typed as usual; '@' at the start or
// after whitespace opens the picker, and a pick becomes an atomic token.
type Model struct {
	id int64
	// KeyMap is the editor's bindings; the picker has its own.
	KeyMap KeyMap
	// Styles is how it draws.
	Styles Styles
	// Placeholder shows while the draft is empty.
	Placeholder string

	picker   picker.Model
	prepare  Preparer
	maxRefs  int
	budget   int
	maxLines int
	focused  bool

	atoms  []atom
	cursor int
	top    int // first visible line

	// Derived from atoms and width by relayout after every change, so
	// neither a keystroke nor View lays out the draft twice.
	layout []line
	refs   []string // distinct referenced session ids, in order

	atIndex int // the '@' the open picker completes, or -1
	// justPicked: the cursor sits right after a pick's token and space,
	// so a space typed by habit is not doubled.
	justPicked bool

	width, screenW, screenH int
	originX, originY        int

	// typeAhead holds keys typed while the picker waits to pick from an
	// answer that has not come yet; they are replayed after the pick.
	typeAhead []tea.KeyPressMsg
	// awaitingPicker is set when the picker closed in Update and its
	// PickedMsg or DismissedMsg is still on its way (it comes from a Cmd):
	// keys typed meanwhile wait, so they land after the token.
	awaitingPicker bool

	preparing bool
	seq       uint64
	cancel    context.CancelFunc
	errLine   string
}

// Option configures a Model.
type Option func(*Model)

// WithMaxReferences sets the distinct-session limit shown and enforced in
// the picker (default sessionref.MaxReferences).
func WithMaxReferences(n int) Option { return func(m *Model) { m.maxRefs = n } }

// WithBudget sets the per-session byte budget named in errors (default
// sessionref.DefaultMaxReferenceBytes).
func WithBudget(bytes int) Option { return func(m *Model) { m.budget = bytes } }

// WithMaxLines caps the editor's visible lines (default 6).
func WithMaxLines(n int) Option { return func(m *Model) { m.maxLines = max(n, 1) } }

// WithPlaceholder sets the placeholder.
func WithPlaceholder(s string) Option { return func(m *Model) { m.Placeholder = s } }

// WithStyles sets the styles.
func WithStyles(s Styles) Option { return func(m *Model) { m.Styles = s } }

var lastID int64

// New returns a focused, empty composer that completes mentions with p
// and submits through prepare.
func New(p picker.Model, prepare Preparer, opts ...Option) Model {
	lastID++
	m := Model{
		id:          lastID,
		KeyMap:      DefaultKeyMap(),
		Styles:      DefaultStyles(true),
		Placeholder: "Message… (@ to mention a session)",
		picker:      p,
		prepare:     prepare,
		maxRefs:     sessionref.MaxReferences,
		budget:      sessionref.DefaultMaxReferenceBytes,
		maxLines:    6,
		focused:     true,
		atIndex:     -1,
		width:       80,
		screenW:     80,
		screenH:     24,
	}
	for _, o := range opts {
		o(&m)
	}
	m.relayout()
	m.syncPicker()
	return m
}

// Focus makes keys go to the editor.
func (m *Model) Focus() { m.focused = true }

// Blur stops keys from going to the editor (the host has focus elsewhere).
func (m *Model) Blur() { m.focused = false }

// Focused reports whether keys go to the editor.
func (m Model) Focused() bool { return m.focused }

// Preparing reports whether a submit is running; the draft is read-only
// until it settles.
func (m Model) Preparing() bool { return m.preparing }

// SetPickerStyles restyles the embedded picker (for a light terminal,
// say).
func (m *Model) SetPickerStyles(s picker.Styles) { m.picker.SetStyles(s) }

// Picker returns the embedded picker, for the host to draw its View at
// its Rect.
func (m Model) Picker() picker.Model { return m.picker }

// Err returns the current error line, "" when there is none.
func (m Model) Err() string { return m.errLine }

// SetWidth sets the composer's width in cells.
func (m *Model) SetWidth(w int) {
	if max(w, 4) == m.width && m.layout != nil {
		return // hosts call this on every frame; only a change lays out again
	}
	m.width = max(w, 4)
	m.relayout()
	m.scrollToCursor()
	m.syncPicker()
}

// SetOrigin tells the composer where its top-left cell is on screen, so
// the picker can hang from the '@' being completed.
func (m *Model) SetOrigin(x, y int) { m.originX, m.originY = x, y; m.syncPicker() }

// Value returns the canonical draft: tokens as full mentions.
func (m Model) Value() string { return canonical(m.atoms) }

// Readable returns the draft as shown: tokens as @label.
func (m Model) Readable() string { return plain(m.atoms) }

// SetValue replaces the draft; canonical mentions and bare canonical URIs
// become tokens, anything malformed stays text. The cursor goes to the end.
func (m *Model) SetValue(s string) {
	m.atoms = atomsOf(s)
	m.cursor = len(m.atoms)
	m.relayout()
	m.closePicker()
	m.afterEdit()
}

// Tokens returns the draft's tokens in order.
func (m Model) Tokens() []Token {
	var out []Token
	for _, a := range m.atoms {
		if a.tok != nil {
			out = append(out, *a.tok)
		}
	}
	return out
}

// Referenced returns the distinct referenced session ids, in order.
func (m Model) Referenced() []string { return slices.Clone(m.refs) }

// Update handles keys, pastes, mouse messages, the picker's messages and
// the result of a submit.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.screenW, m.screenH = msg.Width, msg.Height
		m.syncPicker()
		return m, nil
	case prepareDoneMsg:
		return m.finishSubmit(msg)
	case picker.PickedMsg:
		m.awaitingPicker = false
		m.insertToken(msg)
		return m.replayTypeAhead()
	case picker.DismissedMsg:
		m.awaitingPicker = false
		m.atIndex = -1
		return m.replayTypeAhead()
	case picker.FetchedMsg:
		var cmd tea.Cmd
		m, cmd = m.updatePicker(msg)
		if m.picker.IsOpen() && !m.picker.Accepting() && len(m.typeAhead) > 0 {
			// The answer came without a pick: the held keys apply now.
			var more tea.Cmd
			m, more = m.replayTypeAhead()
			return m, tea.Batch(cmd, more)
		}
		return m, cmd
	case tea.PasteMsg:
		if m.focused && !m.preparing {
			m.justPicked = false
			m.insertAtoms(atomsOf(msg.Content))
			m.closePicker() // a paste never opens, and ends, a mention query
			m.afterEdit()
		}
		return m, nil
	case tea.KeyPressMsg:
		if !m.focused {
			return m, nil
		}
		return m.handleKey(msg)
	case tea.MouseMsg:
		return m.handleMouse(msg)
	}
	// Anything else the picker may be waiting for (its slow tick).
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	return m, cmd
}

func (m Model) handleKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.KeyMap
	if m.picker.Accepting() || m.awaitingPicker {
		m.typeAhead = append(m.typeAhead, msg)
		return m, nil
	}
	if m.preparing {
		if key.Matches(msg, k.Cancel) && m.cancel != nil {
			m.cancel()
		}
		return m, nil // the draft is read-only until the submit settles
	}
	if m.picker.IsOpen() && m.picker.WantsKey(msg) {
		// A pick or a dismissal comes back as a message; the '@' it
		// completes stays known until then.
		return m.updatePicker(msg)
	}
	m.errLine = ""
	picked := m.justPicked
	m.justPicked = false
	if picked && msg.Text == " " && msg.Mod == 0 {
		return m, nil // the pick already put a space after the token
	}
	switch {
	case key.Matches(msg, k.Submit):
		return m.submit()
	case key.Matches(msg, k.Newline):
		m.insertAtoms([]atom{{text: "\n", space: true}})
	case key.Matches(msg, k.Cancel):
		m.closePicker()
	case key.Matches(msg, k.Left):
		m.cursor = max(m.cursor-1, 0)
	case key.Matches(msg, k.Right):
		m.cursor = min(m.cursor+1, len(m.atoms))
	case key.Matches(msg, k.WordLeft):
		m.cursor = wordLeft(m.atoms, m.cursor)
	case key.Matches(msg, k.WordRight):
		m.cursor = wordRight(m.atoms, m.cursor)
	case key.Matches(msg, k.Up):
		m.moveLine(-1)
	case key.Matches(msg, k.Down):
		m.moveLine(1)
	case key.Matches(msg, k.LineStart):
		m.cursor = m.lines()[lineOf(m.lines(), m.cursor)].start
	case key.Matches(msg, k.LineEnd):
		m.cursor = m.lineEnd()
	case key.Matches(msg, k.Backspace):
		m.deleteRange(max(m.cursor-1, 0), m.cursor)
	case key.Matches(msg, k.Delete):
		m.deleteRange(m.cursor, min(m.cursor+1, len(m.atoms)))
	case key.Matches(msg, k.DeleteWordBackward):
		m.deleteRange(wordLeft(m.atoms, m.cursor), m.cursor)
	case key.Matches(msg, k.DeleteWordForward):
		m.deleteRange(m.cursor, wordRight(m.atoms, m.cursor))
	case key.Matches(msg, k.DeleteToLineStart):
		m.deleteRange(m.lines()[lineOf(m.lines(), m.cursor)].start, m.cursor)
	case key.Matches(msg, k.DeleteToLineEnd):
		m.deleteRange(m.cursor, m.lineEnd())
	default:
		if msg.Text == "" || msg.Mod.Contains(tea.ModCtrl) || msg.Mod.Contains(tea.ModAlt) {
			return m, nil
		}
		return m.typeText(msg.Text)
	}
	cmd := m.afterEdit() // before m is copied into the results
	return m, cmd
}

// updatePicker passes msg to the open picker and notes when it closed,
// so keys wait for the message that says how.
func (m Model) updatePicker(msg tea.Msg) (Model, tea.Cmd) {
	wasOpen := m.picker.IsOpen()
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	if wasOpen && !m.picker.IsOpen() && cmd != nil {
		m.awaitingPicker = true
	}
	return m, cmd
}

// replayTypeAhead applies the keys held while a pick was pending.
func (m Model) replayTypeAhead() (Model, tea.Cmd) {
	keys := m.typeAhead
	m.typeAhead = nil
	var cmds []tea.Cmd
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.handleKey(k)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// typeText inserts typed text; '@' typed at the start of the draft or
// after whitespace opens the picker.
func (m Model) typeText(s string) (Model, tea.Cmd) {
	opens := s == "@" && !m.picker.IsOpen() && (m.cursor == 0 || m.atoms[m.cursor-1].isSpace())
	m.insertAtoms(textAtoms(s))
	if opens {
		m.atIndex = m.cursor - 1
		var cmd tea.Cmd
		m.syncPicker()
		m.picker, cmd = m.picker.Open("")
		edit := m.afterEdit()
		return m, tea.Batch(cmd, edit)
	}
	cmd := m.afterEdit() // before m is copied into the results
	return m, cmd
}

func (m *Model) insertAtoms(as []atom) {
	m.atoms = slices.Insert(m.atoms, m.cursor, as...)
	m.cursor += len(as)
	m.relayout()
}

// relayout recomputes what is derived from the atoms.
func (m *Model) relayout() {
	m.layout = wrap(m.atoms, m.textWidth())
	m.refs = m.refs[:0]
	for _, a := range m.atoms {
		if a.tok != nil && !slices.Contains(m.refs, a.tok.Reference.SessionID) {
			m.refs = append(m.refs, a.tok.Reference.SessionID)
		}
	}
}

// deleteRange removes atoms[from:to]; a token goes as a whole, because it
// is one atom.
func (m *Model) deleteRange(from, to int) {
	if from >= to {
		return
	}
	m.atoms = slices.Delete(m.atoms, from, to)
	if m.cursor >= to {
		m.cursor -= to - from
	} else if m.cursor > from {
		m.cursor = from
	}
	m.relayout()
}

// insertToken replaces "@query" with the picked token and a space.
func (m *Model) insertToken(p picker.PickedMsg) {
	if m.atIndex < 0 || m.atIndex > len(m.atoms) || m.atIndex >= m.cursor {
		m.atIndex = -1
		return
	}
	ref := sessionref.Reference{SessionID: p.Candidate.SessionID, Label: &p.Candidate.Label}
	tok := tokenAtom(&Token{Reference: ref, Mention: p.Mention})
	m.atoms = slices.Replace(m.atoms, m.atIndex, m.cursor, tok, atom{text: " ", w: 1, space: true})
	m.relayout()
	m.cursor = m.atIndex + 2
	m.atIndex = -1
	m.justPicked = true
	m.afterEdit()
}

func (m *Model) closePicker() {
	if m.picker.IsOpen() {
		m.picker = m.picker.Close()
	}
	m.atIndex = -1
}

// afterEdit keeps the picker's query, its disabled rows, the scroll
// position and the picker's anchor in step with the draft.
func (m *Model) afterEdit() tea.Cmd {
	var cmd tea.Cmd
	if m.picker.IsOpen() {
		if q, ok := m.activeQuery(); ok {
			m.picker, cmd = m.picker.SetQuery(q)
		} else {
			m.closePicker()
		}
	}
	m.scrollToCursor()
	m.syncPicker()
	return cmd
}

// activeQuery is the text between the '@' and the cursor, while that is
// still a mention query: the '@' is in place, the cursor after it, and no
// whitespace or token between them.
func (m Model) activeQuery() (string, bool) {
	i := m.atIndex
	if i < 0 || i >= len(m.atoms) || m.atoms[i].tok != nil || m.atoms[i].text != "@" || m.cursor <= i {
		return "", false
	}
	var b strings.Builder
	for _, a := range m.atoms[i+1 : m.cursor] {
		if a.tok != nil || a.isSpace() {
			return "", false
		}
		b.WriteString(a.text)
	}
	return b.String(), true
}

// syncPicker tells the picker the screen, the anchor and which rows are
// disabled.
func (m *Model) syncPicker() {
	m.picker.SetScreenSize(m.screenW, m.screenH)
	if m.atIndex >= 0 && m.atIndex <= len(m.atoms) {
		lines := m.lines()
		l := lineOf(lines, m.atIndex)
		col := widthOf(m.atoms[lines[l].start:m.atIndex])
		// Hang from all the editor's visible lines, not just the '@' line,
		// so the popup never covers the draft.
		last := m.visibleLines(len(lines)) - 1
		m.picker.SetAnchorSpan(m.originX+promptW+col, m.originY, m.originY+last)
	}
	ids := slices.Clone(m.refs)
	limit := m.maxRefs
	m.picker.SetDisable(func(c sessionref.Candidate) (string, bool) {
		if slices.Contains(ids, c.SessionID) {
			return "already mentioned", true
		}
		if len(ids) >= limit {
			return fmt.Sprintf("limit %d/%d reached", len(ids), limit), true
		}
		return "", false
	})
}

// submit starts preparing the draft in a Cmd.
func (m Model) submit() (Model, tea.Cmd) {
	draft := m.Value()
	if strings.TrimSpace(draft) == "" || m.prepare == nil {
		return m, nil
	}
	m.closePicker()
	m.preparing = true
	m.seq++
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	id, seq, prepare := m.id, m.seq, m.prepare
	return m, func() tea.Msg {
		res, err := prepare(ctx, draft)
		return prepareDoneMsg{composer: id, seq: seq, res: res, err: err}
	}
}

func (m Model) finishSubmit(msg prepareDoneMsg) (Model, tea.Cmd) {
	if msg.composer != m.id || msg.seq != m.seq || !m.preparing {
		return m, nil
	}
	m.preparing = false
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	if msg.err != nil {
		m.errLine = m.describe(msg.err)
		failed := SubmitFailedMsg{Err: msg.err, Message: m.errLine}
		return m, func() tea.Msg { return failed }
	}
	out := SubmittedMsg{
		Text:       msg.res.Parsed.Text,
		Canonical:  msg.res.Canonical,
		Content:    msg.res.Content,
		Context:    msg.res.Context,
		References: msg.res.Parsed.References,
	}
	m.atoms, m.cursor, m.top, m.errLine = nil, 0, 0, ""
	m.relayout()
	m.afterEdit()
	return m, func() tea.Msg { return out }
}

// describe says what went wrong in words a person understands.
func (m Model) describe(err error) string {
	var e *sessionref.Error
	if !errors.As(err, &e) {
		return "Couldn't send: " + err.Error()
	}
	who := m.labelOf(e.SessionID)
	switch e.Code {
	case sessionref.CodeInvalidReference:
		return "A mention in the message is malformed; fix or remove it (" + e.Msg + ")."
	case sessionref.CodeSelfReference:
		return "A session can't reference itself; remove " + who + "."
	case sessionref.CodeTooMany:
		return fmt.Sprintf("A message can reference at most %d sessions; remove one.", m.maxRefs)
	case sessionref.CodeReadFailed:
		return "Couldn't read " + who + ": " + e.Cause.Error() + "."
	case sessionref.CodeBudgetExceeded:
		return who + " is too large to fit the " + humanBytes(m.budget) + " snapshot budget; remove it or mention a smaller session."
	case sessionref.CodeCancelled:
		return "Sending cancelled; your draft is kept."
	}
	return "Couldn't send: " + e.Error()
}

// labelOf names a referenced session as the draft shows it.
func (m Model) labelOf(id string) string {
	for _, a := range m.atoms {
		if a.tok != nil && a.tok.Reference.SessionID == id {
			return a.tok.chip()
		}
	}
	if id == "" {
		return "a session"
	}
	return "session " + id
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func (m *Model) moveLine(delta int) {
	lines := m.lines()
	l := lineOf(lines, m.cursor)
	t := l + delta
	if t < 0 {
		m.cursor = 0
		return
	}
	if t >= len(lines) {
		m.cursor = len(m.atoms)
		return
	}
	col := widthOf(m.atoms[lines[l].start:m.cursor])
	i := indexAtCol(m.atoms, lines[t], col)
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

func (m Model) handleMouse(msg tea.MouseMsg) (Model, tea.Cmd) {
	if m.picker.IsOpen() {
		mouse := msg.Mouse()
		if m.picker.Rect().Contains(mouse.X, mouse.Y) {
			return m.updatePicker(msg)
		}
	}
	click, ok := msg.(tea.MouseClickMsg)
	if !ok || click.Button != tea.MouseLeft || m.preparing {
		return m, nil
	}
	x, y := click.X-m.originX-promptW, click.Y-m.originY
	lines := m.lines()
	if y < 0 || y >= m.visibleLines(len(lines)) || x < -promptW || x >= m.width {
		return m, nil
	}
	l := min(m.top+y, len(lines)-1)
	m.cursor = indexAtCol(m.atoms, lines[l], max(x, 0))
	m.justPicked = false
	m.closePicker()
	m.focused = true
	cmd := m.afterEdit() // before m is copied into the results
	return m, cmd
}
