package discover_test

import (
	"context"
	"fmt"
	"time"

	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

func Example() {
	store := fakestore.New()
	cwd := "/src/payments"
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	store.Create("older", &cwd, at)
	store.AppendUser("older", "The retry loop gives up after one timeout.")
	store.AppendAssistant("older", "Fixed: retries now back off exponentially.")
	store.SetTitle("older", "Payment retries")
	store.Create("current", &cwd, at.Add(time.Hour))

	ix, err := discover.Open("", store) // "" keeps the index in memory
	if err != nil {
		panic(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(context.Background()); err != nil {
		panic(err)
	}
	target := sessionref.Target{ID: "current", Cwd: &cwd}
	hits, err := ix.Search(context.Background(), target, "back off expo", 10)
	if err != nil {
		panic(err)
	}
	for _, h := range hits {
		fmt.Println(h.Label, "·", h.Snippet)
		for _, m := range h.Match {
			fmt.Printf("  %q\n", h.Snippet[m[0]:m[1]])
		}
	}
	// Output:
	// Payment retries · Fixed: retries now back off exponentially.
	//   "back"
	//   "off"
	//   "expo"
}
