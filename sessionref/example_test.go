package sessionref_test

import (
	"fmt"

	"github.com/dshkit/mentions/sessionref"
)

func ExampleEncodeURI() {
	uri, _ := sessionref.EncodeURI("source")
	fmt.Println(uri)
	id, _ := sessionref.DecodeURI(uri)
	fmt.Println(id)
	_, err := sessionref.DecodeURI("dsh-session:IiJ")
	fmt.Println(sessionref.CodeOf(err))
	// Output:
	// dsh-session:InNvdXJjZSI
	// source
	// SESSION_REFERENCE_INVALID_REFERENCE
}

func ExampleFormatMention() {
	label := "Parser [v2]"
	m, _ := sessionref.FormatMention(sessionref.Reference{SessionID: "s-42", Label: &label})
	fmt.Println(m)
	// Output: @[Parser [v2\]](dsh-session:InMtNDIi)
}

func ExampleParseText() {
	p, _ := sessionref.ParseText("compare @[Research](dsh-session:InNvdXJjZSI) with dsh-session:InNhbWUi.")
	fmt.Println(p.Text)
	for _, r := range p.References {
		fmt.Println(r.SessionID, *r.Label)
	}
	// Output:
	// compare @Research with @same.
	// source Research
	// same same
}
