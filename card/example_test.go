package card_test

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/card"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// A host builds a card from the context message it sent (or from the
// stored event with FromEvent), tells it the sessions' current titles,
// and hands it the keys and clicks meant for it.
func Example() {
	store := fakestore.New()
	store.Create("parser-fix", nil, fakestore.DefaultNow)
	store.SetTitle("parser-fix", "Fix the session parser")
	store.AppendUser("parser-fix", "Why does the parser fail on empty input?")
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	label := "that parser thing"
	prepared, _ := resolver.Prepare(context.Background(), sessionref.Target{ID: "current"}, nil,
		[]sessionref.Reference{{SessionID: "parser-fix", Label: &label}})

	titles := map[string]string{"parser-fix": "Fix the session parser"} // read with SessionQuery.ReadTitles
	c := card.New(prepared.Context)
	c.SetStyles(card.PlainStyles())
	c.SetWidth(60)
	c.SetTitles(func(id string) (string, bool) { t, ok := titles[id]; return t, ok })
	fmt.Println(strip(c.View()))

	// The card's Toggle key expands it; the Cmd Update returns renders the
	// conversation in the background (here, RenderCmd is that render, run
	// as the runtime would run it and its RenderedMsg handed back).
	c, _ = c.Update(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	fmt.Println(strip(c.View()))
	c, _ = c.Update(c.RenderCmd()())
	fmt.Println(strip(c.View()))
	// Output:
	// │ ▸ Referenced 1 session: @that parser thing (title: Fix th…
	// │   parser-fix 1/1 kept
	// │ ▾ Referenced 1 session: @that parser thing (title: Fix th…
	// │ ── @that parser thing (title: Fix the session parser) · p…
	// │    1 of 1 messages kept · 0 omitted (0 B)
	// │    rendering the conversation…
	// │ ▾ Referenced 1 session: @that parser thing (title: Fix th…
	// │ ── @that parser thing (title: Fix the session parser) · p…
	// │    1 of 1 messages kept · 0 omitted (0 B)
	// │ You:
	// │   Why does the parser fail on empty input?
}

func strip(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// A host that sends one text per turn draws the card of a stored message
// from that text alone.
func ExampleFromText() {
	store := fakestore.New()
	store.Create("parser-fix", nil, fakestore.DefaultNow)
	store.AppendUser("parser-fix", "Why does the parser fail on empty input?")
	resolver, _ := sessionref.NewResolver(store, sessionref.Config{})
	out, _ := resolver.PrepareText(context.Background(), sessionref.Target{ID: "current"},
		"see @[the parser](dsh-session:InBhcnNlci1maXgi)")
	stored, _ := out.SingleMessage() // what the host sent and keeps

	c := card.FromText(stored)
	c.SetStyles(card.PlainStyles())
	c.SetWidth(60)
	fmt.Println(strip(c.View()))
	fmt.Println(card.FromText("no context here").Err())
	// Output:
	// │ ▸ Referenced 1 session: @the parser
	// │   parser-fix 1/1 kept
	// not a session-reference context
}
