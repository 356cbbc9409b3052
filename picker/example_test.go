package picker_test

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Embedding the picker: open it on a query, run its Cmds, and read the
// pick from the messages it sends back.
func Example() {
	store := fakestore.New()
	for _, id := range []string{"alpha", "beta"} {
		store.Create(id, nil, fakestore.DefaultNow)
		store.SetTitle(id, "Fix the "+id+" parser")
	}
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	p := picker.New(picker.ResolverSource(resolver, sessionref.Target{ID: "current"}, 20))
	p.SetScreenSize(60, 20)
	p.SetAnchor(0, 18)

	p, cmd := p.Open("beta")
	p = feed(p, cmd)
	row := strings.Split(ansi.Strip(p.View()), "\n")[1]
	fmt.Println(strings.Join(strings.Fields(strings.Trim(row, "│"))[:7], " "))

	p, cmd = p.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if picked, ok := cmd().(picker.PickedMsg); ok {
		fmt.Println(picked.Mention)
	}
	// Output:
	// › Fix the beta parser no dir
	// @[Fix the beta parser](dsh-session:ImJldGEi)
}

// feed runs a Cmd (expanding batches) and passes the fetch result back.
func feed(p picker.Model, cmd tea.Cmd) picker.Model {
	if cmd == nil {
		return p
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			p = feed(p, c)
		}
	case picker.FetchedMsg:
		p, _ = p.Update(msg)
	}
	return p
}
