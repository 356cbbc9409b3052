package dshlog

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

type genMsg struct {
	seq  int64
	tool bool
}

// genLog builds a random log that stresses the fold: appends, tool
// results and their replaces, compactions over ranges, packed rows,
// ignorable events, long lines, endings.
func genLog(r *rand.Rand, n int, longLines bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"session","version":0,"id":"g","createdAt":1,"cwd":"/p","delegationDepth":0}` + "\n")
	seq := int64(0)
	var surf []genMsg
	turn, step := 0, 0
	turnOpen, stepOpen := false, false
	ev := func(typ, data, extra string) int64 {
		fmt.Fprintf(&b, `{"type":%q,"seq":%d,"time":%d,"data":%s%s}`+"\n", typ, seq, seq, data, extra)
		seq++
		return seq - 1
	}
	text := func() string {
		n := r.Intn(40)
		if longLines && r.Intn(200) == 0 {
			n = 1<<20 + r.Intn(1000)
		}
		return fmt.Sprintf("t%d %s", seq, strings.Repeat("x", n))
	}
	cite := func(extra []int64, lo, hi int) string {
		var s []string
		for _, m := range surf[lo : hi+1] {
			s = append(s, fmt.Sprint(m.seq))
		}
		for _, e := range extra {
			s = append(s, fmt.Sprint(e))
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	for i := 0; i < n; i++ {
		if !turnOpen {
			turn++
			step = 0
			ev("turn/start", fmt.Sprintf(`{"turn":%d}`, turn), "")
			turnOpen = true
		}
		switch k := r.Intn(20); {
		case k < 4:
			s := ev("user/message", fmt.Sprintf(`{"content":[{"type":"text","text":%q}],"source":{"kind":"user"}}`, text()), `,"surfaceOp":"append"`)
			surf = append(surf, genMsg{s, false})
		case k < 6:
			if !stepOpen {
				step++
				ev("step/start", fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "")
				stepOpen = true
			}
			cnt := 1 + r.Intn(150)
			var texts []string
			for j := 0; j < cnt; j++ {
				texts = append(texts, `"a"`)
			}
			dt := strings.TrimSuffix(strings.Repeat("0,", cnt-1), ",")
			typ := "text-chunks"
			if r.Intn(2) == 0 {
				typ = "reasoning-chunks"
			}
			fmt.Fprintf(&b, `{"type":%q,"seq0":%d,"time0":%d,"data":{"turn":%d,"step":%d,"index":0,"dt":[%s],"texts":[%s]}}`+"\n", typ, seq, seq, turn, step, dt, strings.Join(texts, ","))
			seq += int64(cnt)
		case k < 9:
			if !stepOpen {
				step++
				ev("step/start", fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "")
				stepOpen = true
			}
			var calls string
			nc := 0
			if r.Intn(2) == 0 {
				nc = 1 + r.Intn(3)
			}
			var ids []string
			for c := 0; c < nc; c++ {
				id := fmt.Sprintf("c%d_%d", seq, c)
				ids = append(ids, id)
				calls += fmt.Sprintf(`,{"type":"tool-call","id":%q,"name":"bash","arguments":"{}"}`, id)
			}
			s := ev("assistant/message", fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"role":"assistant","content":[{"type":"text","text":%q}%s],"source":{"kind":"model"},"id":"m%d"}}`, turn, step, text(), calls, seq), `,"surfaceOp":"append"`)
			surf = append(surf, genMsg{s, false})
			for _, id := range ids {
				if r.Intn(3) > 0 {
					cs := ev("tool/call", fmt.Sprintf(`{"turn":%d,"step":%d,"callId":%q,"name":"bash","arguments":"{}"}`, turn, step, id), "")
					if r.Intn(4) > 0 {
						s := ev("tool/result", fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"source":{"kind":"tool","callId":%q},"content":[{"type":"tool-result","toolCallId":%q,"content":[{"type":"text","text":%q}],"isError":false}],"role":"user","id":"r%d"}}`, turn, step, id, id, text(), seq), fmt.Sprintf(`,"sourceEventSeqs":[%d],"surfaceOp":"append"`, cs))
						surf = append(surf, genMsg{s, true})
						continue
					}
				}
				// left pending: the closers answer it if the turn stays open
			}
		case k < 11 && len(surf) > 0:
			// tool/result replace of a current tool/result
			var idx []int
			for j, m := range surf {
				if m.tool {
					idx = append(idx, j)
				}
			}
			if len(idx) == 0 {
				continue
			}
			j := idx[r.Intn(len(idx))]
			if r.Intn(2) == 0 {
				j = idx[len(idx)-1]
			}
			s := ev("tool/result", fmt.Sprintf(`{"turn":%d,"step":%d,"message":{"source":{"kind":"tool","callId":"x"},"content":[{"type":"tool-result","toolCallId":"x","content":[{"type":"text","text":%q}],"isError":false}],"role":"user","id":"rr%d"}}`, turn, step, text(), seq),
				fmt.Sprintf(`,"sourceEventSeqs":%s,"surfaceOp":{"op":"replace","start":%d,"end":%d}`, cite(nil, j, j), surf[j].seq, surf[j].seq))
			surf[j] = genMsg{s, true}
		case k < 13 && len(surf) > 0:
			// compaction over a range of surface positions
			lo := r.Intn(len(surf))
			hi := lo + r.Intn(min(len(surf)-lo, 1+r.Intn(200)))
			if r.Intn(3) == 0 {
				lo, hi = 0, len(surf)-1-r.Intn(min(len(surf), 3))
			}
			if r.Intn(2) == 0 && len(surf) > 70 { // inside one long run
				lo = len(surf) - 1 - r.Intn(70)
				hi = lo + r.Intn(len(surf)-lo)
			}
			var extra []int64
			if r.Intn(3) == 0 && seq > 2 {
				x := int64(r.Intn(int(seq)))
				dup := false
				for _, m := range surf[lo : hi+1] {
					dup = dup || m.seq == x
				}
				if !dup {
					extra = append(extra, x)
				}
			}
			srcs := cite(extra, lo, hi)
			if strings.Count(srcs, ","+fmt.Sprint(extra)) > 0 {
			}
			bad := r.Intn(3000) == 0
			if bad {
				srcs = cite(nil, lo, lo)
			}
			s := ev("user/message", fmt.Sprintf(`{"content":[{"type":"text","text":"<compacted-summary>"},{"type":"text","text":%q},{"type":"text","text":"</compacted-summary>"}],"source":{"kind":"plugin","plugin":"compact"}}`, text()),
				fmt.Sprintf(`,"sourceEventSeqs":%s,"surfaceOp":{"op":"replace","start":%d,"end":%d}`, srcs, surf[lo].seq, surf[hi].seq))
			ns := append([]genMsg{}, surf[:lo]...)
			ns = append(ns, genMsg{s, false})
			surf = append(ns, surf[hi+1:]...)
		case k < 14:
			ev("x/unknown", `{"a":1}`, `,"ignorable":true`)
		case k < 15:
			ev("session/title", fmt.Sprintf(`{"title":"t%d","messageSeqs":[],"source":{"kind":"fallback"}}`, seq), "")
		case k < 17:
			if stepOpen {
				ev("step/end", fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "")
				stepOpen = false
			}
		default:
			if r.Intn(3) == 0 {
				if stepOpen {
					ev("step/end", fmt.Sprintf(`{"turn":%d,"step":%d}`, turn, step), "")
					stepOpen = false
				}
				ev("turn/end", `{"reason":{"kind":"completed"}}`, "")
				turnOpen = false
			}
		}
	}
	switch r.Intn(5) {
	case 0: // torn tail
		fmt.Fprintf(&b, `{"type":"user/message","seq":%d,"time`, seq)
	case 1: // bad line, then a turn/end (corrupt)
		b.WriteString("garbage\n")
		fmt.Fprintf(&b, `{"type":"turn/end","seq":%d,"time":0,"data":{"reason":{"kind":"completed"}}}`+"\n", seq+1)
	case 2: // bad line, no turn/end
		b.WriteString("garbage\n")
		fmt.Fprintf(&b, `{"type":"step/start","seq":%d,"time":0,"data":{"turn":1,"step":1}}`+"\n", seq+1)
	}
	return b.Bytes()
}

// readResult is what one way of reading a log gave.
type readResult struct {
	Err      string
	Captured *int64
	Events   []sessionref.Event
	Messages []sessionref.OutlineMessage
	Texts    []string
}

// placeGen writes a generated log where its header says it belongs.
func placeGen(t testing.TB, data []byte, isZstd bool) string {
	t.Helper()
	dir := t.TempDir()
	name := RawName
	if isZstd {
		name += ".zstd"
	}
	path := filepath.Join(dir, "--p--", "g", name)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readVia reads the log "g" under dir as a walk and as an outline (its
// texts in the order given, newest first by default), streamed or parsed.
func readVia(t testing.TB, dir string, stream bool, order []int) (walk readResult, outline readResult) {
	ctx := context.Background()
	if stream {
		streamMin = 0
	} else {
		streamMin = 1 << 62
	}
	defer func() { streamMin = 4 << 20 }()
	s, _ := Open(dir)
	captured, err := s.WalkSurface(ctx, "g", func(e *sessionref.Event) bool {
		walk.Events = append(walk.Events, e.Clone())
		return true
	})
	walk.Captured = captured
	if err != nil {
		walk.Err = err.Error()
		walk.Events = nil
	}
	s2, _ := Open(dir)
	o, err := s2.ReadOutline(ctx, "g")
	if err != nil {
		outline.Err = err.Error()
		return
	}
	outline.Captured = o.CapturedThroughSeq
	outline.Messages = o.Messages
	if len(outline.Messages) == 0 {
		outline.Messages = nil
	}
	outline.Texts = make([]string, len(o.Messages))
	idx := order
	if idx == nil {
		for i := len(o.Messages) - 1; i >= 0; i-- {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		if i >= len(o.Messages) {
			continue
		}
		txt, err := o.Text(ctx, i)
		if err != nil {
			outline.Err = fmt.Sprintf("text %d: %v", i, err)
			return
		}
		outline.Texts[i] = txt
	}
	return
}

// TestStreamedMatchesParsedOnRandomLogs: random logs that stress the
// fold — appends, tool results and their replaces, compactions over
// ranges and inside runs, packed rows, ignorable events, long lines, torn
// and corrupt endings — walk and outline the same streamed and parsed,
// their texts read in order, backwards and at random.
// MENTIONS_STREAM_SEEDS=N runs more.
func TestStreamedMatchesParsedOnRandomLogs(t *testing.T) {
	seeds := 100
	if s := os.Getenv("MENTIONS_STREAM_SEEDS"); s != "" {
		fmt.Sscan(s, &seeds)
	}
	errs := 0
	for seed := 0; seed < seeds; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		n := 50 + r.Intn(600)
		data := genLog(r, n, seed%10 == 0)
		if seed%4 == 3 { // a zstd log, read back by streaming it again
			data = oneShotFrame(data)
		}
		dir := placeGen(t, data, seed%4 == 3)
		// a random order of texts
		var order []int
		if seed%3 == 0 {
			order = r.Perm(2000)
		} else if seed%3 == 1 {
			for i := 0; i < 2000; i++ {
				order = append(order, i)
			}
		}
		pw, po := readVia(t, dir, false, order)
		sw, so := readVia(t, dir, true, order)
		if pw.Err != "" || po.Err != "" {
			errs++
		}
		if !reflect.DeepEqual(pw, sw) {
			t.Errorf("seed %d walk differs:\nparse  err=%q n=%d cap=%v\nstream err=%q n=%d cap=%v", seed, pw.Err, len(pw.Events), pw.Captured, sw.Err, len(sw.Events), sw.Captured)
			continue
		}
		if !reflect.DeepEqual(po, so) {
			t.Errorf("seed %d outline differs:\nparse  err=%q n=%d\nstream err=%q n=%d", seed, po.Err, len(po.Messages), so.Err, len(so.Messages))
		}
	}
	t.Logf("%d seeds, %d with errors", seeds, errs)
}
