package mention_test

import (
	"fmt"

	"github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/sessionref"
)

// A Tracker follows an editor it does not own: after each change, pass it
// the editor's text and cursor. Here the editor is a plain string.
func ExampleTracker() {
	var t mention.Tracker
	text := "compare @pars"
	res := t.Follow(text, len(text), false)
	fmt.Printf("query %q open %v\n", res.Query, res.Open)

	label := "Fix the parser"
	res, _ = t.Pick(sessionref.Reference{SessionID: "3f2a9c1e", Label: &label}, res.Cursor)
	text = res.Text + "with main"
	t.Follow(text, len(text), false)
	fmt.Printf("shown:     %s\n", text)
	fmt.Printf("canonical: %s\n", t.Canonical())
	// Output:
	// query "pars" open true
	// shown:     compare @Fix the parser with main
	// canonical: compare @[Fix the parser](dsh-session:IjNmMmE5YzFlIg) with main
}
