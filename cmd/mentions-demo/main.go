// Command mentions-demo is a standalone chat screen that shows the whole
// flow: type @ to pick another session, send, and see the reference card
// and exactly what a model would receive.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/internal/textutil"
	"github.com/dshkit/mentions/sessionref"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command without the process: it returns the exit code.
// A bad command line is one line naming the flag, the usage hint, and 1.
// Every line it writes passes through the terminal sanitiser: a path or
// value from the command line or the environment (--sessions, DSH_HOME)
// never reaches the terminal as control bytes.
func run(args []string, stdout, stderr io.Writer) int {
	f, err := parseFlags(args, os.Getenv)
	var bad *FlagError
	switch {
	case errors.As(err, &bad):
		fmt.Fprintf(stderr, "mentions-demo: %s\n%s\n", textutil.Inline(bad.Error()), usageHint)
		return 1
	case f.help:
		printUsage(stdout)
		return 0
	}
	if err := start(f); err != nil {
		if errors.As(err, &bad) {
			// A flag's value that only opening it could check (--sessions).
			fmt.Fprintf(stderr, "mentions-demo: %s\n%s\n", textutil.Inline(bad.Error()), usageHint)
		} else {
			fmt.Fprintln(stderr, "mentions-demo:", textutil.Inline(runError(err)))
		}
		return 1
	}
	return 0
}

// runError is err in the words of the command: Bubble Tea wraps its
// errors in its name at every level ("bubbletea: error opening TTY:
// bubbletea: could not open TTY: …"), so only the innermost part is
// kept, and a terminal that cannot be opened says that the demo needs
// one.
func runError(err error) string {
	s := err.Error()
	const prefix = "bubbletea: "
	i := strings.LastIndex(s, prefix)
	if i < 0 {
		return s
	}
	s = s[i+len(prefix):]
	if strings.Contains(s, "TTY") || strings.Contains(s, "/dev/tty") {
		s = "needs a terminal: " + s
	}
	return s
}

// softMemory is the demo's soft memory limit beside its generated corpus
// (about 12 KB a session, counted at 16): what it reads is bounded (see
// dshlog's and discover's package docs), and the limit keeps the
// collector from letting the heap grow to twice that before it runs.
// GOMEMLIMIT, when set, wins.
const softMemory = 256 << 20

func start(f flags) error {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemory + int64(f.count)*16<<10)
	}
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

	opts := demo.Options{
		Store: store, Current: current, Title: title, Home: home,
		StoreName: fmt.Sprintf("fakestore, %d sessions", f.count),
		Config:    sessionref.Config{MaxReferenceBytes: f.budget},
		NoMouse:   f.noMouse, Inline: f.inline, Plain: f.plain, Preview: !f.noPrev,
		Build: func(ctx context.Context, progress func(done, total int)) error {
			return seed(ctx, store, fakestore.SeedOptions{Count: f.count, Seed: f.seed, Now: now, Home: home}, progress)
		},
	}
	if err := addSources(context.Background(), &opts, f, f.count); err != nil {
		return err
	}
	removeIndex, err := addIndex(&opts, f)
	if err != nil {
		return err
	}
	defer removeIndex()
	m, err := demo.New(opts)
	if err != nil {
		return err
	}
	_, err = tea.NewProgram(m).Run()
	return errors.Join(err, m.Close())
}

// seedBatch is how many sessions one Seed call makes: small enough that
// the picker's reads interleave with the build and progress moves often.
const seedBatch = 2000

// seed generates the corpus in batches, reporting progress after each,
// so the screen shows at once and the picker works while it grows. A
// corpus of at most seedBatch sessions is exactly Seed's; a larger one
// seeds each further batch from o.Seed and the batch number.
func seed(ctx context.Context, store *fakestore.Store, o fakestore.SeedOptions, progress func(done, total int)) error {
	total := o.Count
	progress(0, total)
	for done, batch := 0, uint64(0); done < total; batch++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(seedBatch, total-done)
		b := o
		b.Count = n
		b.Seed = o.Seed + batch*0x9E3779B97F4A7C15
		store.Seed(b)
		done += n
		progress(done, total)
	}
	return nil
}
