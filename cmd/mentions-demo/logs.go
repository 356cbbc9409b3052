package main

import (
	"errors"

	"github.com/dshkit/mentions/demo"
)

// addLogs wires real session logs in as referenceable sessions.
func addLogs(o *demo.Options, root string, dsh bool) error {
	if root == "" && !dsh {
		return nil
	}
	return errors.New("reading DeepSeek Harness logs is not available in this build")
}
