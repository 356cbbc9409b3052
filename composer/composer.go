package composer

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/internal/textutil"
	rules "github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Preparer prepares a draft's canonical text for sending: it parses the
// mentions and builds the context. It runs in a tea.Cmd and must honour
// ctx, which the Cancel key cancels.
type Preparer func(ctx context.Context, draft string) (sessionref.PreparedText, error)

// ResolverPreparer prepares drafts with r for the session they are
// written in, which each submit carries in its context (see
// [picker.TargetFromContext]): the target the host gave the picker
// ([picker.Model.SetTarget]) or the composer ([Model.SetTarget]), its one
// place. A submit without one fails with [ErrNoTarget], the draft kept.
func ResolverPreparer(r *sessionref.Resolver) Preparer {
	return func(ctx context.Context, draft string) (sessionref.PreparedText, error) {
		t, ok := picker.TargetFromContext(ctx)
		if !ok {
			return sessionref.PreparedText{}, ErrNoTarget
		}
		return r.PrepareText(ctx, t, draft)
	}
}

// ErrNoTarget is a [ResolverPreparer]'s error for a submit when no
// target was set: the host never said which session the draft is
// written in.
var ErrNoTarget = errors.New("composer: no target session: set one with SetTarget")

// SubmittedMsg is sent when a draft was prepared. The model of the
// session it is sent in sees the snapshot first, then the message: the
// host puts Context (when not nil) before the direct message in what it
// sends. (A host that rewrites history with
// [sessionref.Resolver.RewriteMessages] instead gets the order of the
// reference's pre-step hook, each user message followed by its context.)
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
// was. Message says what happened in words for people, on one line and
// safe to print: untrusted text in it is escaped.
type SubmitFailedMsg struct {
	Err     error
	Message string
}

type prepareDoneMsg struct {
	composer int64
	seq      uint64
	target   string // the target the submit was started for
	res      sessionref.PreparedText
	err      error
}

// Model is the draft editor. Text is typed as usual; '@' at the start or
// after whitespace opens the picker, and a pick becomes an atomic token.
// It edits and draws a [rules.Model], the mention rules every editor
// of this module shares. Set it up with [New] and change it through its
// setters. A copy is independent of the original: edits to one never
// show in the other.
type Model struct {
	id          int64
	keys        KeyMap
	styles      Styles
	placeholder string
	virtual     bool // draw the cursor as a reversed cell

	picker   picker.Model
	prepare  Preparer
	maxRefs  int
	budget   int
	maxLines int
	focused  bool

	// draft is the text, its tokens, the cursor, the @query and the
	// pick protocol; everything below down to refs is derived from it.
	draft   rules.Model
	atoms   []atom
	cursor  int // the atom the draft's cursor is before
	top     int // first visible line
	goalCol int // the column up/down aim for, -1 until a vertical move

	// Derived from atoms and width by relayout after every change, so
	// neither a keystroke nor View lays out the draft twice.
	layout []line
	offs   []int32  // offs[i]: the byte offset of atom i in the draft's text
	refs   []string // distinct referenced session ids, in order

	width            int
	originX, originY int

	// sized is set once a tea.WindowSizeMsg told the screen.
	sized bool

	preparing bool
	// refused is what was typed while preparing, not taken (the draft is
	// read-only then), and refusedKeys counts every key and paste that
	// was not taken: the busy line shows them so nothing vanishes unseen.
	refused     string
	refusedKeys int
	seq         uint64
	cancel      context.CancelFunc
	errLine     string // what the footer says is wrong, safe to print
	err         error  // and the error behind it

	// target is the session the draft is written in, once the host set
	// one (SetTarget); targetKey tells a submit's result for another
	// session from one for this.
	target    sessionref.Target
	hasTarget bool
	targetKey string
}

// lastID numbers composers, so a prepare result finds the composer that
// asked for it even when a host has several.
var lastID atomic.Int64

// New returns a focused, empty composer that completes mentions with p
// and submits through prepare. Set the picker's styles, keys and bounds
// on [Model.Picker], and the composer's own with its setters.
func New(p picker.Model, prepare Preparer) Model {
	m := Model{
		id:          lastID.Add(1),
		keys:        DefaultKeyMap(),
		styles:      DefaultStyles(true),
		placeholder: "Message… (@ to mention a session)",
		virtual:     true,
		picker:      p,
		prepare:     prepare,
		maxRefs:     sessionref.MaxReferences,
		budget:      sessionref.DefaultMaxReferenceBytes,
		maxLines:    6,
		focused:     true,
		goalCol:     -1,
		width:       80,
	}
	if t, ok := p.Target(); ok { // the target given to the picker is the composer's
		m.target, m.hasTarget, m.targetKey = t, true, t.Key()
	}
	m.relayout()
	m.syncPicker()
	return m
}

// Focus makes keys and the mouse go to the editor. The returned Cmd is
// nil (there is no blinking), as bubbles' Focus methods may return one.
func (m *Model) Focus() tea.Cmd {
	m.focused = true
	return nil
}

// Blur stops keys and the mouse from reaching the editor (the host has
// focus elsewhere) and closes the picker. A running submit goes on. Only
// the host changes focus: a click never focuses a blurred composer.
func (m *Model) Blur() {
	m.focused = false
	m.closePicker()
}

// Focused reports whether keys go to the editor.
func (m Model) Focused() bool { return m.focused }

// Preparing reports whether a submit is running; the draft is read-only
// until it settles.
func (m Model) Preparing() bool { return m.preparing }

// Styles returns the styles.
func (m Model) Styles() Styles { return m.styles }

// SetStyles sets the styles.
func (m *Model) SetStyles(s Styles) { m.styles = s }

// KeyMap returns the key bindings, each enabled only when it does
// something in the current state, for help.
func (m Model) KeyMap() KeyMap { return m.withState(m.keys) }

// SetKeyMap sets the key bindings; the composer enables them by state
// (see [KeyMap]).
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// MaxReferences returns the limit of distinct sessions a draft may
// reference (default sessionref.MaxReferences).
func (m Model) MaxReferences() int { return m.maxRefs }

// SetMaxReferences sets the distinct-session limit shown in the footer
// and enforced in the picker: past it, no further session can be picked.
func (m *Model) SetMaxReferences(n int) {
	m.maxRefs = n
	m.syncPicker()
}

// Budget returns the per-session byte budget named in errors (default
// sessionref.DefaultMaxReferenceBytes).
func (m Model) Budget() int { return m.budget }

// SetBudget sets the per-session byte budget named in errors; give it
// the preparer's (sessionref.Config.MaxReferenceBytes).
func (m *Model) SetBudget(bytes int) { m.budget = bytes }

// MaxLines returns the most lines the editor shows (default 6).
func (m Model) MaxLines() int { return m.maxLines }

// SetMaxLines caps the editor's visible lines (at least 1); a taller
// draft scrolls.
func (m *Model) SetMaxLines(n int) {
	m.maxLines = max(n, 1)
	m.scrollToCursor()
	m.syncPicker()
}

// Placeholder returns the text shown while the draft is empty.
func (m Model) Placeholder() string { return m.placeholder }

// SetPlaceholder sets the text shown while the draft is empty.
func (m *Model) SetPlaceholder(s string) { m.placeholder = s }

// VirtualCursor reports whether View draws the cursor itself (the
// default) rather than leaving it to the terminal (see [Model.Cursor]).
func (m Model) VirtualCursor() bool { return m.virtual }

// SetVirtualCursor chooses between a cursor View draws as a reversed cell
// (true, the default) and the terminal's own cursor placed by the host
// from [Model.Cursor] (false), which IMEs and screen readers follow.
func (m *Model) SetVirtualCursor(v bool) { m.virtual = v }

// Picker returns the embedded picker, for the host to draw its popup
// (Layer, or View at Rect), show its help (KeyMap, Status) and set its
// styles, key map, bounds, screen size and sections, as on the textarea
// adapter's. Before the first tea.WindowSizeMsg the composer keeps the
// popup in its own columns, from the top of the screen down to its last
// line, so a host that never sends one still gets a popup that fits;
// bounds set on the picker are the host's from then on.
func (m *Model) Picker() *picker.Model { return &m.picker }

// ClosePicker closes the picker if it is open, leaving the draft as it
// is; unlike Esc it does not make the @word text, so the next edit in it
// opens the picker again. A pick waiting for its answer is dropped.
func (m *Model) ClosePicker() { m.closePicker() }

// Err returns what is wrong now (a failed submit, a draft at its bound,
// nothing to send), nil when nothing is. The footer says it on one line
// safe to print.
func (m Model) Err() error { return m.err }

// setErr sets the error and the footer's line for it ("" for none).
func (m *Model) setErr(err error, line string) {
	if err == nil && line != "" {
		err = errors.New(line)
	}
	m.err, m.errLine = err, line
}

// minWidth is the narrowest composer: the prompt, two cells of text (a
// wide character) and the cursor cell.
const minWidth = promptW + 3

// Width returns the width in cells.
func (m Model) Width() int { return m.width }

// SetWidth sets the composer's width in cells (at least 5). Call it when
// the space the host gives the composer changes; calling it on every
// frame is cheap.
func (m *Model) SetWidth(w int) {
	w = max(w, minWidth)
	if w == m.width && m.layout != nil {
		return
	}
	m.width = w
	m.relayout()
	m.scrollToCursor()
	m.syncPicker()
}

// SetOrigin tells the composer where its top-left cell is on screen. The
// picker hangs from the '@' being completed and mouse clicks are mapped
// to the draft from it, so call it whenever that cell moves — in
// practice in the host's layout, after any Update that may have changed
// [Model.Height]. Calling it every Update is cheap.
func (m *Model) SetOrigin(x, y int) {
	if x == m.originX && y == m.originY {
		return
	}
	m.originX, m.originY = x, y
	m.syncPicker()
}

// Canonical returns the draft as sent: tokens as full mentions
// (see rules.Model.Canonical). It is the text as typed, control
// characters included; escape it before printing it anywhere but View.
func (m Model) Canonical() string { return m.draft.Canonical() }

// Readable returns the draft as a person reads it, tokens as @label; like
// Canonical it is the raw text.
func (m Model) Readable() string { return m.draft.Readable() }

// SetValue replaces the draft with canonical text; canonical mentions and
// bare canonical URIs become tokens, anything malformed stays text. The
// cursor goes to the end, and the picker stays closed.
func (m *Model) SetValue(s string) {
	m.draft.SetValue(s)
	m.goalCol = -1
	m.sync()
}

// Tokens returns the draft's tokens in order, with their byte spans in
// [Model.Readable].
func (m Model) Tokens() []rules.Token { return m.draft.Tokens() }

// Referenced returns the distinct referenced session ids, in order.
func (m Model) Referenced() []string { return slices.Clone(m.refs) }

// OverLimit reports whether the draft references more distinct sessions
// than the limit; the footer says so, and sending would fail.
func (m Model) OverLimit() bool { return len(m.refs) > m.maxRefs }

// Update handles keys, pastes, mouse messages, the picker's messages and
// the result of a submit. A tea.WindowSizeMsg tells it the screen, which
// bounds the picker's popup.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if !m.sized {
			m.sized = true
			m.picker.SetBounds(picker.Rect{}) // the screen, from now on
		}
		// The picker takes the screen size; a pane now wide enough for
		// its preview reads the highlighted session.
		var cmd tea.Cmd
		m.picker, cmd = m.picker.Update(msg)
		m.syncPicker()
		return m, cmd
	case prepareDoneMsg:
		return m.finishSubmit(msg)
	case picker.PickedMsg, picker.DismissedMsg:
		// The picker's news for other listeners: the composer took the
		// pick (or the close) in the Update that made it.
		return m, nil
	case tea.PasteMsg:
		if m.focused && m.preparing {
			m.refuse(msg.Content)
		}
		if m.focused && !m.preparing {
			m.goalCol = -1
			m.setErr(nil, "")
			content := msg.Content
			if room := MaxDraftBytes - len(m.draft.Readable()); len(content) > room {
				content = textutil.CutUTF8(content, max(room, 0))
				m.setErr(nil, fmt.Sprintf("the draft holds at most %s: %s of the paste left out",
					textutil.Bytes(MaxDraftBytes), textutil.Bytes(len(msg.Content)-len(content))))
			}
			m.draft.Paste(content) // never opens, and ends, a mention query
			return m, m.sync()
		}
		return m, nil
	case tea.KeyPressMsg:
		if !m.focused {
			return m, nil
		}
		return m.handleKey(msg)
	case tea.MouseMsg:
		if !m.focused {
			return m, nil
		}
		return m.handleMouse(msg)
	}
	// Anything else is the picker's: its answers and its slow tick.
	return m.updatePicker(msg)
}

// WantsMouse reports whether the composer takes msg, so a host routes
// mouse messages to it before anything underneath: while the picker is
// open every click is the composer's (inside the popup it picks, outside
// it closes the popup and goes no further), otherwise clicks over the
// draft are. A blurred composer takes none, and a click never focuses
// it: focus changes only through Focus and Blur.
func (m Model) WantsMouse(msg tea.MouseMsg) bool {
	if !m.focused {
		return false
	}
	if m.picker.WantsMouse(msg) {
		return true
	}
	mouse := msg.Mouse()
	x, y := mouse.X-m.originX, mouse.Y-m.originY
	return x >= 0 && x < m.width && y >= 0 && y < m.visibleLines(len(m.lines()))
}

func (m Model) handleMouse(msg tea.MouseMsg) (Model, tea.Cmd) {
	if m.picker.IsOpen() {
		if m.preparing || !m.picker.WantsMouse(msg) {
			return m, nil
		}
		return m.updatePicker(msg)
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
	m.moveTo(indexAtCol(m.atoms, lines[l], max(x, 0), m.textWidth()), rules.Move)
	m.goalCol = -1
	return m, m.sync()
}
