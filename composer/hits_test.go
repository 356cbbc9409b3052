package composer

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// stepAll is step that also hands the picker its hit searches' answers.
func stepAll(m Model, msg tea.Msg) Model {
	var cmd tea.Cmd
	m, cmd = m.Update(msg)
	for _, next := range run(cmd) {
		switch next.(type) {
		case picker.AnswerMsg, picker.PickedMsg, picker.DismissedMsg:
			m = stepAll(m, next)
		}
	}
	return m
}

// A session found only by what was said in it is picked from the
// picker's "in messages" section into the same token as any pick.
func TestPickFromHitsInsertsToken(t *testing.T) {
	e := newEnv(t)
	cwd := "/home/dev/src/mentions"
	found := sessionref.Candidate{SessionID: "s-cafe", Label: "Café menu", Cwd: &cwd, CreatedAt: testNow.UnixMilli()}
	var asked []string
	hits := func(ctx context.Context, q string) ([]picker.Hit, error) {
		asked = append(asked, q)
		if !strings.HasPrefix("capacitor", q) {
			return nil, nil
		}
		return []picker.Hit{{Candidate: found, Snippet: "the flux capacitor hums", Match: [][2]int{{9, 9 + len(q)}}}}, nil
	}
	p := picker.New(picker.ResolverSource(e.resolver, 20), picker.WithHitSource(hits),
		picker.WithClock(func() time.Time { return testNow }), picker.WithHome("/home/dev"), picker.WithTick(neverTick))
	p.SetTarget(e.target)
	m := New(p, ResolverPreparer(e.resolver))
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.SetWidth(80)
	m.SetOrigin(0, 20)
	m.Focus()
	for _, r := range "see @capacitor" {
		m = stepAll(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if got := m.Picker().Answer(picker.MessagesID).Hits; len(m.Picker().Answer(picker.SessionsID).Candidates) != 0 || len(got) != 1 || got[0].SessionID != "s-cafe" {
		t.Fatalf("items %d, hits %+v (asked %q)", len(m.Picker().Answer(picker.SessionsID).Candidates), got, asked)
	}
	if v := m.Picker().View(); !strings.Contains(v, "in messages") || !strings.Contains(v, "flux") {
		t.Fatalf("no hits section:\n%s", v)
	}
	m = stepAll(m, enter)
	if want := "see " + mention(t, "s-cafe", "Café menu") + " "; m.Canonical() != want || m.Picker().IsOpen() {
		t.Fatalf("value %q, want %q (picker open %v)", m.Canonical(), want, m.Picker().IsOpen())
	}
}

// A query whose first word is in no title but in a session's messages
// keeps its space: the picker stays open for the next word.
func TestSpaceAfterHitsOnlyQueryKeepsPicker(t *testing.T) {
	e := newEnv(t)
	found := sessionref.Candidate{SessionID: "s-retry", Label: "Networking"}
	hits := func(ctx context.Context, q string) ([]picker.Hit, error) {
		if !strings.HasPrefix(q, "retry") {
			return nil, nil
		}
		return []picker.Hit{{Candidate: found, Snippet: "the retry bug again", Match: [][2]int{{4, 9}}}}, nil
	}
	p := picker.New(picker.ResolverSource(e.resolver, 20), picker.WithHitSource(hits),
		picker.WithClock(func() time.Time { return testNow }), picker.WithTick(neverTick))
	p.SetTarget(e.target)
	m := New(p, ResolverPreparer(e.resolver))
	m.SetWidth(80)
	m.SetOrigin(0, 20)
	for _, r := range "@retry bu" {
		m = stepAll(m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if !m.Picker().IsOpen() || m.Picker().Query() != "retry bu" {
		t.Fatalf("picker open %v with query %q, want open with %q", m.Picker().IsOpen(), m.Picker().Query(), "retry bu")
	}
}
