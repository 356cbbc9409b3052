package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/cmdrun"
	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/sessionref"
)

var (
	up    = tea.KeyPressMsg{Code: tea.KeyUp}
	down  = tea.KeyPressMsg{Code: tea.KeyDown}
	enter = tea.KeyPressMsg{Code: tea.KeyEnter}
	tab   = tea.KeyPressMsg{Code: tea.KeyTab}
	esc   = tea.KeyPressMsg{Code: tea.KeyEscape}
	ctrlE = tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}
)

// sendText types text, where each "@query" is completed with Tab, and
// sends it.
func sendText(t *testing.T, c chat, text string) chat {
	t.Helper()
	for i, part := range strings.Split(text, "@") {
		if i > 0 {
			word, rest, _ := strings.Cut(part, " ")
			c = keys(c, "@"+word)
			c = send(c, tab)
			part = rest
		}
		c = keys(c, part)
	}
	n := len(c.history)
	c = send(c, enter)
	if len(c.history) != n+1 {
		t.Fatalf("%q was not sent: %s", text, c.status)
	}
	return c
}

// sessionsOf is the sessions a stored message referenced, in order.
func sessionsOf(t *testing.T, stored string) []string {
	t.Helper()
	m := sessionref.ParseSingleMessage(stored)
	if m.Context == nil {
		return nil
	}
	var ids []string
	for _, r := range m.Context.Source.References {
		ids = append(ids, r.SessionID)
	}
	return ids
}

// Up in an empty draft gives the last message back with its mentions:
// sending it again references the same sessions in the same order.
func TestRecallKeepsMentions(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c = sendText(t, c, "compare @pay with @fix please")
	first := sessionsOf(t, c.history[0])
	if len(first) != 2 {
		t.Fatalf("setup: referenced %v", first)
	}
	c = send(c, up)
	if got := c.input.Value(); got != "compare @Pay flow retries with @Fix the session parser please" {
		t.Fatalf("recalled %q", got)
	}
	if got, want := c.refs.ed.Canonical(c.input), sessionref.Canonical(c.history[0]); got != want {
		t.Fatalf("the recalled draft is %q, want %q", got, want)
	}
	c = send(c, enter)
	if len(c.history) != 2 {
		t.Fatalf("the recalled draft was not sent: %s", c.status)
	}
	if again := sessionsOf(t, c.history[1]); !slices.Equal(again, first) {
		t.Fatalf("sent again it references %v, first %v", again, first)
	}
}

// Up and down move through the messages sent while the draft is as
// recalled; once it is changed they move the cursor, and nothing typed is
// replaced.
func TestUpDownBrowse(t *testing.T) {
	c := newTestChat(t, 80, 24)
	for i := range 3 {
		c = sendText(t, c, fmt.Sprintf("msg%d", i))
	}
	for _, step := range []struct {
		key  tea.KeyPressMsg
		want string
	}{{up, "msg2"}, {up, "msg1"}, {up, "msg0"}, {up, "msg0"}, {down, "msg1"}, {down, "msg2"}, {down, ""}} {
		c = send(c, step.key)
		if got := c.input.Value(); got != step.want {
			t.Fatalf("after %s: %q, want %q", step.key, got, step.want)
		}
	}
	c = send(c, up)
	c = keys(c, "!")
	c = send(c, up, up, down)
	if got := c.input.Value(); got != "msg2!" {
		t.Fatalf("a changed draft was replaced: %q", got)
	}
}

// While the popup is open, up is the popup's: the adapter's WantsKey comes
// before the host's recall.
func TestUpInThePopupIsThePopups(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c = sendText(t, c, "earlier")
	c = keys(c, "@")
	if !c.refs.ed.Picker().IsOpen() {
		t.Fatal("setup: the popup is closed")
	}
	c = send(c, up)
	if got := c.input.Value(); got != "@" || !c.refs.ed.Picker().IsOpen() {
		t.Fatalf("up recalled %q with the popup open", got)
	}
}

// Editing a past message: ctrl+e on a recalled message, change it, Enter.
// The conversation goes on from the new version in a new session holding
// the messages before it; the session edited is kept as it was.
func TestEditPastMessage(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c = sendText(t, c, "first")
	c = sendText(t, c, "look at @pay now")
	c = sendText(t, c, "third")
	old := c.current
	c = send(c, up, up, ctrlE)
	if c.editing != 1 || c.input.Value() != "look at @Pay flow retries now" {
		t.Fatalf("editing %d %q", c.editing, c.input.Value())
	}
	c = keys(c, " and @fix")
	c = send(c, tab)
	c = keys(c, "too")
	c = send(c, enter)
	if c.current == old {
		t.Fatal("the edit was stored in the session edited")
	}
	if len(c.history) != 2 || sessionref.Readable(c.history[0]) != "first" {
		t.Fatalf("history after the edit: %q", c.history)
	}
	if got := sessionref.Readable(c.history[1]); got != "look at @Pay flow retries now and @Fix the session parser too" {
		t.Fatalf("the new version reads %q", got)
	}
	if ids := sessionsOf(t, c.history[1]); len(ids) != 2 {
		t.Fatalf("the new version references %v", ids)
	}
	surface, err := c.store.ReadSurface(context.Background(), old)
	if err != nil || len(surface.Events) != 3 {
		t.Fatalf("the session edited changed: %d events, %v", len(surface.Events), err)
	}
	if s := screen(c); !strings.Contains(s, "You: first") || strings.Contains(s, "You: third") {
		t.Fatalf("the screen does not show the conversation from the edit:\n%s", s)
	}
	// The picker follows the new session: the one edited can be mentioned.
	c = keys(c, "@first")
	if !strings.Contains(screen(c), "first") || !c.refs.ed.Picker().IsOpen() {
		t.Fatalf("the session edited is not offered:\n%s", screen(c))
	}
}

// ctrl+e in an empty draft edits the newest message; with a draft of the
// person's own it refuses; esc stops editing.
func TestEditKeys(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c = send(c, ctrlE)
	if c.editing != -1 {
		t.Fatal("editing with nothing sent")
	}
	c = sendText(t, c, "one")
	c = keys(c, "mine")
	c = send(c, ctrlE)
	if c.editing != -1 || c.input.Value() != "mine" {
		t.Fatalf("ctrl+e replaced a draft: %q", c.input.Value())
	}
	c.refs.ed.Reset(&c.input)
	c = send(c, ctrlE)
	if c.editing != 0 || c.input.Value() != "one" {
		t.Fatalf("ctrl+e in an empty draft: %d %q", c.editing, c.input.Value())
	}
	c = send(c, esc)
	if c.editing != -1 || c.input.Value() != "" {
		t.Fatalf("esc on an unchanged edit: %d %q", c.editing, c.input.Value())
	}
	c = send(c, ctrlE)
	c = keys(c, "!")
	c = send(c, esc)
	if c.editing != -1 || c.input.Value() != "one!" {
		t.Fatalf("esc lost a changed edit: %q", c.input.Value())
	}
	c = send(c, enter)
	if len(c.history) != 2 {
		t.Fatalf("after esc the draft is a new message: %q", c.history)
	}
}

// The session's title is its first message as a person reads it (no
// snapshot, mentions as @label), on one line, cut to titleWidth cells.
func TestTitleFromFirstMessage(t *testing.T) {
	c := newTestChat(t, 80, 24)
	if c.title != "Chat 1" {
		t.Fatalf("an empty session is titled %q", c.title)
	}
	c = sendText(t, c, "why does @pay keep failing on the second attempt at night")
	want := "why does @Pay flow retries keep failing…"
	if c.title != want || ansi.StringWidth(c.title) != titleWidth {
		t.Fatalf("title %q, want %q", c.title, want)
	}
	c = sendText(t, c, "second")
	titles, err := c.store.ReadTitles(context.Background(), []string{c.current})
	if err != nil || titles[0].Title == nil || titles[0].Title.Text != want {
		t.Fatalf("the store's title: %+v %v", titles, err)
	}
	if !strings.Contains(screen(c), want) {
		t.Fatalf("the header does not show the title:\n%s", screen(c))
	}
}

// The history as drawn: each message in the host's own frame (a bar down
// its left), the card inside it without a frame of its own.
func TestGoldenHistory(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			c := newTestChat(t, size[0], size[1])
			c = sendText(t, c, "hello")
			c = sendText(t, c, "see @pay and @fix")
			golden.RequireEqual(t, trimLines(screen(c)))
		})
	}
}

// At 40 columns the header still says what up and ctrl+e did: the status
// is whole and the title takes the cells left.
func TestStatusFitsNarrow(t *testing.T) {
	c := newTestChat(t, 40, 12)
	c = sendText(t, c, "a first message long enough to fill the header")
	c = send(c, up)
	if s := screen(c); !strings.Contains(s, "recalled 1/1 · ctrl+e edits") {
		t.Fatalf("no recall status:\n%s", s)
	}
	c = send(c, ctrlE)
	first := strings.SplitN(screen(c), "\n", 2)[0]
	if !strings.HasPrefix(first, "a fir") || !strings.Contains(first, "edit 1/1: enter sends, esc stops") {
		t.Fatalf("header %q", first)
	}
}

// A send that fails gives its draft back, mentions and all, before what
// was typed while it was prepared.
func TestFailedSendKeepsBothDrafts(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c.store.FailReads("s1", errors.New("disk gone"))
	c = keys(c, "@pay")
	c = send(c, tab)
	next, cmd := c.Update(enter)
	c = next.(chat)
	c = keys(c, "more")
	c = send(c, cmdrun.Run(cmd, time.Second)...)
	if len(c.history) != 0 {
		t.Fatalf("a failed send was stored: %q", c.history)
	}
	if got := c.input.Value(); got != "@Pay flow retries \nmore" {
		t.Fatalf("the drafts after a failed send: %q (%s)", got, c.status)
	}
	if len(c.refs.ed.Tokens()) != 1 {
		t.Fatalf("the mention came back as text: %q", c.refs.ed.Canonical(c.input))
	}
}

// A message prepared while the person moved to a new session is stored in
// the session it was written in; an edit comes back as a draft.
func TestSendAnsweredAfterCtrlN(t *testing.T) {
	c := newTestChat(t, 80, 24)
	first := c.current
	c = keys(c, "hello")
	next, cmd := c.Update(enter)
	c = send(next.(chat), tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl})
	c = send(c, cmdrun.Run(cmd, time.Second)...)
	if len(c.history) != 0 {
		t.Fatalf("stored in the new session: %q", c.history)
	}
	surface, err := c.store.ReadSurface(context.Background(), first)
	if err != nil || len(surface.Events) != 1 {
		t.Fatalf("not stored in the session it was written in: %v %v", surface.Events, err)
	}

	c = sendText(t, c, "one")
	c = send(c, ctrlE)
	c = keys(c, "!")
	next, cmd = c.Update(enter)
	c = send(next.(chat), tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl})
	c = send(c, cmdrun.Run(cmd, time.Second)...)
	if c.input.Value() != "one!" || c.editing != -1 || len(c.history) != 0 {
		t.Fatalf("the edit for a session left: draft %q, editing %d, history %q", c.input.Value(), c.editing, c.history)
	}
}

// A status longer than the header leaves is cut with "…", never by the
// terminal's edge.
func TestLongStatusIsCut(t *testing.T) {
	c := newTestChat(t, 40, 12)
	c = sendText(t, c, "a first message")
	c.status = strings.Repeat("a long reason the send failed ", 4)
	first := strings.SplitN(screen(c), "\n", 2)[0]
	if w := ansi.StringWidth(first); w > 40 || !strings.HasSuffix(strings.TrimRight(first, " "), "…") {
		t.Fatalf("header of %d cells: %q", w, first)
	}
}

// trimLines drops each line's trailing spaces: how far a renderer pads a
// line is not the screen's content (lipgloss and bubbles differ on it
// between the floors and the newest versions).
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
