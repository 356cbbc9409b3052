package composer_test

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

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

	c := composer.New(
		picker.New(picker.ResolverSource(resolver, target, 20)),
		composer.ResolverPreparer(resolver, target),
	)
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
