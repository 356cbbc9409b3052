package dshlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// zstdMagic opens every zstd frame.
var zstdMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// frameLen returns the length of the zstd frame at the start of b by
// walking its header and block headers, or complete=false when b ends
// inside it (a frame still being written, or torn).
func frameLen(b []byte) (n int, complete bool, err error) {
	if len(b) < 5 || !bytes.Equal(b[:4], zstdMagic) {
		return 0, false, errors.New("not a zstd frame")
	}
	fhd := b[4]
	if fhd&0x08 != 0 {
		return 0, false, errors.New("reserved bit set in frame header")
	}
	single := fhd&0x20 != 0
	pos := 5
	if !single {
		pos++ // window descriptor
	}
	pos += [4]int{0, 1, 2, 4}[fhd&3] // dictionary id
	fcs := [4]int{0, 2, 4, 8}[fhd>>6]
	if fhd>>6 == 0 && single {
		fcs = 1
	}
	pos += fcs
	for {
		if pos+3 > len(b) {
			return 0, false, nil
		}
		h := uint32(b[pos]) | uint32(b[pos+1])<<8 | uint32(b[pos+2])<<16
		pos += 3
		last, typ, size := h&1 == 1, (h>>1)&3, int(h>>3)
		switch typ {
		case 1: // RLE
			pos++
		case 3:
			return 0, false, errors.New("reserved block type")
		default:
			pos += size
		}
		if pos > len(b) {
			return 0, false, nil
		}
		if last {
			break
		}
	}
	if fhd&0x04 != 0 {
		pos += 4
	}
	if pos > len(b) {
		return 0, false, nil
	}
	return pos, true, nil
}

// zstdOptions bound what one frame may make the decoder allocate: a log
// frame holds one append batch, and a damaged header must not ask for
// gigabytes.
var zstdOptions = []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(256 << 20), zstd.WithDecoderMaxWindow(64 << 20)}

var decoder, _ = zstd.NewReader(nil, zstdOptions...)

// decodeZstd decodes a multi-frame zstd log frame by frame. It returns
// the text of the complete frames, the committed length (the input offset
// after the last complete frame), and what the torn last frame yields as
// whole lines (not committed: it may still be being written).
func decodeZstd(b []byte) (text []byte, committed int, tail []byte, err error) {
	for committed < len(b) {
		n, complete, ferr := frameLen(b[committed:])
		if ferr != nil {
			if len(b)-committed < 5 && bytes.HasPrefix(zstdMagic, b[committed:]) {
				return text, committed, nil, nil // a frame whose magic is still being written
			}
			return nil, 0, nil, fmt.Errorf("frame at byte %d: %w", committed, ferr)
		}
		if !complete {
			// Decode what the complete blocks hold; keep whole lines.
			r, rerr := zstd.NewReader(bytes.NewReader(b[committed:]), zstdOptions...)
			if rerr == nil {
				part, _ := io.ReadAll(r)
				r.Close()
				if i := bytes.LastIndexByte(part, '\n'); i >= 0 {
					tail = part[:i+1]
				}
			}
			return text, committed, tail, nil
		}
		out, derr := decoder.DecodeAll(b[committed:committed+n], nil)
		if derr != nil {
			return nil, 0, nil, fmt.Errorf("frame at byte %d: %w", committed, derr)
		}
		if len(out) > 0 && out[len(out)-1] != '\n' {
			return nil, 0, nil, fmt.Errorf("frame at byte %d does not end with a whole line", committed)
		}
		text = append(text, out...)
		committed += n
	}
	return text, committed, nil, nil
}

// header is the first line of a log.
type header struct {
	Type            string          `json:"type"`
	Version         *int            `json:"version"`
	ID              *string         `json:"id"`
	CreatedAt       *int64          `json:"createdAt"`
	DelegationDepth *int            `json:"delegationDepth"`
	Cwd             *string         `json:"cwd"`
	ParentSession   *string         `json:"parentSession"`
	SeedLength      *int            `json:"seedLength"`
	Origin          *string         `json:"origin"`
	AgentPreset     *string         `json:"agentPreset"`
	SandboxMode     json.RawMessage `json:"sandboxMode"`
	ApprovalPolicy  json.RawMessage `json:"approvalPolicy"`
}

// parseHeader checks a header line. Gaps the spec lets a reader forgive
// (no version, no delegationDepth) come back as warnings.
func parseHeader(path string, line []byte) (header, []string, error) {
	var h header
	if err := json.Unmarshal(line, &h); err != nil {
		return h, nil, logErr(path, 1, ErrHeader, "not JSON: %v", err)
	}
	if h.Type != "session" {
		return h, nil, logErr(path, 1, ErrHeader, "first record has type %q, not \"session\"", h.Type)
	}
	var warn []string
	if h.Version == nil {
		warn = append(warn, "header has no version; read as version 0")
	} else if *h.Version != 0 {
		dir := "a newer"
		if *h.Version < 0 {
			dir = "an unknown"
		}
		return h, nil, logErr(path, 1, ErrVersion, "format version %d was written by %s DeepSeek Harness; this reader knows version 0 only (upgrade mentions to read it)", *h.Version, dir)
	}
	if h.ID == nil {
		return h, nil, logErr(path, 1, ErrHeader, "no session id")
	}
	if h.CreatedAt == nil || *h.CreatedAt < 0 {
		return h, nil, logErr(path, 1, ErrHeader, "createdAt must be a non-negative integer")
	}
	if h.DelegationDepth == nil {
		warn = append(warn, "header has no delegationDepth; read as 0")
	}
	if len(h.SandboxMode) > 0 || len(h.ApprovalPolicy) > 0 {
		return h, nil, logErr(path, 1, ErrHeader, "retired header fields sandboxMode/approvalPolicy")
	}
	return h, warn, nil
}

// record is one storage record: an event, or a packed chunk row.
type record struct {
	Type            string          `json:"type"`
	Seq             *int64          `json:"seq"`
	Time            *int64          `json:"time"`
	Data            json.RawMessage `json:"data"`
	SurfaceOp       json.RawMessage `json:"surfaceOp"`
	SourceEventSeqs []int64         `json:"sourceEventSeqs"`
	Ignorable       bool            `json:"ignorable"`
	Seq0            *int64          `json:"seq0"`
	Time0           *int64          `json:"time0"`
}

// isPacked reports a packed chunk row's tag (no '/').
func isPacked(typ string) bool {
	return typ == "text-chunks" || typ == "reasoning-chunks" || typ == "tool-call-chunks"
}

// decodeRecord parses one line strictly: only the envelope's keys, and a
// packed row's exact shape. It returns how many events the record holds.
func decodeRecord(line []byte) (record, int, error) {
	var r record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields() // the format allows no other top-level key
	if err := dec.Decode(&r); err != nil {
		return record{}, 0, err
	}
	if dec.More() {
		return record{}, 0, errors.New("more than one JSON value on the line")
	}
	if isPacked(r.Type) {
		if r.Seq != nil || r.Time != nil || len(r.SurfaceOp) > 0 || r.SourceEventSeqs != nil || r.Ignorable {
			return r, 0, errors.New("packed row has event keys")
		}
		if r.Seq0 == nil || r.Time0 == nil {
			return r, 0, errors.New("packed row lacks seq0 or time0")
		}
		n, err := packedCount(r.Type, r.Data)
		return r, n, err
	}
	if r.Seq0 != nil || r.Time0 != nil {
		return r, 0, errors.New("event has packed-row keys")
	}
	if r.Type == "" || !strings.Contains(r.Type, "/") || r.Seq == nil || r.Time == nil || len(r.Data) == 0 {
		return r, 0, errors.New("event lacks type, seq, time or data")
	}
	return r, 1, nil
}

// packedCount validates a packed row's data and returns its member count.
func packedCount(typ string, data json.RawMessage) (int, error) {
	var d map[string]json.RawMessage
	if err := json.Unmarshal(data, &d); err != nil {
		return 0, err
	}
	want := []string{"turn", "step", "index", "dt", "texts"}
	payload := "texts"
	if typ == "tool-call-chunks" {
		want = []string{"turn", "step", "index", "id", "dt", "args"}
		payload = "args"
	}
	for _, k := range want {
		if _, ok := d[k]; !ok {
			return 0, fmt.Errorf("packed row lacks %q", k)
		}
	}
	for k := range d {
		if !containsStr(want, k) && !(typ == "tool-call-chunks" && k == "name") {
			return 0, fmt.Errorf("packed row has unexpected key %q", k)
		}
	}
	var items []string
	var dt []int64
	if err := json.Unmarshal(d[payload], &items); err != nil {
		return 0, err
	}
	if err := json.Unmarshal(d["dt"], &dt); err != nil {
		return 0, err
	}
	if len(items) == 0 || len(dt) != len(items)-1 {
		return 0, fmt.Errorf("packed row has %d gaps for %d chunks", len(dt), len(items))
	}
	return len(items), nil
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
