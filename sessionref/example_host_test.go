package sessionref_test

import (
	"context"
	"errors"
	"fmt"
	"time"

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

// A store over another storage converts its times with Millis.
func ExampleMillis() {
	created := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	h := sessionref.SessionHeader{ID: "s-1", CreatedAt: sessionref.Millis(created)}
	fmt.Println(h.CreatedAt)
	fmt.Println(sessionref.LooksLikeSeconds(h.CreatedAt, created))
	fmt.Println(sessionref.LooksLikeSeconds(created.Unix(), created)) // the common mistake
	// Output:
	// 1772357400000
	// false
	// true
}

func ExampleLooksLikeSeconds() {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	fmt.Println(sessionref.LooksLikeSeconds(now.Unix(), now), sessionref.LooksLikeSeconds(now.UnixMilli(), now))
	// Output: true false
}

// A store's own test runs CheckStore over a few sessions it made.
func ExampleCheckStore() {
	store := fakestore.New()
	store.Create("ok", nil, fakestore.DefaultNow)
	fmt.Println(sessionref.CheckStore(context.Background(), store))

	err := sessionref.CheckStore(context.Background(), secondsStore{})
	fmt.Println(err)
	// Output:
	// <nil>
	// session s-1: CreatedAt 1772357400 is Unix seconds, not milliseconds (it reads as 1970-01-21T12:19:17Z); set it with sessionref.Millis
}

// secondsStore lists one session whose creation time is in seconds.
type secondsStore struct{}

func (secondsStore) ListSessions(context.Context) ([]sessionref.SessionHeader, error) {
	return []sessionref.SessionHeader{{ID: "s-1", CreatedAt: 1772357400}}, nil
}

func (secondsStore) ReadTitles(_ context.Context, ids []string) ([]sessionref.TitleResult, error) {
	return make([]sessionref.TitleResult, len(ids)), nil
}

func (secondsStore) ReadSurface(context.Context, string) (sessionref.Surface, error) {
	return sessionref.Surface{}, errors.New("not found")
}
