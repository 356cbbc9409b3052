package picker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Embedding the picker: open it on a query, run its Cmds, and take the
// pick in the same Update as the key that made it.
func Example() {
	store := fakestore.New()
	for _, id := range []string{"alpha", "beta"} {
		store.Create(id, nil, fakestore.DefaultNow)
		store.SetTitle(id, "Fix the "+id+" parser")
	}
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	p := picker.New(picker.ResolverSource(resolver, 20),
		picker.WithClock(func() time.Time { return fakestore.DefaultNow.Add(time.Hour) }))
	p.SetTarget(sessionref.Target{ID: "current"}) // the session being written in
	p.SetScreenSize(60, 20)
	p.SetAnchor(0, 18)

	cmd := p.Open("beta")
	p = feed(p, cmd)
	row := strings.Split(ansi.Strip(p.View()), "\n")[1]
	fmt.Println(strings.Join(strings.Fields(strings.Trim(row, "│")), " "))

	p, _ = p.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if picked, ok := p.TakePick(); ok {
		fmt.Println(picked.Mention, p.IsOpen())
	}
	// Output:
	// › Fix the beta parser beta 1h ago
	// @[Fix the beta parser](dsh-session:ImJldGEi) false
}

// A host or a test fakes a section's answer with NewAnswerMsg; with
// nothing to pick, Enter is consumed and the popup and Status say why.
func ExampleNewAnswerMsg() {
	p := picker.New(picker.SourceFunc(nil))
	p.SetStyles(picker.PlainStyles())
	p.SetScreenSize(40, 10)
	p.SetAnchor(0, 9)
	_ = p.Open("zzzq")
	p, _ = p.Update(picker.NewAnswerMsg(p, picker.SessionsID, "zzzq", picker.Answer{}))

	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	fmt.Println(p.WantsKey(enter), p.Pickable(), p.Status())
	p, _ = p.Update(enter)
	fmt.Println(ansi.Strip(p.View()))

	p, _ = p.Update(picker.NewAnswerMsg(p, picker.SessionsID, "zzzq", picker.Answer{Err: errors.New("late answer")}))
	fmt.Println(p.Err()) // the query was answered already: dropped
	// Output:
	// true false no sessions match “zzzq”
	// ╭──────────────────────────────────────╮
	// │ ⚠ nothing to mention: no sessions    │
	// │   match “zzzq”                       │
	// ╰──────────────────────────────────────╯
	// <nil>
}

// Bounding the popup to a pane, and composing it over the host's screen
// as a lipgloss layer.
func ExampleModel_Layer() {
	cands := []sessionref.Candidate{{SessionID: "a1", Label: "Fix the parser", CreatedAt: 0}}
	p := picker.New(picker.SourceFunc(nil))
	p.SetStyles(picker.PlainStyles())
	p.SetScreenSize(50, 6)
	p.SetBounds(picker.Rect{X: 10, Y: 0, W: 40, H: 6}) // the chat pane right of a sidebar
	p.SetAnchor(12, 5)
	_ = p.Open("")
	p, _ = p.Update(picker.NewAnswerMsg(p, picker.SessionsID, "", picker.Answer{Candidates: cands}))

	screen := strings.Repeat(strings.Repeat(".", 50)+"\n", 5) + "sidebar   › @"
	out := lipgloss.NewCompositor(lipgloss.NewLayer(screen), p.Layer()).Render()
	fmt.Println(p.Rect())
	fmt.Println(ansi.Strip(out))
	// Output:
	// {10 2 40 3}
	// ..................................................
	// ..................................................
	// ..........╭──────────────────────────────────────╮
	// ..........│› Fix the parser          a1  —       │
	// ..........╰──────────────────────────────────────╯
	// sidebar   › @
}

// The KeyMap enables bindings by state, so help shows what works now.
func ExampleModel_KeyMap() {
	p := picker.New(picker.SourceFunc(nil))
	h := help.New()
	fmt.Printf("closed: %q\n", ansi.Strip(h.ShortHelpView(p.KeyMap().ShortHelp())))
	_ = p.Open("x")
	p, _ = p.Update(picker.NewAnswerMsg(p, picker.SessionsID, "x", picker.Answer{}))
	fmt.Printf("no rows: %q\n", ansi.Strip(h.ShortHelpView(p.KeyMap().ShortHelp())))
	_ = p.SetQuery("y")
	p, _ = p.Update(picker.NewAnswerMsg(p, picker.SessionsID, "y", picker.Answer{Candidates: []sessionref.Candidate{{SessionID: "y", Label: "y"}}}))
	fmt.Printf("a row: %q\n", ansi.Strip(h.ShortHelpView(p.KeyMap().ShortHelp())))
	// Output:
	// closed: ""
	// no rows: "esc close"
	// a row: "↑/ctrl+p up • ↓/ctrl+n down • tab mention • esc close"
}

// feed runs a Cmd (expanding batches) and passes the fetch result back.
func feed(p picker.Model, cmd tea.Cmd) picker.Model {
	for _, msg := range run(cmd) {
		var next tea.Cmd
		p, next = p.Update(msg) // every message, as a host routes them
		p = feed(p, next)
	}
	return p
}

// A second source adds the sessions found by what was said in them,
// under the candidates; a hit is picked like any candidate.
func ExampleWithHitSource() {
	found := sessionref.Candidate{SessionID: "gamma", Label: "Backoff tuning"}
	hits := func(ctx context.Context, q string) ([]picker.Hit, error) {
		return []picker.Hit{{Candidate: found, Snippet: "we fixed the retry bug", Match: [][2]int{{13, 18}}}}, nil
	}
	p := picker.New(picker.SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) { return nil, nil }),
		picker.WithHitSource(hits))
	p.SetStyles(picker.PlainStyles())
	p.SetScreenSize(40, 10)
	p.SetAnchor(0, 9)
	cmd := p.Open("retry")
	for _, msg := range run(cmd) {
		p, _ = p.Update(msg)
	}
	for _, l := range strings.Split(ansi.Strip(p.View()), "\n")[1:4] {
		fmt.Println(strings.Join(strings.Fields(strings.Trim(l, "│")), " "))
	}
	p, _ = p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	picked, _ := p.TakePick()
	fmt.Println(picked.Mention)
	// Output:
	// in messages
	// › Backoff tuning gamma —
	// we fixed the retry bug
	// @[Backoff tuning](dsh-session:ImdhbW1hIg)
}

// chat is a host that handles its own messages and routes everything
// else — keys, mouse, window sizes and the picker's own answers and
// timers — to the picker in its default branch.
type chat struct {
	picker picker.Model
	sent   []string
}

func (m chat) Update(msg tea.Msg) (chat, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !m.picker.WantsKey(msg) && msg.String() == "@" {
			return m, m.picker.Open("")
		}
	case picker.PickedMsg:
		// The picker's Cmd for other listeners; this host takes picks
		// with TakePick below instead.
		return m, nil
	}
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	if picked, ok := m.picker.TakePick(); ok {
		m.sent = append(m.sent, picked.Mention)
	}
	return m, cmd
}

// A host routes every message it does not handle itself to the picker:
// the answers and the picker's timer are messages too. Nothing needs to
// be known about them; one the picker did not ask for is ignored.
func Example_routing() {
	src := picker.SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) {
		return []sessionref.Candidate{{SessionID: "alpha", Label: "Fix the parser"}}, nil
	})
	m := chat{picker: picker.New(src)}
	msgs := []tea.Msg{
		tea.WindowSizeMsg{Width: 60, Height: 20},
		tea.KeyPressMsg{Code: '@', Text: "@"},
		tea.KeyPressMsg{Code: tea.KeyTab},
	}
	for _, msg := range msgs {
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		// What a program's loop does: every message a Cmd returns goes
		// back to Update.
		for queue := run(cmd); len(queue) > 0; queue = queue[1:] {
			m, cmd = m.Update(queue[0])
			queue = append(queue, run(cmd)...)
		}
	}
	fmt.Println(m.sent)
	// Output:
	// [@[Fix the parser](dsh-session:ImFscGhhIg)]
}

// run runs a Cmd and returns its messages, batches expanded.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}
