package main

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/cmdrun"
	"github.com/dshkit/mentions/picker"
)

func neverTick(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }

// send passes msgs and every message their Cmds produce through Update.
func send(h host, msgs ...tea.Msg) host {
	for len(msgs) > 0 {
		next, cmd := h.Update(msgs[0])
		h = next.(host)
		msgs = append(msgs[1:], cmdrun.Run(cmd, time.Second)...)
	}
	return h
}

func typed(t *testing.T, w, h int, text string) host {
	t.Helper()
	store := fakestore.New()
	cwd := "/home/dev/src/app"
	store.Create("s0", &cwd, fakestore.DefaultNow)
	store.SetTitle("s0", "Pay flow retries")
	store.AppendUser("s0", "why do payments retry")
	m, err := newHost(store, picker.WithTick(neverTick))
	if err != nil {
		t.Fatal(err)
	}
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
	for _, r := range text {
		m = send(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if !m.ed.Picker().IsOpen() {
		t.Fatal("setup: the popup is closed")
	}
	return m
}

func cell(scr uv.Screen, x, y int) string {
	if c := scr.CellAt(x, y); c != nil {
		return c.Content
	}
	return ""
}

// The popup lands at its Rect on the ultraviolet screen, over the host's
// own drawing, hanging from the '@'.
func TestPopupLandsAtItsRect(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {100, 30}} {
		m := typed(t, size[0], size[1], "see @pay")
		scr := uv.NewScreenBuffer(m.width, m.height)
		scr.Method = ansi.GraphemeWidth
		m.draw(scr)
		r := m.ed.Picker().Rect()
		if r.Empty() || r.Y == 0 {
			t.Fatalf("%v: the popup's rect %+v", size, r)
		}
		corners := []string{cell(scr, r.X, r.Y), cell(scr, r.X+r.W-1, r.Y), cell(scr, r.X, r.Y+r.H-1), cell(scr, r.X+r.W-1, r.Y+r.H-1)}
		if strings.Join(corners, "") != "╭╮╰╯" {
			t.Fatalf("%v: corners at %+v are %q", size, r, corners)
		}
		if cell(scr, 0, 0) != "u" {
			t.Fatalf("%v: the header was drawn over: %q", size, cell(scr, 0, 0))
		}
		if !strings.Contains(ansi.Strip(scr.Render()), "Pay flow retries") {
			t.Fatalf("%v: the popup shows no session:\n%s", size, ansi.Strip(scr.Render()))
		}
		// The whole frame, as the program prints it, has the popup on the
		// same rows.
		lines := strings.Split(ansi.Strip(m.View().Content), "\n")
		if got := []rune(lines[r.Y]); len(got) <= r.X || string(got[r.X]) != "╭" {
			t.Fatalf("%v: row %d of the view is %q", size, r.Y, lines[r.Y])
		}
	}
}

// Why drawPopup passes the Rect: a layer drawn on the whole screen lands
// at its top-left corner, whatever its X and Y.
func TestLayerDrawIgnoresXY(t *testing.T) {
	m := typed(t, 60, 20, "@pay")
	scr := uv.NewScreenBuffer(m.width, m.height)
	l := m.ed.Picker().Layer()
	if l.GetX() == 0 && l.GetY() == 0 {
		t.Fatal("setup: the layer is at 0,0 anyway")
	}
	l.Draw(scr, scr.Bounds())
	if cell(scr, 0, 0) != "╭" {
		t.Fatalf("Layer.Draw honours X and Y now (%d,%d): drawPopup can draw it on the whole screen", l.GetX(), l.GetY())
	}
}
