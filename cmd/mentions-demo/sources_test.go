package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/demo"
)

// --from takes the agents in any order, each once, whatever the case.
func TestParseFrom(t *testing.T) {
	f, err := parseFlags([]string{"--from", " Codex,claude , dsh"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if f.from != "dsh,claude,codex" || !f.uses("claude") || f.uses("cursor") {
		t.Fatalf("from %q", f.from)
	}
}

// An agent with history is offered through the join and listed in F1
// with its root and count; one without says in one line what was looked
// for, and the demo starts anyway.
func TestAddSources(t *testing.T) {
	claudeHome := t.TempDir()
	dst := filepath.Join(claudeHome, "projects", "-home-ann-proj", "0a1b2c3d-0000-4000-8000-000000000001.jsonl")
	b, err := os.ReadFile(filepath.Join("..", "..", "agentlog", "claudecode", "testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(dst), "agent-1234.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	codexHome := filepath.Join(t.TempDir(), "nothing-here")
	t.Setenv("CLAUDE_CONFIG_DIR", claudeHome)
	t.Setenv("CODEX_HOME", codexHome)
	t.Setenv("DSH_HOME", filepath.Join(t.TempDir(), "no-dsh"))
	f, err := parseFlags([]string{"--from", "codex,claude,dsh"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	var o demo.Options
	if err := addSources(context.Background(), &o, f, 5); err != nil {
		t.Fatal(err)
	}
	j, ok := o.Others.(*agentlog.Joined)
	if !ok || len(j.Agents()) != 1 {
		t.Fatalf("others %T", o.Others)
	}
	_, titles, err := j.ListSessionsWithTitles(context.Background())
	if err != nil || len(titles) != 1 || titles[0].Title.Text != "claude · Retry work" {
		t.Fatalf("titles %+v %v", titles, err)
	}
	if len(o.Sources) != 3 {
		t.Fatalf("sources %q", o.Sources)
	}
	for i, want := range []string{
		"DeepSeek Harness: no history",
		"Claude Code: 1 session in " + filepath.Join(claudeHome, "projects") + "; passed over: 1 × a subagent's transcript",
		"Codex: no history (looked for " + filepath.Join(codexHome, "sessions") + " and " + filepath.Join(codexHome, "archived_sessions") + "; set CODEX_HOME",
	} {
		if !strings.HasPrefix(o.Sources[i], want) {
			t.Errorf("source %d: %q, want it to start %q", i, o.Sources[i], want)
		}
	}
	if !strings.Contains(o.Sources[1], "lines skipped: 1 unreadable, 1 of types") {
		t.Errorf("the skipped lines are not counted: %q", o.Sources[1])
	}
	if o.Notice != "No history of DeepSeek Harness or Codex was found (F1 says where it was looked for)" {
		t.Errorf("notice %q", o.Notice)
	}
	if o.StoreName != "5 generated + 1 claude" {
		t.Errorf("header %q", o.StoreName)
	}
	done, err := addIndex(&o, f)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if len(o.DiscoverRefuse) != 2 || o.DiscoverRefuse[1] != filepath.Join(claudeHome, "projects") {
		t.Errorf("the index refuses %q", o.DiscoverRefuse)
	}
}

// FuzzParseFrom: --from accepts exactly the lists of known agents, each
// once, and gives them back in one order; anything else is an error,
// never a panic.
func FuzzParseFrom(f *testing.F) {
	for _, s := range []string{"dsh", "claude,codex", " Codex , DSH ", "", ",", "claude,claude", "cursor"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := parseFrom(s)
		if err != nil {
			return
		}
		if len(names) == 0 || len(names) > len(sourceNames) {
			t.Fatalf("%q gave %q", s, names)
		}
		back, err := parseFrom(strings.Join(names, ","))
		if err != nil || strings.Join(back, ",") != strings.Join(names, ",") {
			t.Fatalf("%q gave %q, which reads back as %q %v", s, names, back, err)
		}
	})
}

// --sessions DIR with --from claude: the DeepSeek Harness root is the
// join's host, its ids untouched and its titles badged "dsh", beside
// the Claude Code sessions.
func TestSessionsWithFrom(t *testing.T) {
	const id = "11111111-2222-4333-8444-555555555555"
	dsh := t.TempDir()
	log := filepath.Join(dsh, "--src-p1--", id, "session.jsonl")
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		t.Fatal(err)
	}
	body := `{"type":"session","version":0,"id":"` + id + `","createdAt":1767225600000,"cwd":"/src/p1","delegationDepth":0}
{"type":"user/message","seq":0,"time":1767225600000,"data":{"content":[{"type":"text","text":"hello"}],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"session/title","seq":1,"time":1767225600001,"data":{"title":"Harness work","messageSeqs":[],"source":"user"}}
`
	if err := os.WriteFile(log, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	claudeHome := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "agentlog", "claudecode", "testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(claudeHome, "projects", "-p", "0a1b2c3d-0000-4000-8000-000000000001.jsonl")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", claudeHome)
	// A linked session folder is passed over, and F1 says so as it says
	// the agents' skips.
	if err := os.Symlink(filepath.Dir(log), filepath.Join(dsh, "--src-p1--", "linked")); err != nil {
		t.Fatal(err)
	}
	f, err := parseFlags([]string{"--sessions", dsh, "--from", "claude"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	var o demo.Options
	if err := addSources(context.Background(), &o, f, 0); err != nil {
		t.Fatal(err)
	}
	j, ok := o.Others.(*agentlog.Joined)
	if !ok {
		t.Fatalf("others %T", o.Others)
	}
	h, titles, err := j.ListSessionsWithTitles(context.Background())
	if err != nil || len(h) != 2 {
		t.Fatalf("%+v %v", h, err)
	}
	got := map[string]string{}
	for i := range h {
		got[h[i].ID] = titles[i].Title.Text
	}
	if got[id] != "dsh · Harness work" || got["claude:0a1b2c3d-0000-4000-8000-000000000001"] != "claude · Retry work" {
		t.Fatalf("titles %q", got)
	}
	if o.StoreName != "0 generated + 1 dsh + 1 claude" || len(o.Sources) != 2 || !strings.HasPrefix(o.Sources[0], "DeepSeek Harness: 1 session in ") ||
		!strings.HasSuffix(o.Sources[0], "; passed over: 1 × a symbolic link (not followed)") {
		t.Fatalf("header %q, sources %q", o.StoreName, o.Sources)
	}
}

// With --from dsh, the root's skips are told in F1 only, in the agents'
// words: not a second time above the composer.
func TestFromDSHSkipsInF1(t *testing.T) {
	const id = "11111111-2222-4333-8444-555555555555"
	home := t.TempDir()
	log := filepath.Join(home, "sessions", "--src-p1--", id, "session.jsonl")
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		t.Fatal(err)
	}
	body := `{"type":"session","version":0,"id":"` + id + `","createdAt":1767225600000,"cwd":"/src/p1","delegationDepth":0}
{"type":"user/message","seq":0,"time":1767225600000,"data":{"content":[{"type":"text","text":"hello"}],"source":{"kind":"user"}},"surfaceOp":"append"}
`
	if err := os.WriteFile(log, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(log), filepath.Join(home, "sessions", "--src-p1--", "linked")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DSH_HOME", home)
	f, err := parseFlags([]string{"--from", "dsh"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	var o demo.Options
	if err := addSources(context.Background(), &o, f, 0); err != nil {
		t.Fatal(err)
	}
	if len(o.Sources) != 1 || !strings.HasSuffix(o.Sources[0], "1 session in "+shown(filepath.Join(home, "sessions"))+"; passed over: 1 × a symbolic link (not followed)") {
		t.Fatalf("sources %q", o.Sources)
	}
	if o.Notice != "" {
		t.Fatalf("notice %q", o.Notice)
	}
}
