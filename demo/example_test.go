package demo_test

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// A demo over an embedded store: the current session must exist in it;
// the corpus to reference can be built in the background.
func ExampleNew() {
	now := fakestore.DefaultNow
	store := fakestore.New(fakestore.WithClock(func() time.Time { return now }))
	cwd := "/home/dev/src/mentions"
	current := sessionref.Target{ID: "current", Cwd: &cwd}
	_ = store.Create(current.ID, &cwd, now)
	m, err := demo.New(demo.Options{
		Store: store, Current: current, Title: "Example", StoreName: "fakestore",
		Home: "/home/dev", Now: func() time.Time { return now }, Plain: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 60, Height: 12})
	lines := strings.Split(ansi.Strip(next.View().Content), "\n")
	fmt.Println(strings.TrimSpace(lines[0]))
	fmt.Println(lines[len(lines)-1])
	// Output:
	// mentions demo · Example · ~/src/mentions · fakestore
	// ctrl+t what the model gets • f1 more keys • ctrl+c quit
}
