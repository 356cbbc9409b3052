package agentlog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/agentlog/claudecode"
	"github.com/dshkit/mentions/agentlog/codex"
	"github.com/dshkit/mentions/sessionref"
)

// Offer Claude Code and Codex sessions beside a host's own store: the
// joined store is a sessionref.SessionQuery like any other, and each
// agent's titles carry its badge.
func ExampleJoin() {
	dir, _ := os.MkdirTemp("", "agentlog-example-")
	defer os.RemoveAll(dir)
	transcript, _ := os.ReadFile("claudecode/testdata/session.jsonl")
	rollout, _ := os.ReadFile("codex/testdata/rollout.jsonl")
	claudeRoot := filepath.Join(dir, "claude-projects")
	codexHome := filepath.Join(dir, "codex-home")
	os.MkdirAll(filepath.Join(claudeRoot, "-home-ann-proj"), 0o755)
	os.WriteFile(filepath.Join(claudeRoot, "-home-ann-proj", "0a1b2c3d-0000-4000-8000-000000000001.jsonl"), transcript, 0o644)
	os.MkdirAll(filepath.Join(codexHome, "sessions", "2026", "03", "02"), 0o755)
	os.WriteFile(filepath.Join(codexHome, "sessions", "2026", "03", "02", "rollout-2026-03-02T09-00-00-0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.jsonl"), rollout, 0o644)

	cc, err := claudecode.Open(claudeRoot) // claudecode.DefaultRoot() on a real machine
	if err != nil {
		fmt.Println(err)
		return
	}
	cx, err := codex.Open(codexHome) // codex.DefaultRoot()
	if err != nil {
		fmt.Println(err)
		return
	}
	q := agentlog.Join(nil, cc, cx) // a host passes its own store first
	r, _ := sessionref.NewResolver(q, sessionref.Config{})
	cwd := "/home/ann/svc"
	cs, _ := r.ListCandidates(context.Background(), sessionref.Target{ID: "current", Cwd: &cwd}, "", 10)
	for _, c := range cs {
		fmt.Println(c.Label, "|", c.SessionID)
	}
	fmt.Println(cc.Stats().Sessions, "Claude Code session,", cc.Stats().Unknown, "line of an unknown type")
	// Output:
	// codex · Health check flapping | codex:0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b
	// claude · Retry work | claude:0a1b2c3d-0000-4000-8000-000000000001
	// 1 Claude Code session, 1 line of an unknown type
}
