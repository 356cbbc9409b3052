// Package codex reads Codex CLI's rollouts as a read-only session store:
// the rules of that format over the shared log engine of [agentlog]. The
// layout on disk, the records and what the projection keeps are
// described in the repository's docs/codex.md.
//
// A session's id is "codex:" followed by the uuid that ends its
// rollout's file name, so it names one store and stays the same from run
// to run (and when the rollout is archived).
package codex

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/jsonlog"
	"github.com/dshkit/mentions/sessionref"
)

// Prefix starts every id of this store.
const Prefix = "codex:"

// Badge is the tag a row or card shows for a session of this store.
const Badge = "codex"

// The folders of a Codex home that hold rollouts, in the order they are
// read: a session found in both is listed from the first.
var trees = []string{"sessions", "archived_sessions"}

// indexFile is the session index in a Codex home: one line per rename.
const indexFile = "session_index.jsonl"

// Format is Codex's rollout format. Use [NewFormat]; a Format keeps the
// session index's cache.
type Format struct {
	once   sync.Once
	titles *jsonlog.Log[*titleIndex]
}

var (
	_ agentlog.Format      = (*Format)(nil)
	_ agentlog.TitleSource = (*Format)(nil)
)

// NewFormat returns the format.
func NewFormat() *Format { return &Format{} }

// Name is "Codex".
func (*Format) Name() string { return "Codex" }

// Badge is [Badge].
func (*Format) Badge() string { return Badge }

// Prefix is [Prefix].
func (*Format) Prefix() string { return Prefix }

// NewIndex returns an empty rollout index.
func (*Format) NewIndex() agentlog.Index { return newIndex() }

// Text is the projected text of a line read back.
func (*Format) Text(line []byte, k uint8) (string, bool) {
	p := parsers.Get()
	defer parsers.Put(p)
	t, kind := project(p, line)
	return t, kind == k
}

// DefaultRoot is Codex's home: $CODEX_HOME, else ~/.codex.
func DefaultRoot() (string, error) {
	if d := strings.TrimSpace(os.Getenv("CODEX_HOME")); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".codex"), nil
}

// Open returns a store over the rollouts of the Codex home root (its
// sessions and archived_sessions folders).
func Open(root string, opts ...agentlog.Option) (*agentlog.Store, error) {
	return agentlog.NewStore(NewFormat(), root, opts...)
}

// The reasons Find gives for what it passes over.
const (
	skipLink      = agentlog.SkipLink
	skipName      = "a rollout whose name ends in no session id"
	skipDuplicate = "the same session id found twice (archived and not)"
	skipDeep      = "a folder deeper than the dated layout"
)

// maxDepth is how deep below a tree rollouts are looked for: the dated
// layout is YYYY/MM/DD/rollout-….jsonl.
const maxDepth = 4

// Find lists the rollout-*.jsonl files of root's sessions folder, then
// of its archived_sessions folder, each walked in lexical order to the
// depth of the dated layout without following links. A session id found
// twice is listed from the first. A home with neither folder is an
// fs.ErrNotExist error naming root/sessions.
func (*Format) Find(ctx context.Context, root string) ([]agentlog.File, []agentlog.Skip, error) {
	var files []agentlog.File
	var skips []agentlog.Skip
	seen := map[string]bool{}
	found := false
	for _, tree := range trees {
		top := filepath.Join(root, tree)
		fi, err := os.Lstat(top)
		if err != nil || !fi.IsDir() {
			continue
		}
		found = true
		err = filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == top {
					return err
				}
				skips = append(skips, agentlog.Skip{Path: path, Reason: "an unreadable folder"})
				return nil
			}
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			f, skip, descend := visit(top, path, d, seen)
			if f != nil {
				files = append(files, *f)
			}
			if skip != "" {
				skips = append(skips, agentlog.Skip{Path: path, Reason: skip})
			}
			if d.IsDir() && !descend {
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if !found {
		return nil, nil, &fs.PathError{Op: "open", Path: filepath.Join(root, trees[0]), Err: fs.ErrNotExist}
	}
	return files, skips, nil
}

// visit decides about one entry of a tree.
func visit(top, path string, d fs.DirEntry, seen map[string]bool) (f *agentlog.File, skip string, descend bool) {
	if d.Type()&fs.ModeSymlink != 0 {
		return nil, skipLink, false
	}
	if d.IsDir() {
		rel, _ := filepath.Rel(top, path)
		depth := 0
		if rel != "." {
			depth = strings.Count(filepath.ToSlash(rel), "/") + 1
		}
		if depth >= maxDepth {
			return nil, skipDeep, false
		}
		return nil, "", true
	}
	name := d.Name()
	if !strings.HasPrefix(name, "rollout-") || !strings.HasSuffix(name, ".jsonl") {
		return nil, "", false
	}
	id, ok := idOf(name)
	switch {
	case !ok:
		return nil, skipName, false
	case seen[id]:
		return nil, skipDuplicate, false
	}
	seen[id] = true
	return &agentlog.File{ID: id, Path: path}, "", false
}

// idOf is the uuid that ends a rollout's name
// (rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl), in lower case.
func idOf(name string) (string, bool) {
	stem := strings.TrimSuffix(name, ".jsonl")
	if len(stem) < 36 {
		return "", false
	}
	u := stem[len(stem)-36:]
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return "", false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return "", false
			}
		}
	}
	return strings.ToLower(u), true
}

// titleIndex is the session index: each id's latest name.
type titleIndex struct {
	names map[string]sessionref.Title
	size  int64
}

type indexEntry struct {
	ID         string `json:"id"`
	ThreadName string `json:"thread_name"`
	UpdatedAt  string `json:"updated_at"`
}

func (t *titleIndex) Line(n int, _ int64, b []byte) {
	var e indexEntry
	if json.Unmarshal(b, &e) != nil || e.ID == "" {
		return
	}
	id := strings.ToLower(e.ID)
	if e.ThreadName == "" {
		delete(t.names, id)
		return
	}
	if _, ok := t.names[id]; !ok {
		t.size += int64(len(id)) + 64
	}
	t.size += int64(len(e.ThreadName))
	t.names[id] = sessionref.Title{Text: e.ThreadName, EventSeq: int64(n), UpdatedAt: agentlog.Millis(e.UpdatedAt)}
}

func (t *titleIndex) Long(int, int64, int64) {}
func (t *titleIndex) Size() int64            { return t.size + 256 }

// Titles reads the session index of the Codex home root (the names
// given with a rename, the latest per id); a missing or unreadable index
// gives none. It is read through the engine: cached, and only its new
// lines read when it grew.
func (f *Format) Titles(ctx context.Context, root string) map[string]sessionref.Title {
	f.once.Do(func() {
		f.titles = jsonlog.New(jsonlog.Limits{MaxLogBytes: 64 << 20, MaxLineBytes: 64 << 10},
			func(string) *titleIndex { return &titleIndex{names: map[string]sessionref.Title{}} })
	})
	var out map[string]sessionref.Title
	_ = f.titles.Use(ctx, filepath.Join(root, indexFile), func(ix *titleIndex, _ jsonlog.Snapshot) error {
		out = make(map[string]sessionref.Title, len(ix.names))
		for k, v := range ix.names {
			out[k] = v
		}
		return nil
	})
	return out
}
