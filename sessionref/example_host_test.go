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
