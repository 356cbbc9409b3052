package main

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
)

// The host's own @-file completion: files under its working directory
// whose path holds the query, case folded. It stops after maxScan files so
// a huge tree costs a bounded walk, and honours ctx (the popup cancels a
// search when the query changes).
const (
	maxScan  = 5000
	maxFiles = 8
)

func findFiles(ctx context.Context, root, query string) ([]string, error) {
	q := strings.ToLower(query)
	var out []string
	scanned := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if scanned++; scanned > maxScan || len(out) >= maxFiles {
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.Contains(strings.ToLower(rel), q) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}
