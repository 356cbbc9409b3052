package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/cmdrun"
	"github.com/dshkit/mentions/internal/readme"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// TestReadmeShowsTheGlue keeps the README's section "Adding mentions to
// your own editor" honest: it shows mentions.go's code and main.go's key
// handling, which compile and are tested here.
func TestReadmeShowsTheGlue(t *testing.T) {
	for _, file := range []string{"mentions.go", "main.go"} {
		if err := readme.Check(file, "../../README.md"); err != nil {
			t.Fatal(err)
		}
	}
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	inFile, marked := glueLines(t)
	n := inFile + marked
	if n >= 100 {
		t.Fatalf("the mentions glue is %d lines; it must stay under 100", n)
	}
	words := strings.Join(strings.Fields(string(text)), " ")
	for _, want := range []string{
		fmt.Sprintf("**%d lines of glue**", n),
		fmt.Sprintf("the %d code lines of `mentions.go`", inFile),
		fmt.Sprintf("the %d lines of `main.go` marked", marked),
	} {
		if !strings.Contains(words, want) {
			t.Fatalf("README.md should say %q", want)
		}
	}
}

// glueLines counts the lines a host adds for mentions: the lines of
// mentions.go that are not blank, a comment or its package clause (the
// imports of packages the host has anyway are counted too), and the code
// lines of main.go marked "// mentions".
func glueLines(t *testing.T) (inFile, marked int) {
	t.Helper()
	count := func(name string, keep func(string) bool) int {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		n := 0
		s := bufio.NewScanner(f)
		for s.Scan() {
			line := strings.TrimSpace(s.Text())
			if line != "" && !strings.HasPrefix(line, "//") && keep(line) {
				n++
			}
		}
		return n
	}
	inFile = count("mentions.go", func(line string) bool { return line != "package main" })
	marked = count("main.go", func(line string) bool { return strings.Contains(line, "// mentions") })
	return inFile, marked
}

func newTestChat(t *testing.T, w, h int) chat {
	t.Helper()
	store := fakestore.New()
	cwd := "/home/dev/src/app"
	for i, title := range []string{"Fix the session parser", "Pay flow retries"} {
		id := fmt.Sprintf("s%d", i)
		store.Create(id, &cwd, fakestore.DefaultNow)
		store.SetTitle(id, title)
		store.AppendUser(id, "we decided to keep "+title)
	}
	c, err := newChat(store, t.TempDir(), picker.WithTick(neverTick))
	if err != nil {
		t.Fatal(err)
	}
	return send(c, tea.WindowSizeMsg{Width: w, Height: h})
}

// neverTick is the picker's timer in tests: its "searching…" delay never
// fires, so no test waits on the clock for it.
func neverTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// send passes msg and every message its Cmds produce back through Update.
func send(c chat, msgs ...tea.Msg) chat {
	queue := msgs
	for len(queue) > 0 {
		next, cmd := c.Update(queue[0])
		c = next.(chat)
		queue = append(queue[1:], cmdrun.Run(cmd, time.Second)...)
	}
	return c
}

func keys(c chat, s string) chat {
	for _, r := range s {
		c = send(c, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return c
}

func screen(c chat) string { return ansi.Strip(c.View().Content) }

func TestMentionSendAndCard(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			c := newTestChat(t, size[0], size[1])
			c = keys(c, "see @pay")
			if !c.refs.ed.Picker().IsOpen() || !strings.Contains(screen(c), "Pay flow") {
				t.Fatalf("the popup does not show the session:\n%s", screen(c))
			}
			c = send(c, tea.KeyPressMsg{Code: tea.KeyTab})
			if c.input.Value() != "see @Pay flow retries " {
				t.Fatalf("after Tab: %q", c.input.Value())
			}
			// Backspace twice: the space, then the whole token.
			c = send(c, tea.KeyPressMsg{Code: tea.KeyBackspace}, tea.KeyPressMsg{Code: tea.KeyBackspace})
			if c.input.Value() != "see " {
				t.Fatalf("Backspace at the token: %q", c.input.Value())
			}
			c = keys(c, "@pay")
			c = send(c, tea.KeyPressMsg{Code: tea.KeyTab})
			c = keys(c, "why?")
			c = send(c, tea.KeyPressMsg{Code: tea.KeyEnter})
			if len(c.history) != 1 || c.input.Value() != "" {
				t.Fatalf("not sent: %q %q", c.history, c.status)
			}
			stored := c.history[0]
			parsed := sessionref.ParseSingleMessage(stored)
			if parsed.Context == nil || parsed.Text != "see @Pay flow retries why?" {
				t.Fatalf("stored %q", stored)
			}
			if !strings.HasPrefix(stored, sessionref.PromptPrefix) {
				t.Fatal("the snapshot does not come first")
			}
			s := screen(c)
			if !strings.Contains(s, "Referenced 1 session") || !strings.Contains(s, "You: see @Pay flow") {
				t.Fatalf("no card above the message:\n%s", s)
			}
			if i, j := strings.Index(s, "Referenced"), strings.Index(s, "You: "); i > j {
				t.Fatalf("the card is not above the message:\n%s", s)
			}
		})
	}
}

func TestEditInsideTokenMakesText(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c = keys(c, "@pay")
	c = send(c, tea.KeyPressMsg{Code: tea.KeyTab})
	for range 3 { // into "retries"
		c = send(c, tea.KeyPressMsg{Code: tea.KeyLeft})
	}
	c = keys(c, "X")
	if got := c.refs.ed.Canonical(c.input); got != "@Pay flow retriXes " {
		t.Fatalf("an edit inside the token should make it text: %q", got)
	}
}

func TestNewSessionIsFollowed(t *testing.T) {
	c := newTestChat(t, 80, 24)
	first := c.current
	c = send(c, tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl})
	if c.current == first {
		t.Fatal("ctrl+n made no session")
	}
	// The new session can reference the first one, which it could not
	// reference from itself.
	c = keys(c, "@chat 1")
	if !regexp.MustCompile(`Chat 1`).MatchString(screen(c)) {
		t.Fatalf("the first session is not offered from the new one:\n%s", screen(c))
	}
}

// The newest turns are the ones on screen, however many were sent.
func TestNewestTurnsShow(t *testing.T) {
	c := newTestChat(t, 60, 14)
	for i := range 14 {
		c = keys(c, fmt.Sprintf("msg%d", i))
		c = send(c, tea.KeyPressMsg{Code: tea.KeyEnter})
	}
	if s := screen(c); !strings.Contains(s, "You: msg13") || strings.Contains(s, "You: msg0\n") {
		t.Fatalf("the newest message is not on screen:\n%s", s)
	}
}

// Enter empties the textarea at once: what is typed while the send is
// prepared is the next draft and survives the send's answer; a second
// Enter sends nothing twice.
func TestTypingDuringASendIsKept(t *testing.T) {
	c := newTestChat(t, 80, 24)
	c = keys(c, "abc")
	next, cmd := c.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	c = next.(chat)
	c = keys(c, "def")
	c = send(c, cmdrun.Run(cmd, time.Second)...)
	if len(c.history) != 1 || c.input.Value() != "def" {
		t.Fatalf("history %q, draft %q", c.history, c.input.Value())
	}
	c = send(c, tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(c.history) != 2 {
		t.Fatalf("two Enters sent %d messages", len(c.history)-1)
	}
}
