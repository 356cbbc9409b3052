package sessionref_test

import (
	"context"
	"fmt"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// message is one row of a host's own message table; the slice below
// stands in for SQL.
type message struct {
	session, role, text string
}

var (
	sessionTable = []sessionref.SessionRow{
		{ID: "s-1", Title: "terraform drift", Cwd: "/src/infra", CreatedAt: time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)},
		{ID: "s-2", Title: "", Cwd: "/src/app", CreatedAt: time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)},
	}
	messageTable = []message{
		{"s-1", "user", "why does plan want to replace the bucket?"},
		{"s-1", "assistant", "The state file still has the old name."},
		{"s-1", "tool", "terraform plan output…"},
		{"s-2", "user", "hello"},
	}
)

// BEGIN README
var messages = sessionref.MessageStore{
	Sessions: func(ctx context.Context) ([]sessionref.SessionRow, error) {
		return sessionTable, nil // SELECT id, title, cwd, created_at, updated_at FROM sessions
	},
	Messages: func(ctx context.Context, id string) ([]sessionref.MessageRow, error) {
		var out []sessionref.MessageRow // SELECT role, text FROM messages WHERE session = ? ORDER BY position
		for _, m := range messageTable {
			if m.session == id {
				out = append(out, sessionref.MessageRow{Role: m.role, Text: m.text})
			}
		}
		return out, nil
	},
}

// END README

// A host that keeps sessions as rows of messages adapts its tables with
// two functions (messages, above); a SQL client writes the two queries in
// their place.
func ExampleMessageStore() {
	r, err := sessionref.NewResolver(messages, sessionref.Config{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	here := sessionref.Target{ID: "s-2"}
	cands, _ := r.ListCandidates(ctx, here, "drift", 5)
	mention, _ := sessionref.FormatMention(sessionref.Reference{SessionID: cands[0].SessionID, Label: &cands[0].Label})
	out, _ := r.PrepareText(ctx, here, "see "+mention)
	fmt.Println(out.Parsed.Text)
	snaps, _ := sessionref.ParsePrompt(out.Context.Prompt())
	for _, turn := range snaps[0].Conversation {
		fmt.Printf("%s: %s\n", turn.Role, turn.Text)
	}
	// Output:
	// see @terraform drift
	// user: why does plan want to replace the bucket?
	// assistant: The state file still has the old name.
}
