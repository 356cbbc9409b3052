package mentiontextarea

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/dshkit/mentions/sessionref"
)

// keyPress is the key press that key.Matches finds for the binding key
// s ("alt+b", "ctrl+left", "pgdown", "x").
func keyPress(t *testing.T, s string) tea.KeyPressMsg {
	t.Helper()
	names := map[string]rune{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "enter": tea.KeyEnter, "home": tea.KeyHome,
		"end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "tab": tea.KeyTab, "esc": tea.KeyEscape,
		"space": tea.KeySpace}
	mods := map[string]tea.KeyMod{"alt": tea.ModAlt, "ctrl": tea.ModCtrl, "shift": tea.ModShift}
	var m tea.KeyPressMsg
	parts := strings.Split(s, "+")
	for _, p := range parts[:len(parts)-1] {
		m.Mod |= mods[p]
	}
	last := parts[len(parts)-1]
	if c, ok := names[last]; ok {
		m.Code = c
	} else {
		m.Code = []rune(last)[0]
	}
	if m.String() != s {
		t.Fatalf("key %q made as %q", s, m.String())
	}
	return m
}

// TestNoKeyHangs sends every key of the textarea's KeyMap, through the
// adapter, to an empty, a one-rune, a blank and a long textarea with the
// cursor at its start and at its end. bubbles' textarea loops forever on
// some of them (see the package doc): the adapter must never hand it
// those. The deadline only detects a hang; it is far above any real
// keystroke.
func TestNoKeyHangs(t *testing.T) {
	km := reflect.ValueOf(textarea.DefaultKeyMap())
	values := []string{"", "a", " ", "\n\n", "\nabc", "  x", strings.Repeat("word ", 60) + "\n" + strings.Repeat("界 ", 40)}
	keys := 0
	for i := 0; i < km.NumField(); i++ {
		b, ok := km.Field(i).Interface().(key.Binding)
		if !ok {
			continue
		}
		for _, k := range b.Keys() {
			msg := keyPress(t, k)
			keys++
			for _, v := range values {
				for _, atStart := range []bool{true, false} {
					a, ta := newPair(t, 30)
					a.SetValue(&ta, v)
					if atStart {
						ta.MoveToBegin()
						ta.SetCursorColumn(0)
					}
					done := make(chan struct{})
					go func() {
						a.Update(&ta, msg)
						close(done)
					}()
					select {
					case <-done:
					case <-time.After(20 * time.Second):
						t.Fatalf("%s (%s) on %q (cursor at start %v) never returned", km.Type().Field(i).Name, k, v, atStart)
					}
				}
			}
		}
	}
	if keys < 30 {
		t.Fatalf("only %d keys sent", keys)
	}
}

// TestWordBackwardAtBlankStart: the key the textarea hangs on moves to
// the start instead, and WantsKey claims it.
func TestWordBackwardAtBlankStart(t *testing.T) {
	a, ta := newPair(t, 30)
	a.SetValue(&ta, "\n   ")
	alt := tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}
	if !a.WantsKey(ta, alt) {
		t.Fatal("WantsKey does not claim the key that hangs the textarea")
	}
	a.Update(&ta, alt)
	if ta.Line() != 0 || ta.Column() != 0 {
		t.Fatalf("cursor at %d:%d", ta.Line(), ta.Column())
	}
	a.SetValue(&ta, "x  ")
	if a.WantsKey(ta, alt) {
		t.Fatal("WantsKey claims a word backward the textarea does itself")
	}
}

// TestWantsKeyAtMentionEdges: a host that handles Backspace and Delete
// itself asks first, and keeps the mention whole.
func TestWantsKeyAtMentionEdges(t *testing.T) {
	a, ta := newPair(t, 40)
	a.SetValue(&ta, "a "+canon(t, idA, "Pay")+" b")
	back := tea.KeyPressMsg{Code: tea.KeyBackspace}
	del := tea.KeyPressMsg{Code: tea.KeyDelete}
	if a.WantsKey(ta, back) {
		t.Fatal("Backspace at the end of the text claimed")
	}
	ta.SetCursorColumn(len("a @Pay"))
	if !a.WantsKey(ta, back) || a.WantsKey(ta, del) {
		t.Fatal("at the token's end: Backspace must be claimed, Delete not")
	}
	ta.SetCursorColumn(2)
	if !a.WantsKey(ta, del) || a.WantsKey(ta, back) {
		t.Fatal("at the token's start: Delete must be claimed, Backspace not")
	}
	a.Update(&ta, del)
	if ta.Value() != "a  b" || len(a.Tokens()) != 0 {
		t.Fatalf("after Delete: %q %v", ta.Value(), a.Tokens())
	}
	// A space right after a pick is claimed too: the pick wrote one.
	typeKeys(&a, &ta, "@fi")
	answer(&a, &ta)
	a.Update(&ta, tea.KeyPressMsg{Code: tea.KeyTab})
	space := tea.KeyPressMsg{Code: ' ', Text: " "}
	if !a.WantsKey(ta, space) {
		t.Fatal("the space after a pick is not claimed")
	}
	a.Update(&ta, space)
	if ta.Value() != "a @Fix the parser b" {
		t.Fatalf("space after pick doubled: %q", ta.Value())
	}
}

// TestHostSetValueAndFollow: a host's own ta.SetValue with canonical
// text gives tokens at the next Update, also when the '@' of a mention
// lies in the part of the text an edit did not change.
func TestHostSetValueAndFollow(t *testing.T) {
	a, ta := newPair(t, 60)
	m := canon(t, idA, "terraform drift")
	ta.SetValue("look at " + m + " please")
	a.Update(&ta, struct{}{})
	if ta.Value() != "look at @terraform drift please" || len(a.Tokens()) != 1 {
		t.Fatalf("host SetValue: %q %v", ta.Value(), a.Tokens())
	}
	ta.SetValue("look at " + m + " please edited") // an $EDITOR round trip
	a.Update(&ta, struct{}{})
	if ta.Value() != "look at @terraform drift please edited" || len(a.Tokens()) != 1 {
		t.Fatalf("edited outside: %q %v", ta.Value(), a.Tokens())
	}
	if got, want := a.Canonical(ta), "look at "+m+" please edited"; got != want {
		t.Fatalf("canonical %q, want %q", got, want)
	}
}

// TestHostilePastedLabel: a pasted mention whose label is 10 KB of
// lines, bidi controls and escapes shows a capped, safe chip, and the
// wire carries exactly that label, in both editors.
func TestHostilePastedLabel(t *testing.T) {
	label := strings.Repeat("line\n\u202e\x1b[31mred ", 1000)
	c := canon(t, idA, label)
	e := newEditors()
	e.send(tea.PasteMsg{Content: "see " + c})
	for name, pair := range map[string][2]string{
		"composer": {e.c.Canonical(), e.c.Readable()},
		"adapter":  {e.a.Canonical(e.ta), e.ta.Value()},
	} {
		pt, err := sessionref.ParseText(pair[0])
		if err != nil || len(pt.References) != 1 {
			t.Fatalf("%s: %v %v", name, pt.References, err)
		}
		wire := *pt.References[0].Label
		if len(pair[0]) > 400 || strings.ContainsAny(wire, "\n\x1b\u202e") {
			t.Fatalf("%s: the wire carries %d bytes: %q", name, len(pair[0]), wire)
		}
		if pair[1] != "see @"+wire {
			t.Fatalf("%s: shows %q, sends the label %q", name, pair[1], wire)
		}
	}
}

// TestTitleSpellingAMention: picking a session whose title spells a
// mention of another session references the picked one only, in the
// text sent and in the readable text recalled into either editor.
func TestTitleSpellingAMention(t *testing.T) {
	other, err := sessionref.EncodeURI(idB)
	if err != nil {
		t.Fatal(err)
	}
	title := "@[P](" + other + ")"
	e := newEditors()
	for _, r := range "@p" {
		e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	e.answer([]sessionref.Candidate{{SessionID: idA, Label: title, CreatedAt: 1}})
	e.send(tea.KeyPressMsg{Code: tea.KeyTab})
	for _, text := range []string{e.c.Canonical(), e.a.Canonical(e.ta), e.c.Readable(), e.ta.Value()} {
		pt, err := sessionref.ParseText(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range pt.References {
			if r.SessionID != idA {
				t.Fatalf("%q references %s", text, r.SessionID)
			}
		}
	}
	readable := e.c.Readable()
	e.c.SetValue(readable)
	e.a.SetValue(&e.ta, readable)
	if len(e.c.Tokens()) != 0 || len(e.a.Tokens()) != 0 {
		t.Fatalf("recalling %q made tokens", readable)
	}
}

// TestSpaceAfterPickAndNoMatch: the behaviours the two editors used to
// disagree on. A space typed right after a pick is not doubled; a space
// after a query that matched nothing ends it, and Backspace over that
// space does not bring the picker back.
func TestSpaceAfterPickAndNoMatch(t *testing.T) {
	e := newEditors()
	for _, r := range "@fi" {
		e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	e.answer(cands)
	e.send(tea.KeyPressMsg{Code: tea.KeyTab})
	e.send(tea.KeyPressMsg{Code: ' ', Text: " "})
	e.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if e.c.Readable() != "@Fix the parser x" || e.ta.Value() != "@Fix the parser x" {
		t.Fatalf("space after a pick: composer %q, adapter %q", e.c.Readable(), e.ta.Value())
	}
	e = newEditors()
	for _, r := range "@zzz" {
		e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	e.answer(nil)
	e.send(tea.KeyPressMsg{Code: ' ', Text: " "})
	e.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	if e.c.Picker().IsOpen() || e.a.Picker().IsOpen() {
		t.Fatalf("Backspace after a no-match space reopened the picker: composer %v, adapter %v",
			e.c.Picker().IsOpen(), e.a.Picker().IsOpen())
	}
}

// TestClosePicker: closing the picker from the host leaves the text, and
// the next edit in the @word opens it again, as on the composer.
func TestClosePicker(t *testing.T) {
	e := newEditors()
	for _, r := range "@fi" {
		e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	e.c.ClosePicker()
	e.a.ClosePicker()
	if e.c.Picker().IsOpen() || e.a.Picker().IsOpen() || e.ta.Value() != "@fi" {
		t.Fatalf("after ClosePicker: %v %v %q", e.c.Picker().IsOpen(), e.a.Picker().IsOpen(), e.ta.Value())
	}
	e.send(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if !e.c.Picker().IsOpen() || !e.a.Picker().IsOpen() || e.a.Picker().Query() != "fix" {
		t.Fatalf("an edit did not reopen: %v %v", e.c.Picker().IsOpen(), e.a.Picker().IsOpen())
	}
}
