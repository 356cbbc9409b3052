// Command mentions-demo is a standalone chat screen that shows the whole
// flow: type @ to pick another session, send, and see the reference card
// and exactly what a model would receive.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without the process: it returns the exit code.
// A bad command line is one line naming the flag, the usage hint, and 1.
func run(args []string, stdout, stderr io.Writer) int {
	f, err := parseFlags(args, os.Getenv)
	var bad *FlagError
	switch {
	case errors.As(err, &bad):
		fmt.Fprintf(stderr, "mentions-demo: %v\n%s\n", bad, usageHint)
		return 1
	case f.help:
		printUsage(stdout)
		return 0
	}
	if err := start(f); err != nil {
		fmt.Fprintln(stderr, "mentions-demo:", err)
		return 1
	}
	return 0
}

func start(f flags) error {
	home, _ := os.UserHomeDir()
	store := fakestore.New()
	now := time.Now()
	here := f.cwd
	if here == "" {
		here = fakestore.Cwds(home)[0]
	} else if abs, err := filepath.Abs(here); err == nil {
		here = abs
	}
	current := sessionref.Target{ID: "demo-current-session", Cwd: &here}
	if err := store.Create(current.ID, &here, now); err != nil {
		return err
	}
	title := "Mentions demo"
	store.SetTitle(current.ID, title)
	store.SetLatency(f.latency)
	store.Seed(fakestore.SeedOptions{Count: f.count, Seed: f.seed, Now: now, Home: home})

	opts := demo.Options{
		Store: store, Current: current, Title: title, Home: home,
		StoreName: fmt.Sprintf("fakestore, %d sessions", f.count),
		Config:    sessionref.Config{MaxReferenceBytes: f.budget},
		NoMouse:   f.noMouse, Inline: f.inline, Plain: f.plain,
	}
	if err := addLogs(&opts, f.sessions, f.dsh); err != nil {
		return err
	}
	m, err := demo.New(opts)
	if err != nil {
		return err
	}
	_, err = tea.NewProgram(m).Run()
	return err
}
