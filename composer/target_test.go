package composer

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// After SetTarget the composer prepares for the new session with the
// preparer it was built with: the old session may now be mentioned, the
// new one may not.
func TestSetTargetPreparesForTheNewSession(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	self := "see " + mention(t, "current", "This very session")
	m.SetValue(self)
	m, out := press(m, enter)
	if f, ok := out[0].(SubmitFailedMsg); !ok || sessionref.CodeOf(f.Err) != sessionref.CodeSelfReference {
		t.Fatalf("before the switch: %#v", out)
	}
	m.SetTarget(sessionref.Target{ID: "s-cafe"})
	if got, ok := m.Target(); !ok || got.ID != "s-cafe" || m.Picker().IsOpen() {
		t.Fatalf("Target() = %+v %v", got, ok)
	}
	m, out = press(m, enter)
	if sub, ok := out[0].(SubmittedMsg); !ok || len(sub.References) != 1 || sub.References[0].SessionID != "current" {
		t.Fatalf("after the switch: %#v", out)
	}
	m.SetValue("see " + mention(t, "s-cafe", "Café menu"))
	_, out = press(m, enter)
	if f, ok := out[0].(SubmitFailedMsg); !ok || sessionref.CodeOf(f.Err) != sessionref.CodeSelfReference {
		t.Fatalf("mentioning the new session: %#v", out)
	}
}

// The picker embedded in the composer follows the switch: an open popup
// is asked again and no longer offers the new session.
func TestSetTargetRequeriesTheOpenPicker(t *testing.T) {
	e := newEnv(t)
	m := typeText(e.composer(), "@caf")
	if ids := candidateIDs(m); len(ids) != 1 || ids[0] != "s-cafe" {
		t.Fatalf("before: %v", ids)
	}
	cmd := m.SetTarget(sessionref.Target{ID: "s-cafe"})
	if len(m.Picker().Answer(picker.SessionsID).Candidates) != 0 || cmd == nil {
		t.Fatalf("the old session's rows stayed: %v", candidateIDs(m))
	}
	for _, msg := range run(cmd) {
		m, _ = step(m, msg)
	}
	if ids := candidateIDs(m); len(ids) != 0 || !m.Picker().SectionFresh(picker.SessionsID) {
		t.Fatalf("after: %v", ids)
	}
}

func candidateIDs(m Model) []string {
	var ids []string
	for _, c := range m.Picker().Answer(picker.SessionsID).Candidates {
		ids = append(ids, c.SessionID)
	}
	return ids
}

// A submit still preparing when the host switches sessions ends as
// cancelled, even if its preparer succeeds, and the draft stays; the
// preparer saw the target of the session it was started in.
func TestSetTargetCancelsASubmitInFlight(t *testing.T) {
	e := newEnv(t)
	m := e.composer()
	m.SetTarget(sessionref.Target{ID: "a"})
	seen := make(chan string, 1)
	m.prepare = func(ctx context.Context, d string) (sessionref.PreparedText, error) {
		tg, _ := picker.TargetFromContext(ctx)
		seen <- tg.ID
		return sessionref.PreparedText{Canonical: d}, nil // ignores ctx
	}
	m.SetValue("hello")
	m, cmd := m.Update(enter)
	if !m.Preparing() {
		t.Fatal("not preparing")
	}
	m.SetTarget(sessionref.Target{ID: "b"})
	done := cmd()
	if got := <-seen; got != "a" {
		t.Fatalf("the preparer saw target %q", got)
	}
	m, out := step(m, done)
	f, ok := out[0].(SubmitFailedMsg)
	if !ok || sessionref.CodeOf(f.Err) != sessionref.CodeCancelled {
		t.Fatalf("got %#v", out)
	}
	if m.Canonical() != "hello" || m.Preparing() || !strings.Contains(errText(m), "cancelled") {
		t.Fatalf("after: %q %q", m.Canonical(), m.Err())
	}
}

// The target is given once, to the picker or the composer; a submit
// with none fails with ErrNoTarget and keeps the draft, and the target
// the picker was built with is the composer's.
func TestTargetGivenOnce(t *testing.T) {
	e := newEnv(t)
	bare := New(picker.New(picker.ResolverSource(e.resolver, 20), picker.WithTick(neverTick)), ResolverPreparer(e.resolver))
	if _, ok := bare.Target(); ok {
		t.Fatal("a composer over a picker without a target has one")
	}
	bare.SetValue("hello")
	bare, cmd := bare.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	bare, cmd = bare.Update(cmd())
	failed, ok := cmd().(SubmitFailedMsg)
	if !ok || !errors.Is(failed.Err, ErrNoTarget) {
		t.Fatalf("submit without a target: %#v", cmd())
	}
	if bare.Canonical() != "hello" {
		t.Fatalf("the draft was not kept: %q", bare.Canonical())
	}

	p := picker.New(picker.ResolverSource(e.resolver, 20), picker.WithTick(neverTick))
	p.SetTarget(e.target)
	m := New(p, ResolverPreparer(e.resolver))
	if got, ok := m.Target(); !ok || got.ID != e.target.ID {
		t.Fatalf("the picker's target is not the composer's: %v %v", got, ok)
	}
	m.SetValue("hello")
	m, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	_, cmd = m.Update(cmd())
	if _, ok := cmd().(SubmittedMsg); !ok {
		t.Fatalf("submit with the picker's target: %#v", cmd())
	}
}
