package main

import (
	"context"
	"fmt"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/dshlog"
)

// addLogs offers real DeepSeek Harness sessions for reference besides the
// embedded ones: --sessions DIR, or --dsh for the default root.
func addLogs(o *demo.Options, root string, dsh bool) error {
	if root == "" && !dsh {
		return nil
	}
	if root == "" {
		var err error
		if root, err = dshlog.DefaultRoot(); err != nil {
			return err
		}
	}
	store, err := dshlog.Open(root)
	if err != nil {
		return err
	}
	hs, err := store.ListSessions(context.Background())
	if err != nil {
		return err
	}
	o.Others = store
	o.StoreName = fmt.Sprintf("%s + %d DeepSeek Harness sessions in %s", o.StoreName, len(hs), root)
	return nil
}
