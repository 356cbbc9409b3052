// Package benchlog writes synthetic DeepSeek Harness session logs shaped
// like a day of real use, for dshlog's benchmarks and its benchmark
// script: turns of a prompt, streamed reasoning and text (packed chunk
// rows), a tool call with its result, a final answer, and a title after
// the first turn.
package benchlog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// FrameLines is how many lines a zstd log puts in one frame after the
// header frame.
const FrameLines = 400

var words = strings.Fields(`the parser reads each line of the session log and folds its surface
from append and replace operations so a picker can list titles quickly without decoding
every event; tests cover torn tails, zstd frames, compaction checkpoints, 重构 リファクタリング
emoji 🎉 and quoting "like this" with a path C:\Users\dev\proj and tabs	inside`)

func sentence(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

func q(s string) string { return fmt.Sprintf("%q", s) } // Go quoting is valid JSON for these strings

// Lines returns the log of session id as lines (each ending in "\n"),
// about size bytes in all, the same for the same id and size.
func Lines(id string, size int) []string {
	r := rand.New(rand.NewPCG(uint64(len(id)), uint64(size)))
	for _, c := range id {
		r = rand.New(rand.NewPCG(r.Uint64()+uint64(c), uint64(size)))
	}
	var out []string
	n := 0
	add := func(format string, args ...any) {
		l := fmt.Sprintf(format, args...) + "\n"
		out = append(out, l)
		n += len(l)
	}
	add(`{"type":"session","version":0,"id":%q,"createdAt":1700000000000,"cwd":"/home/dev/src/big","delegationDepth":0}`, id)
	seq, t := 0, int64(1700000000000)
	ev := func(typ, data string, extra string) {
		add(`{"type":%q,"seq":%d,"time":%d,"data":%s%s}`, typ, seq, t, data, extra)
		seq++
		t += int64(r.IntN(900))
	}
	packed := func(typ string, turn, step, index int, key string, texts []string) {
		dt := make([]string, len(texts)-1)
		for i := range dt {
			dt[i] = fmt.Sprint(r.IntN(40))
		}
		qs := make([]string, len(texts))
		for i, s := range texts {
			qs[i] = q(s)
		}
		add(`{"type":%q,"seq0":%d,"time0":%d,"data":{"turn":%d,"step":%d,"index":%d,"dt":[%s],%q:[%s]}}`,
			typ, seq, t, turn, step, index, strings.Join(dt, ","), key, strings.Join(qs, ","))
		seq += len(texts)
	}
	const app = `,"surfaceOp":"append"`
	for turn := 1; n < size; turn++ {
		ev("turn/start", fmt.Sprintf(`{"turn":%d}`, turn), "")
		prompt := sentence(r, 20+r.IntN(80))
		user := seq
		ev("user/message", fmt.Sprintf(`{"id":"u%d","role":"user","content":[{"type":"text","text":%s}],"source":{"kind":"user"}}`, turn, q(prompt)), app)
		if turn == 1 || turn%25 == 0 {
			ev("session/title", fmt.Sprintf(`{"title":%s,"messageSeqs":[%d],"source":{"kind":"fallback"}}`, q(sentence(r, 5)), user), "")
		}
		for step := 1; step <= 2; step++ {
			ev("step/start", fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "")
			ev("assistant/chunk", fmt.Sprintf(`{"turn":%d,"step":%d,"chunk":{"type":"block-start","index":0,"blockType":"reasoning"}}`, turn, step), "")
			var reasoning, text []string
			for range 30 + r.IntN(60) {
				reasoning = append(reasoning, " "+words[r.IntN(len(words))])
			}
			for range 20 + r.IntN(40) {
				text = append(text, " "+words[r.IntN(len(words))])
			}
			packed("reasoning-chunks", turn, step, 0, "texts", reasoning)
			packed("text-chunks", turn, step, 1, "texts", text)
			content := fmt.Sprintf(`{"type":"reasoning","text":%s},{"type":"text","text":%s}`, q(strings.Join(reasoning, "")), q(strings.Join(text, "")))
			callID := fmt.Sprintf("call_%d_%d", turn, step)
			args := fmt.Sprintf(`{"path":"src/file%d.go","pattern":%s}`, r.IntN(100), q(sentence(r, 3)))
			if step == 1 {
				content += fmt.Sprintf(`,{"type":"tool-call","id":%q,"name":"read","arguments":%s}`, callID, q(args))
			}
			ev("assistant/message", fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"id":"a%d.%d","role":"assistant","content":[%s],"source":{"kind":"model","provider":"deepseek","model":"deepseek-chat"}},"usage":{"inputTokens":%d,"outputTokens":%d}}`,
				turn, step, turn, step, content, r.IntN(90000), r.IntN(4000)), app)
			if step == 1 {
				call := seq
				ev("tool/call", fmt.Sprintf(`{"turn":%d,"step":%d,"callId":%q,"name":"read","arguments":%s}`, turn, step, callID, q(args)), "")
				var file strings.Builder
				for i := range 10 + r.IntN(40) {
					fmt.Fprintf(&file, "%d: %s\n", i+1, sentence(r, 4+r.IntN(10)))
				}
				ev("tool/result", fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"id":"t%d","role":"user","content":[{"type":"tool-result","toolCallId":%q,"content":[{"type":"text","text":%s}],"isError":false}],"source":{"kind":"tool","callId":%q}}}`,
					turn, step, turn, callID, q(file.String()), callID), fmt.Sprintf(`,"sourceEventSeqs":[%d]`+app, call))
			}
			ev("step/end", fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "")
		}
		ev("turn/end", fmt.Sprintf(`{"turn":%d,"reason":{"kind":"completed"}}`, turn), "")
	}
	return out
}

// WriteRaw writes the raw (session.jsonl) form of Lines(id, size).
func WriteRaw(w io.Writer, id string, size int) error {
	bw := bufio.NewWriter(w)
	for _, l := range Lines(id, size) {
		bw.WriteString(l)
	}
	return bw.Flush()
}

// WriteZstd writes the zstd (session.jsonl.zstd) form of Lines(id,
// size): the header in its own frame, then one frame per FrameLines
// lines, each with a content checksum, as the harness writes them.
func WriteZstd(w io.Writer, id string, size int) error {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	defer enc.Close()
	lines := Lines(id, size)
	var frame []byte
	if _, err := w.Write(enc.EncodeAll([]byte(lines[0]), nil)); err != nil {
		return err
	}
	for i := 1; i < len(lines); i += FrameLines {
		var buf bytes.Buffer
		for _, l := range lines[i:min(i+FrameLines, len(lines))] {
			buf.WriteString(l)
		}
		frame = enc.EncodeAll(buf.Bytes(), frame[:0])
		if _, err := w.Write(frame); err != nil {
			return err
		}
	}
	return nil
}
