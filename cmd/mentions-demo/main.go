// Command mentions-demo is a standalone chat screen that shows the whole
// flow: type @ to pick another session, send, and see the reference card
// and exactly what a model would receive.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mentions-demo:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("mentions-demo", flag.ContinueOnError)
	count := fs.Int("count", 300, "number of generated sessions in the embedded store")
	seed := fs.Uint64("seed", 1, "seed of the generated sessions")
	cwd := fs.String("cwd", "", "working directory of the current session (default: the busiest generated one)")
	latency := fs.Duration("latency", 0, "delay every store read by this much, e.g. 800ms, to watch the async picker")
	budget := fs.Int("budget", 0, "byte budget of each referenced session's snapshot (default 65536)")
	noMouse := fs.Bool("no-mouse", false, "do not enable mouse reporting")
	inline := fs.Bool("inline", false, "draw in the normal screen instead of the alternate screen")
	plain := fs.Bool("plain", os.Getenv("NO_COLOR") != "", "draw without colour (default when NO_COLOR is set)")
	sessions := fs.String("sessions", "", "also offer the DeepSeek Harness session logs under this root")
	dsh := fs.Bool("dsh", false, "also offer the DeepSeek Harness sessions of the default root ($DSH_HOME/sessions or ~/.dsh/sessions)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: mentions-demo [flags]\n\nA chat screen on an embedded session store: type @ to mention another session.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil
		}
		return err
	}

	home, _ := os.UserHomeDir()
	store := fakestore.New()
	now := time.Now()
	store.Seed(fakestore.SeedOptions{Count: *count, Seed: *seed, Now: now, Home: home})
	here := *cwd
	if here == "" {
		here = fakestore.Cwds(home)[0]
	}
	current := sessionref.Target{ID: "demo-current-session", Cwd: &here}
	if err := store.Create(current.ID, &here, now); err != nil {
		return err
	}
	title := "Mentions demo"
	store.SetTitle(current.ID, title)
	store.SetLatency(*latency)

	opts := demo.Options{
		Store: store, Current: current, Title: title, Home: home,
		StoreName: fmt.Sprintf("fakestore, %d sessions", *count),
		Config:    sessionref.Config{MaxReferenceBytes: *budget},
		NoMouse:   *noMouse, Inline: *inline, Plain: *plain,
	}
	if err := addLogs(&opts, *sessions, *dsh); err != nil {
		return err
	}
	m, err := demo.New(opts)
	if err != nil {
		return err
	}
	_, err = tea.NewProgram(m).Run()
	return err
}
