// Package claudecode reads Claude Code's session transcripts as a
// read-only session store: the rules of that format over the shared log
// engine of [agentlog]. The layout on disk, the records and what the
// projection keeps are described in the repository's docs/claude-code.md.
//
// A session's id is "claude:" followed by its transcript's file name
// without ".jsonl" (the session's uuid), so it names one store and stays
// the same from run to run.
package claudecode

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dshkit/mentions/agentlog"
)

// Prefix starts every id of this store.
const Prefix = "claude:"

// Badge is the tag a row or card shows for a session of this store.
const Badge = "claude"

// Format is Claude Code's transcript format. Its zero value is ready.
type Format struct{}

var _ agentlog.Format = Format{}

// Name is "Claude Code".
func (Format) Name() string { return "Claude Code" }

// Badge is [Badge].
func (Format) Badge() string { return Badge }

// Prefix is [Prefix].
func (Format) Prefix() string { return Prefix }

// NewIndex returns an empty transcript index.
func (Format) NewIndex() agentlog.Index { return newIndex() }

// Text is the projected text of a line read back.
func (Format) Text(line []byte, k uint8) (string, bool) {
	p := parsers.Get()
	defer parsers.Put(p)
	r, ok := decode(p, line)
	if !ok {
		return "", false
	}
	t, kind := project(&r)
	return t, kind == k
}

// DefaultRoot is where Claude Code keeps transcripts:
// $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects.
func DefaultRoot() (string, error) {
	if d := strings.TrimSpace(os.Getenv("CLAUDE_CONFIG_DIR")); d != "" {
		return filepath.Join(d, "projects"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".claude", "projects"), nil
}

// Open returns a store over the transcripts under root (a projects
// directory: one folder per working directory, one <session>.jsonl file
// per session in it).
func Open(root string, opts ...agentlog.Option) (*agentlog.Store, error) {
	return agentlog.NewStore(Format{}, root, opts...)
}

// The reasons Find gives for what it passes over.
const (
	skipLink      = agentlog.SkipLink
	skipSubagent  = "a subagent's transcript (not a conversation of its own)"
	skipSideDir   = "a session's side folder (subagents, tool output)"
	skipDuplicate = "the same session id in another project folder"
	skipName      = "a file name that is not valid UTF-8"
	skipLoose     = "a transcript outside any project folder"
)

// Find lists root/<project>/<session>.jsonl, sorted by path. Links are
// not followed, agent-*.jsonl files (the transcripts of subagents, in
// older layouts) and a session's side folders are passed over, and a
// session id found in two project folders is listed once, from the
// first by path.
func (Format) Find(ctx context.Context, root string) ([]agentlog.File, []agentlog.Skip, error) {
	projects, err := os.ReadDir(root)
	if err != nil {
		return nil, nil, err
	}
	var files []agentlog.File
	var skips []agentlog.Skip
	seen := map[string]bool{}
	for _, p := range projects {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		dir := filepath.Join(root, p.Name())
		switch {
		case p.Type()&os.ModeSymlink != 0:
			skips = append(skips, agentlog.Skip{Path: dir, Reason: skipLink})
			continue
		case !p.IsDir():
			if strings.HasSuffix(p.Name(), ".jsonl") {
				skips = append(skips, agentlog.Skip{Path: dir, Reason: skipLoose})
			}
			continue
		}
		f, s := findIn(dir, seen)
		files, skips = append(files, f...), append(skips, s...)
	}
	return files, skips, nil
}

// findIn lists one project folder.
func findIn(dir string, seen map[string]bool) ([]agentlog.File, []agentlog.Skip) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, []agentlog.Skip{{Path: dir, Reason: "an unreadable project folder"}}
	}
	var files []agentlog.File
	var skips []agentlog.Skip
	for _, e := range entries {
		name, path := e.Name(), filepath.Join(dir, e.Name())
		stem, isLog := strings.CutSuffix(name, ".jsonl")
		switch {
		case e.IsDir():
			skips = append(skips, agentlog.Skip{Path: path, Reason: skipSideDir})
		case !isLog:
		case e.Type()&os.ModeSymlink != 0:
			skips = append(skips, agentlog.Skip{Path: path, Reason: skipLink})
		case strings.HasPrefix(stem, "agent-"):
			skips = append(skips, agentlog.Skip{Path: path, Reason: skipSubagent})
		case !utf8.ValidString(stem) || stem == "":
			skips = append(skips, agentlog.Skip{Path: path, Reason: skipName})
		case seen[stem]:
			skips = append(skips, agentlog.Skip{Path: path, Reason: skipDuplicate})
		default:
			seen[stem] = true
			files = append(files, agentlog.File{ID: stem, Path: path})
		}
	}
	slices.SortFunc(files, func(a, b agentlog.File) int { return strings.Compare(a.Path, b.Path) })
	return files, skips
}
