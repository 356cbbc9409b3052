package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/dshlog"
	"github.com/dshkit/mentions/internal/textutil"
)

// memoryIndexMax is the largest embedded corpus indexed in memory and
// whole; a bigger one is indexed in a temporary file, so the index's
// pages stay in the operating system's cache instead of the demo's
// heap, and only the head of each session (bigIndexSessionBytes, its
// messages' first bigIndexMessageBytes each): a generated corpus says
// the same few things in every session, and its index need not hold
// every message to show discovery at work.
const (
	memoryIndexMax       = 20_000
	bigIndexMessageBytes = 1 << 10
	bigIndexSessionBytes = 2 << 10
)

// addIndex turns full-text discovery on unless --no-index: for the
// embedded store alone in memory, or in a temporary file when the corpus
// is big; with --sessions or --dsh, in a file under the user's cache
// directory keyed by the sessions root (never inside it), so the next
// start syncs only what changed. done removes what addIndex made that
// must not outlive the demo; call it after the index is closed.
func addIndex(o *demo.Options, f flags) (done func(), err error) {
	done = func() {}
	if f.noIndex {
		return done, nil
	}
	o.Discover = true
	roots := sourceRoots(o, f)
	if len(roots) == 0 {
		if f.count <= memoryIndexMax {
			return done, nil
		}
		dir, err := os.MkdirTemp("", "mentions-demo-index-")
		if err != nil {
			return done, nil // no temporary file: the index stays in memory
		}
		o.DiscoverPath = filepath.Join(dir, "index.sqlite")
		o.DiscoverOptions = append(o.DiscoverOptions, discover.WithLimits(bigIndexMessageBytes, bigIndexSessionBytes))
		return func() { os.RemoveAll(dir) }, nil
	}
	// One index per set of roots: a DeepSeek Harness root alone keeps the
	// file it always had.
	path, err := discover.DefaultPath(strings.Join(roots, "\x00"))
	if err != nil {
		// No cache directory: the demo runs without full-text search and
		// says why; the index is a cache, never required.
		o.Discover = false
		why := "full-text search is off (titles, ids and folders still match): no place for the index: " + textutil.Inline(err.Error())
		if o.Notice != "" {
			why = o.Notice + " · " + why
		}
		o.Notice = why
		return done, nil
	}
	o.DiscoverPath, o.DiscoverRefuse = path, roots
	return done, nil
}

// sourceRoots are the roots of the sessions offered besides the
// embedded ones: the DeepSeek Harness root (--sessions, --dsh or dsh in
// --from), then each agent's that has history.
func sourceRoots(o *demo.Options, f flags) []string {
	var roots []string
	switch {
	case f.sessions != "":
		roots = append(roots, f.sessions)
	case f.dsh || f.uses("dsh"):
		if root, err := dshlog.DefaultRoot(); err == nil {
			roots = append(roots, root)
		}
	}
	if j, ok := o.Others.(*agentlog.Joined); ok {
		for _, st := range j.Agents() {
			roots = append(roots, st.Root())
		}
	}
	return roots
}
