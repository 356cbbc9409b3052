package dshlog

import (
	"testing"

	"github.com/valyala/fastjson"
)

// BenchmarkDecodeRecord decodes three ordinary records (a user message,
// an assistant message, a turn/end) with the scanner and, as the
// baseline in the same run, with the fastjson decoder it replaced.
func BenchmarkDecodeRecord(b *testing.B) {
	lines := [][]byte{
		[]byte(`{"type":"user/message","seq":12,"time":1700000000000,"data":{"id":"u12","role":"user","content":[{"type":"text","text":"message 12 about the retry loop and the parser; message 12 about the retry loop and the parser; message 12 about"}],"source":{"kind":"user"}},"surfaceOp":"append"}`),
		[]byte(`{"type":"assistant/message","seq":13,"time":1700000000000,"data":{"message":{"id":"a13","role":"assistant","content":[{"type":"text","text":"message 13 about the retry loop and the parser; message 13 about the retry loop and the parser; message 13 about"}],"source":{"kind":"model"}}},"surfaceOp":"append"}`),
		[]byte(`{"type":"turn/end","seq":14,"time":1700000000000,"data":{"reason":{"kind":"completed"}}}`),
	}
	p := &index{path: "x"}
	b.Run("scanner", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			for _, l := range lines {
				r, _, _ := decodeRecord(l)
				p.decodeEvent(r, 1, true)
			}
		}
	})
	b.Run("fastjson", func(b *testing.B) {
		var jp fastjson.Parser
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			for _, l := range lines {
				r, _, _ := refDecodeRecord(&jp, l)
				refDecodeEvent(p, r, 1, true)
			}
		}
	})
}
