package main

import (
	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/dshlog"
)

// addIndex turns full-text discovery on unless --no-index: in memory for
// the embedded store alone; with --sessions or --dsh, in a file under the
// user's cache directory keyed by the sessions root (never inside it),
// so the next start syncs only what changed.
func addIndex(o *demo.Options, f flags) error {
	if f.noIndex {
		return nil
	}
	o.Discover = true
	root := f.sessions
	if root == "" && !f.dsh {
		return nil
	}
	if root == "" {
		var err error
		if root, err = dshlog.DefaultRoot(); err != nil {
			return err
		}
	}
	path, err := discover.DefaultPath(root)
	if err != nil {
		return err
	}
	o.DiscoverPath, o.DiscoverRefuse = path, []string{root}
	return nil
}
