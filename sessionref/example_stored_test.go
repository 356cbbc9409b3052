package sessionref_test

import (
	"context"
	"fmt"
	"time"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// A host stores each user turn in the single-message form. Readable gives
// what to show of it (a title, the history, a copy); Canonical gives the
// draft back with its mentions, to recall or edit.
func ExampleCanonical() {
	s := fakestore.New()
	_ = s.Create("7a6f4e2c", nil, time.UnixMilli(1))
	_, _ = s.AppendUser("7a6f4e2c", "the drift is in the state file")
	r, _ := sessionref.NewResolver(s, sessionref.Config{})

	label := "terraform drift"
	mention, _ := sessionref.FormatMention(sessionref.Reference{SessionID: "7a6f4e2c", Label: &label})
	sent, _ := r.PrepareText(context.Background(), sessionref.Target{ID: "current"}, "look at "+mention+" please")
	stored, _ := sent.SingleMessage() // what the host keeps

	fmt.Println(sessionref.Readable(stored))
	fmt.Println(sessionref.Canonical(stored) == sent.Canonical)
	// Output:
	// look at @terraform drift please
	// true
}
