package dshlog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/valyala/fastjson"
)

// decodeBoth reads line with the scanner and with the fastjson oracle
// and reports any difference: the same lines are JSON, records, events
// and errors (by sentinel), and the same events come out of them.
// Lines with an escaped object key are left out: fastjson matches such
// a key differently before and after it has listed an object's keys,
// which the scanner does not copy.
func decodeBoth(t *testing.T, line []byte) {
	t.Helper()
	if hasEscapedKey(line) {
		return
	}
	var jp fastjson.Parser
	var (
		rr    refRecord
		rn    int
		rerr  error
		panic bool
	)
	func() {
		defer func() {
			if recover() != nil {
				panic = true // the oracle's own bug (a packed row missing its payload)
			}
		}()
		rr, rn, rerr = refDecodeRecord(&jp, line)
	}()
	if panic {
		return
	}
	r, n, err := decodeRecord(line)
	var oc errOverCap
	if errors.As(err, &oc) {
		return // over a cap the oracle had not
	}
	if (err == nil) != (rerr == nil) || unreadable(err) != refUnreadable(rerr) {
		t.Fatalf("%q:\nscanner %v\nfastjson %v", line, err, rerr)
	}
	if err != nil {
		if err.Error() != rerr.Error() && !unreadable(err) {
			t.Fatalf("%q: error %q, fastjson %q", line, err, rerr)
		}
		return
	}
	if r.typ != rr.typ || r.seq != rr.seq || r.time != rr.time || r.seq0 != rr.seq0 || r.time0 != rr.time0 ||
		r.ignorable != rr.ignorable || r.hasSources != rr.hasSources || n != rn {
		t.Fatalf("%q:\nscanner %+v %d\nfastjson %+v %d", line, r, n, rr, rn)
	}
	if isPacked(r.typ) {
		if r.span != refPackedSpan(rr.data) {
			t.Fatalf("%q: span %d, fastjson %d", line, r.span, refPackedSpan(rr.data))
		}
		return
	}
	for _, keep := range []bool{true, false} {
		p := &index{path: "x"}
		ev, err := p.decodeEvent(r, 2, keep)
		if errors.As(err, &oc) || err != nil && errors.Is(err, ErrTooLarge) {
			return
		}
		rr, _, _ := refDecodeRecord(&jp, line) // a tree the last pass did not touch
		rev, rerr := refDecodeEvent(p, rr, 2, keep)
		if (err == nil) != (rerr == nil) {
			t.Fatalf("%q:\nscanner %v\nfastjson %v", line, err, rerr)
		}
		if err != nil {
			var le, rle *LogError
			if !errors.As(err, &le) || !errors.As(rerr, &rle) || le.Err != rle.Err ||
				le.Detail != rle.Detail && !strings.Contains(le.Detail, "bad replace surfaceOp") {
				t.Fatalf("%q:\nscanner %v\nfastjson %v", line, err, rerr)
			}
			continue
		}
		if !reflect.DeepEqual(ev, rev) {
			t.Fatalf("%q (keepText %v):\nscanner  %+v %+v %+v\nfastjson %+v %+v %+v", line, keep, ev, ev.msg, ev.x, rev, rev.msg, rev.x)
		}
	}
	if typeOf(line) != refTypeOf(&jp, line) {
		t.Fatalf("%q: typeOf %q, fastjson %q", line, typeOf(line), refTypeOf(&jp, line))
	}
}

// hasEscapedKey reports a backslash in what may be an object key: a
// string followed by a colon.
func hasEscapedKey(line []byte) bool {
	for i := 0; i < len(line); {
		q := bytes.IndexByte(line[i:], '"')
		if q < 0 {
			return false
		}
		start := i + q + 1
		end, err := stringEnd(line, start)
		if err != nil {
			return false
		}
		if bytes.IndexByte(line[start:end-1], '\\') >= 0 && skipWS(line, end) < len(line) && line[skipWS(line, end)] == ':' {
			return true
		}
		i = end
	}
	return false
}

// Every record of the corpus and of the test logs decodes as fastjson
// decoded it.
func TestDecodeLikeFastjson(t *testing.T) {
	for _, line := range oracleSeeds(t) {
		decodeBoth(t, line)
	}
}

func oracleSeeds(t testing.TB) [][]byte {
	var lines [][]byte
	dirs := []string{"testdata"}
	if d := os.Getenv("MENTIONS_DSHLOG_CORPUS"); d != "" {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, bytes.Split(b, []byte{'\n'})...)
			return nil
		})
	}
	return append(lines, [][]byte{
		[]byte(`{"type":"user/message","seq":1,"time":2,"data":{"content":[{"type":"text","text":"a\"b\\\\"}],"source":{"kind":"user"}},"surfaceOp":"append"}`),
		[]byte(` {"type" : "tool/result" , "seq":-0,"time":1e0,"data":{"callId":"c\u0041\n","content":[ 1 , {"a" : [ ] } ],"isError":true},"surfaceOp":{"op":"replace","start":0,"end":0}}`),
		[]byte(`{"type":"assistant/message","seq":1,"time":2,"data":{"message":{"content":[{"type":"tool-call","id":"x","input":{ "a" : nan }},{"type":"text","text":"y","z":null}],"source":{"kind":"model","plugin":7}},"interrupted":true},"surfaceOp":"append","sourceEventSeqs":[0, 1]}`),
		[]byte(`{"type":"text-chunks","seq0":3,"time0":4,"data":{"turn":1,"step":1,"index":0,"dt":[1,-2],"texts":["a","b","c"]}}`),
		[]byte(`{"type":"x/y","seq":1,"time":2,"data":[0,0,0],"ignorable":true}`),
		[]byte(`{"type":"turn/end","seq":1,"time":2,"data":{"reason":null}}`),
		[]byte(`[1,2]`), []byte(`{"a":-}`), []byte(`{"a":-,}`), []byte(`{"a":+inf}`), []byte(`{"a":"\`), []byte(`{"a":"\\"}`), []byte(`{"a":truex}`),
	}...)
}

// FuzzDecodeLikeFastjson: any line decodes as the fastjson decoder did
// (or is over a cap the scanner adds).
func FuzzDecodeLikeFastjson(f *testing.F) {
	for _, l := range oracleSeeds(f) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		decodeBoth(t, line)
	})
}
