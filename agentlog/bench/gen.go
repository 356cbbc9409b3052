// Package bench writes generated session histories in each format the
// repository reads (Claude Code transcripts, Codex rollouts, DeepSeek
// Harness logs) and measures the stores over them side by side (see
// bench_test.go and docs/agent-logs.md). It is its own module so that
// neither agentlog nor dshlog depends on the other.
package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Shape is what a generated session holds.
type Shape struct {
	// Messages is the number of person and model messages (in turn).
	Messages int
	// TextBytes is about how long each message's text is.
	TextBytes int
	// ToolEvery adds a tool call and its result after every n-th reply
	// (0: none): bytes a reader must pass over.
	ToolEvery int
	// Start is the first message's time.
	Start time.Time
}

// text is a message's text of about n bytes, different for each i.
func text(i, n int) string {
	const words = "retry timeout flaky fetcher probe backoff config flag health cache "
	var b strings.Builder
	fmt.Fprintf(&b, "message %d:", i)
	for b.Len() < max(n, 12) {
		b.WriteString(" ")
		b.WriteString(words[(i*7+b.Len())%len(words):])
	}
	return b.String()[:max(n, 12)]
}

func uuidOf(session, n int) string {
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", session, n)
}

// WriteClaude writes a Claude Code transcript of session number id:
// chained user and assistant lines (each reply with a thinking block),
// tool calls and results, a custom title, in the shape s.
func WriteClaude(w io.Writer, id int, cwd string, s Shape) error {
	bw := bufio.NewWriter(w)
	sid := uuidOf(id, 0)
	parent := "null"
	n := 0
	line := func(body string) {
		n++
		u := uuidOf(id, n)
		ts := s.Start.Add(time.Duration(n) * time.Second).UTC().Format(time.RFC3339Nano)
		fmt.Fprintf(bw, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":%q,"sessionId":%q,"version":"2.0.14","gitBranch":"main",%s,"uuid":%q,"timestamp":%q}`+"\n",
			parent, cwd, sid, body, u, ts)
		parent = `"` + u + `"`
	}
	for i := range s.Messages {
		if i%2 == 0 {
			line(fmt.Sprintf(`"type":"user","message":{"role":"user","content":%q}`, text(i, s.TextBytes)))
			continue
		}
		line(fmt.Sprintf(`"type":"assistant","message":{"id":"msg_%d","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Considering the request.","signature":"sig"},{"type":"text","text":%q}]}`, i, text(i, s.TextBytes)))
		if s.ToolEvery > 0 && i%(2*s.ToolEvery) == 1 {
			line(fmt.Sprintf(`"type":"assistant","message":{"id":"msg_%d","role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Read","input":{"file_path":"/src/a.go"}}]}`, i, i))
			line(fmt.Sprintf(`"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":%q}]},"toolUseResult":{"type":"text"}`, i, text(i+1, s.TextBytes)))
		}
	}
	fmt.Fprintf(bw, `{"type":"custom-title","customTitle":"Generated session %d","sessionId":%q}`+"\n", id, sid)
	return bw.Flush()
}

// WriteCodex writes a Codex rollout of session number id: the header,
// the instructions and environment, then turns of a person's message,
// reasoning, tool calls and their output, the reply, and the interface's
// mirrors of both messages, in the shape s.
func WriteCodex(w io.Writer, id int, cwd string, s Shape) error {
	bw := bufio.NewWriter(w)
	n := 0
	line := func(typ, payload string) {
		n++
		ts := s.Start.Add(time.Duration(n) * time.Second).UTC().Format(time.RFC3339Nano)
		fmt.Fprintf(bw, `{"timestamp":%q,"type":%q,"payload":%s}`+"\n", ts, typ, payload)
	}
	start := s.Start.UTC().Format(time.RFC3339Nano)
	line("session_meta", fmt.Sprintf(`{"id":%q,"timestamp":%q,"cwd":%q,"originator":"codex_cli_rs","cli_version":"0.60.0","source":"cli"}`, uuidOf(id, 0), start, cwd))
	line("response_item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>`+cwd+`</cwd>\n</environment_context>"}]}`)
	for i := range s.Messages {
		t := text(i, s.TextBytes)
		if i%2 == 0 {
			line("response_item", fmt.Sprintf(`{"type":"message","role":"user","content":[{"type":"input_text","text":%q}]}`, t))
			line("event_msg", fmt.Sprintf(`{"type":"user_message","message":%q,"images":[]}`, t))
			continue
		}
		line("response_item", `{"type":"reasoning","summary":[{"type":"summary_text","text":"**Thinking**"}],"encrypted_content":"gAAAA"}`)
		if s.ToolEvery > 0 && i%(2*s.ToolEvery) == 1 {
			line("response_item", fmt.Sprintf(`{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_%d"}`, i))
			line("response_item", fmt.Sprintf(`{"type":"function_call_output","call_id":"call_%d","output":%q}`, i, text(i+1, s.TextBytes)))
		}
		line("response_item", fmt.Sprintf(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":%q}]}`, t))
		line("event_msg", fmt.Sprintf(`{"type":"agent_message","message":%q}`, t))
		line("event_msg", `{"type":"token_count","info":null}`)
	}
	line("event_msg", fmt.Sprintf(`{"type":"thread_name_updated","thread_id":%q,"thread_name":"Generated session %d"}`, uuidOf(id, 0), id))
	return bw.Flush()
}

// WriteDSH writes a DeepSeek Harness log of session number id (as
// docs/dsh-logs.md describes it): the header, turns of a person's
// message and a reply, a tool call and its result where the shape asks,
// and a title.
func WriteDSH(w io.Writer, id int, cwd string, s Shape) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `{"type":"session","version":0,"id":%q,"createdAt":%d,"cwd":%q,"delegationDepth":0}`+"\n", uuidOf(id, 0), s.Start.UnixMilli(), cwd)
	seq := 0
	ev := func(typ, data, extra string) {
		fmt.Fprintf(bw, `{"type":%q,"seq":%d,"time":%d,"data":%s%s}`+"\n", typ, seq, s.Start.UnixMilli()+int64(seq)*1000, data, extra)
		seq++
	}
	for i := range s.Messages {
		t := text(i, s.TextBytes)
		if i%2 == 0 {
			ev("turn/start", fmt.Sprintf(`{"turn":%d}`, i/2+1), "")
			ev("user/message", fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"source":{"kind":"user"}}`, t), `,"surfaceOp":"append"`)
			continue
		}
		if s.ToolEvery > 0 && i%(2*s.ToolEvery) == 1 {
			ev("tool/result", fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"source":{"kind":"tool"}}`, text(i+1, s.TextBytes)), `,"surfaceOp":"append"`)
		}
		ev("assistant/message", fmt.Sprintf(`{"message":{"content":[{"type":"text","text":%q}],"source":{"kind":"model"}}}`, t), `,"surfaceOp":"append"`)
		ev("turn/end", `{"reason":{"kind":"completed"}}`, "")
	}
	ev("session/title", fmt.Sprintf(`{"title":"Generated session %d","messageSeqs":[],"source":"user"}`, id), "")
	return bw.Flush()
}

// Format names a writer and where its files go under a root.
type Format struct {
	Name  string
	Write func(w io.Writer, id int, cwd string, s Shape) error
	// Path is the file of session id under root.
	Path func(root string, id int) string
}

// Formats are the three writers and their layouts.
var Formats = []Format{
	{"claude", WriteClaude, func(root string, id int) string {
		return filepath.Join(root, fmt.Sprintf("-src-p%d", id%10), uuidOf(id, 0)+".jsonl")
	}},
	{"codex", WriteCodex, func(root string, id int) string {
		return filepath.Join(root, "sessions", "2026", "03", fmt.Sprintf("%02d", 1+id%28), "rollout-2026-03-01T00-00-00-"+uuidOf(id, 0)+".jsonl")
	}},
	{"dsh", WriteDSH, func(root string, id int) string {
		return filepath.Join(root, fmt.Sprintf("--src-p%d--", id%10), uuidOf(id, 0), "session.jsonl")
	}},
}

// Generate writes sessions of the shape under root in format f: session
// i in /src/p<i%10>, starting an hour after session i-1. It returns the
// bytes written.
func Generate(f Format, root string, sessions int, s Shape) (int64, error) {
	var total int64
	base := s.Start
	for i := range sessions {
		p := f.Path(root, i)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return total, err
		}
		out, err := os.Create(p)
		if err != nil {
			return total, err
		}
		s.Start = base.Add(time.Duration(i) * time.Hour)
		err = f.Write(out, i, fmt.Sprintf("/src/p%d", i%10), s)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return total, err
		}
		fi, err := os.Stat(p)
		if err != nil {
			return total, err
		}
		total += fi.Size()
	}
	return total, nil
}
