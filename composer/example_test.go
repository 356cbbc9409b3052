package composer_test

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// A draft holding a mention: Value is the canonical text that is sent,
// Readable what a person sees, and Enter prepares it through the core.
func Example() {
	store := fakestore.New()
	store.Create("notes", nil, fakestore.DefaultNow)
	store.SetTitle("notes", "Design notes")
	store.AppendUser("notes", "We chose SQLite for the index.")
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	target := sessionref.Target{ID: "current"}

	p := picker.New(picker.ResolverSource(resolver, 20))
	p.SetTarget(target) // the session the draft is written in
	c := composer.New(p, composer.ResolverPreparer(resolver))
	c.SetValue("what did we pick in @[Design notes](dsh-session:Im5vdGVzIg)?")
	fmt.Println(c.Readable())
	fmt.Println(len(c.Tokens()), "token")

	c, cmd := c.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	c, cmd = c.Update(cmd()) // the prepare result
	sent := cmd().(composer.SubmittedMsg)
	fmt.Println(sent.Text)
	fmt.Println(sent.Context.Source.References[0].RetainedMessages, "message captured")
	// Output:
	// what did we pick in @Design notes?
	// 1 token
	// what did we pick in @Design notes?
	// 1 message captured
}

// A host that sends with ctrl+s rebinds Submit; the footer's hints come
// from the bindings, and Enter no longer sends.
func ExampleModel_SetKeyMap() {
	store := fakestore.New()
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	target := sessionref.Target{ID: "current"}
	p := picker.New(picker.ResolverSource(resolver, 20))
	p.SetTarget(target) // the session the draft is written in
	c := composer.New(p, composer.ResolverPreparer(resolver))
	c.SetStyles(composer.PlainStyles())
	c.SetWidth(60)
	keys := composer.DefaultKeyMap()
	keys.Submit = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send"))
	c.SetKeyMap(keys)
	c.SetValue("hello")

	c, cmd := c.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	fmt.Println(cmd == nil, c.Canonical())
	lines := strings.Split(ansi.Strip(c.View()), "\n")
	fmt.Println(strings.TrimSpace(lines[len(lines)-1]))
	// Output:
	// true hello
	// @ 0/3 sessions · ctrl+s send · shift+enter newline
}

// A host that sends one user message per turn stores the single-message
// form; the card and the person's words come back from that text alone.
func ExampleSubmittedMsg_SingleMessage() {
	store := fakestore.New()
	store.Create("notes", nil, fakestore.DefaultNow)
	store.SetTitle("notes", "Design notes")
	store.AppendUser("notes", "We chose SQLite for the index.")
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	target := sessionref.Target{ID: "current"}
	p := picker.New(picker.ResolverSource(resolver, 20))
	p.SetTarget(target)
	c := composer.New(p, composer.ResolverPreparer(resolver))
	c.SetValue("what did we pick in @[Design notes](dsh-session:Im5vdGVzIg)?")

	c, cmd := c.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	_, cmd = c.Update(cmd())
	sent := cmd().(composer.SubmittedMsg)
	one, err := sent.SingleMessage()
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.HasPrefix(one, sessionref.PromptPrefix))

	back := sessionref.ParseSingleMessage(one)
	fmt.Println(back.Text)
	fmt.Println(back.Context.Source.References[0].SessionID)
	// Output:
	// true
	// what did we pick in @Design notes?
	// notes
}
