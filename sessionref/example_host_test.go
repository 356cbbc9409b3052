package sessionref_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// A host with its own editor shows the same sentence the composer shows
// when a draft cannot be sent; err.Error() names the session for logs.
func ExampleDescribe() {
	store := fakestore.New()
	store.Create("0b7e5a3c-2f41-4c1e-9a55-4f0e1d2c3b4a", nil, fakestore.DefaultNow)
	store.FailReads("0b7e5a3c-2f41-4c1e-9a55-4f0e1d2c3b4a", errors.New("permission denied"))
	cfg := sessionref.Config{MaxReferenceBytes: 32768}
	r, _ := sessionref.NewResolver(store, cfg)

	draft := "compare @[Payments retry](dsh-session:IjBiN2U1YTNjLTJmNDEtNGMxZS05YTU1LTRmMGUxZDJjM2I0YSI)"
	_, err := r.PrepareText(context.Background(), sessionref.Target{ID: "current"}, draft)
	fmt.Println(err)
	fmt.Println(sessionref.Describe(err, cfg, nil))
	// Output:
	// session "Payments retry" (0b7e5a3c): failed to read referenced session: permission denied
	// Couldn't read @Payments retry: permission denied.
}

// A host that sends one user text per turn sends the prepared draft in
// the single-message form and later reads its own history back: the
// context (for a card) and the person's words.
func ExamplePreparedText_SingleMessage() {
	store := fakestore.New()
	store.Create("parser-fix", nil, fakestore.DefaultNow)
	store.AppendUser("parser-fix", "Why does the parser fail on empty input?")
	r, _ := sessionref.NewResolver(store, sessionref.Config{})
	out, _ := r.PrepareText(context.Background(), sessionref.Target{ID: "current"},
		"compare @[the parser](dsh-session:InBhcnNlci1maXgi) with the retry fix")

	text, _ := out.SingleMessage() // send this one text
	stored := sessionref.ParseSingleMessage(text)
	fmt.Println(stored.Text)
	fmt.Println(stored.Context.Source.References[0].Label, stored.Context.Source.References[0].RetainedMessages)

	plain := sessionref.ParseSingleMessage("a message without mentions")
	fmt.Println(plain.Context == nil, plain.Text)
	// Output:
	// compare @the parser with the retry fix
	// the parser 1
	// true a message without mentions
}

func ExampleFormatSingleMessage() {
	// Without context a text is sent as it is.
	text, _ := sessionref.FormatSingleMessage(nil, "just a question")
	fmt.Println(text)
	// Output: just a question
}

func ExampleParseSingleMessage() {
	// A text that is not in the form is all message, even when it looks
	// like the start of one.
	m := sessionref.ParseSingleMessage(sessionref.ContextHeading + "\n\nhello")
	fmt.Println(m.Context == nil, len(m.Text))
	// Output: true 29
}
