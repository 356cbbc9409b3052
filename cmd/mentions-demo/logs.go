package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/dshlog"
)

// layout is where a sessions root keeps its logs, as the help and the
// messages about a root name it.
const layout = "<root>/<project>/<session>/session.jsonl"

// addLogs offers real DeepSeek Harness sessions for reference besides the
// embedded ones: --sessions DIR, or --dsh for the default root. A root
// that cannot be used is a *FlagError naming the flag.
func addLogs(o *demo.Options, root string, dsh bool) error {
	if root == "" && !dsh {
		return nil
	}
	flag := "--sessions"
	if root == "" {
		flag = "--dsh"
		var err error
		if root, err = dshlog.DefaultRoot(); err != nil {
			return &FlagError{Flag: flag, Reason: "cannot find the default sessions root ($DSH_HOME/sessions or ~/.dsh/sessions): " + err.Error()}
		}
	}
	store, err := dshlog.Open(root)
	if err != nil {
		return rootError(flag, root, err)
	}
	hs, err := store.ListSessions(context.Background())
	if err != nil {
		return rootError(flag, root, err)
	}
	o.Others = store
	o.StoreName = fmt.Sprintf("%s + %d DeepSeek Harness sessions in %s", o.StoreName, len(hs), root)
	return nil
}

// rootError says in plain words why root cannot be read as a sessions
// root, naming the flag that gave it.
func rootError(flag, root string, err error) *FlagError {
	var reason string
	switch {
	case errors.Is(err, fs.ErrNotExist) && flag == "--dsh":
		reason = fmt.Sprintf("no DeepSeek Harness sessions at %s (it does not exist); set DSH_HOME or give --sessions DIR", root)
	case errors.Is(err, fs.ErrNotExist):
		reason = fmt.Sprintf("%s does not exist; want a DeepSeek Harness sessions root (%s)", root, layout)
	case errors.Is(err, dshlog.ErrNotRegular):
		reason = fmt.Sprintf("%s is not a directory; want a DeepSeek Harness sessions root (%s)", root, layout)
	case errors.Is(err, fs.ErrPermission):
		reason = fmt.Sprintf("cannot read %s: permission denied", root)
	default:
		reason = fmt.Sprintf("cannot read %s: %v", root, err)
	}
	return &FlagError{Flag: flag, Reason: reason}
}
