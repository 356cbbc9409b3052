package mention_test

import (
	"fmt"

	"github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/sessionref"
)

// An editor turns keys into the model's edits and tells it what the
// picker did; the model keeps the tokens, the @query and the texts.
func ExampleModel() {
	var m mention.Model
	for _, r := range "compare @pars" {
		m.Type(string(r))
	}
	q, at, open := m.Query()
	fmt.Printf("query %q at %d open %v\n", q, at, open)

	label := "Fix the parser"
	m.Pick(sessionref.Reference{SessionID: "3f2a9c1e", Label: &label})
	m.Type(" ") // not doubled: the pick wrote one
	for _, r := range "with main" {
		m.Type(string(r))
	}
	fmt.Printf("readable:  %s\n", m.Readable())
	fmt.Printf("canonical: %s\n", m.Canonical())
	t := m.Tokens()[0]
	fmt.Printf("token %q at [%d,%d)\n", m.Readable()[t.Start:t.End], t.Start, t.End)
	// Output:
	// query "pars" at 8 open true
	// readable:  compare @Fix the parser with main
	// canonical: compare @[Fix the parser](dsh-session:IjNmMmE5YzFlIg) with main
	// token "@Fix the parser" at [8,23)
}
