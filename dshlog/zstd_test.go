package dshlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// rleFrame is a zstd frame of n bytes of b in RLE blocks of 128 KiB,
// made by hand (compressing it under the race detector is slow). With
// sized set, the header declares the content size.
func rleFrame(b byte, n int, sized bool) []byte {
	out := append([]byte(nil), zstdMagic...)
	if sized {
		out = append(out, 0xC0, 0x38) // 8-byte content size, a window descriptor
		out = binary.LittleEndian.AppendUint64(out, uint64(n))
	} else {
		out = append(out, 0x00, 0x38) // no content size; a 128 KiB window
	}
	for n > 0 {
		size := min(n, 128<<10)
		n -= size
		h := uint32(size)<<3 | 1<<1 // RLE
		if n == 0 {
			h |= 1 // last block
		}
		out = append(out, byte(h), byte(h>>8), byte(h>>16), b)
	}
	return out
}

func oneShotFrame(data []byte) []byte {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

const bombHeader = `{"type":"session","version":0,"id":"bomb","createdAt":1,"delegationDepth":0}` + "\n"

// TestZstdBomb: frames of spaces far past the cap fail quickly with
// ErrTooLarge naming the file, counted while streaming (the heap never
// holds the decoded log), for reads and for titles, whether or not the
// frames declare their size.
func TestZstdBomb(t *testing.T) {
	const frameSize = 32 << 20
	for _, kind := range []string{"streamed", "sized"} {
		t.Run(kind, func(t *testing.T) {
			var log bytes.Buffer
			log.Write(oneShotFrame([]byte(bombHeader)))
			frame := rleFrame(' ', frameSize, kind == "sized")
			for range 6 { // 192 MiB decoded
				log.Write(frame)
			}
			path := filepath.Join(t.TempDir(), ZstdName)
			os.WriteFile(path, log.Bytes(), 0o644)
			s, _ := OpenFile(path, WithMaxLogBytes(8<<20))
			ctx := context.Background()
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := s.ReadSurface(ctx, "bomb")
			ts, terr := s.ReadTitles(ctx, []string{"bomb"})
			runtime.ReadMemStats(&after)
			var le *LogError
			if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.Path != path {
				t.Fatalf("read: %v", err)
			}
			if terr != nil || !errors.Is(ts[0].Err, ErrTooLarge) || !strings.Contains(ts[0].Err.Error(), path) {
				t.Fatalf("titles: %+v %v", ts, terr)
			}
			// Far less than the 192 MiB the log decodes to: the cap is
			// enforced while streaming, not after materialising.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 48<<20 {
				t.Fatalf("%d MiB allocated for a log capped at 8 MiB", alloc>>20)
			}
		})
	}
}

// TestRawOverTheCap: a raw log bigger than the cap is refused, for reads
// and titles, naming the file.
func TestRawOverTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), RawName)
	os.WriteFile(path, fixture(t, "headless-compaction-recovery.jsonl"), 0o644)
	s, info := openPath(t, path)
	small, _ := OpenFile(path, WithMaxLogBytes(4096))
	ctx := context.Background()
	if _, err := small.ReadSurface(ctx, info.Header.ID); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path) {
		t.Fatalf("read: %v", err)
	}
	if ts, _ := small.ReadTitles(ctx, []string{info.Header.ID}); !errors.Is(ts[0].Err, ErrTooLarge) {
		t.Fatalf("titles: %+v", ts)
	}
	if _, err := s.ReadSurface(ctx, info.Header.ID); err != nil {
		t.Fatalf("under the default cap: %v", err)
	}
}

// TestZstdFrames: a header frame bigger than 64 KiB compressed is
// listed; a skippable frame between frames is corruption, as the format
// says.
func TestZstdFrames(t *testing.T) {
	data := fixture(t, "synthetic-zstd-compaction-recovery.jsonl.zstd")
	fr, err := nextFrame(data)
	if err != nil || !fr.complete {
		t.Fatal(err)
	}
	want := read(t, "synthetic-zstd-compaction-recovery.jsonl.zstd")

	// The header frame, then a skippable frame, then the rest.
	skip := binary.LittleEndian.AppendUint32([]byte{0x50, 0x2A, 0x4D, 0x18}, 5)
	skip = append(skip, "hello"...)
	withSkip := append(append(append([]byte(nil), data[:fr.n]...), skip...), data[fr.n:]...)
	path := filepath.Join(t.TempDir(), ZstdName)
	os.WriteFile(path, withSkip, 0o644)
	s, info := openPath(t, path)
	if _, err := s.ReadSurface(context.Background(), info.Header.ID); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "skippable") {
		t.Fatalf("with a skippable frame: %v", err)
	}
	if len(want.Events) == 0 {
		t.Fatal("the fixture reads no events")
	}

	// A header frame of incompressible bytes, well over 64 KiB.
	noise := make([]byte, 96<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = 'a' + byte(r.IntN(26))
	}
	header := `{"type":"session","version":0,"id":"big-header","createdAt":1,"delegationDepth":0,"agentPreset":"` + string(noise) + `"}` + "\n"
	first := oneShotFrame([]byte(header))
	if len(first) <= 64<<10 {
		t.Fatalf("the header frame is only %d bytes", len(first))
	}
	root := t.TempDir()
	path = filepath.Join(root, projectDir(nil), "big-header", ZstdName)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, append(first, oneShotFrame([]byte(`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`+"\n"))...), 0o644)
	s, _ = Open(root)
	if hs, err := s.ListSessions(context.Background()); err != nil || len(hs) != 1 || hs[0].ID != "big-header" {
		infos, _ := s.Sessions(context.Background())
		t.Fatalf("a header frame over 64 KiB: %+v %v %v", hs, err, infos[0].Err)
	}
}

// stopAfter is a context whose Err turns to Canceled after n calls: the
// work is stopped mid-way, wherever the decoder next looks.
type stopAfter struct {
	context.Context
	n atomic.Int64
}

func newStopAfter(n int) *stopAfter {
	c := &stopAfter{Context: context.Background()}
	c.n.Store(int64(n))
	return c
}

func (c *stopAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestCancellationReachesTheDecoder: a read or title scan whose context
// ends stops inside the decoding, returns the cancellation naming the
// file, and caches nothing.
func TestCancellationReachesTheDecoder(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	log.Write(oneShotFrame([]byte(bombHeader)))
	line := []byte(`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n")
	frame := rleFrame(' ', 4<<20, false)
	for range 8 {
		log.Write(frame)
	}
	path := filepath.Join(dir, ZstdName)
	os.WriteFile(path, log.Bytes(), 0o644)
	s, _ := OpenFile(path)
	for _, after := range []int{3, 10, 40} {
		ctx := newStopAfter(after)
		_, err := s.ReadSurface(ctx, "bomb")
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
			t.Fatalf("after %d checks: %v", after, err)
		}
		ctx = newStopAfter(after)
		if _, err := s.ReadTitles(ctx, []string{"bomb"}); !errors.Is(err, context.Canceled) {
			t.Fatalf("titles after %d checks: %v", after, err)
		}
	}
	if n, _ := s.logs.CacheStats(); n != 0 {
		t.Fatal("a cancelled read was cached")
	}
	// Raw logs too: a big log stopped part way.
	rawPath := filepath.Join(dir, RawName)
	var raw bytes.Buffer
	raw.WriteString(bombHeader)
	for i := range 8000 {
		raw.WriteString(strings.Replace(string(line), `"seq":0`, `"seq":`+strconv.Itoa(i), 1))
	}
	os.WriteFile(rawPath, raw.Bytes(), 0o644)
	rs, _ := OpenFile(rawPath)
	if _, err := rs.ReadSurface(newStopAfter(5), "bomb"); !errors.Is(err, context.Canceled) {
		t.Fatalf("raw: %v", err)
	}
	if _, err := rs.ReadSurface(context.Background(), "bomb"); err != nil {
		t.Fatalf("raw, not cancelled: %v", err)
	}
}

// TestBombsStopEarly: zstd bombs under the store's cap are refused after
// a bounded amount of work, while streaming: a record longer than
// maxRecordBytes (an error naming its line), an empty line inside a
// complete frame (corruption at that line, found before the frame is
// decoded), a bad record inside a complete frame, and (for the title
// scan, which reads past bad records) a log decoding to more than
// maxRatio times its size.
func TestBombsStopEarly(t *testing.T) {
	const n = 40 << 20 // past maxRecordBytes and ratioFloor, under the default cap
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	defer enc.Close()
	frame := func(prefix, fill, suffix string) []byte {
		var b bytes.Buffer
		w, _ := zstd.NewWriter(&b, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
		w.Write([]byte(prefix))
		chunk := []byte(strings.Repeat(fill, (1<<20)/len(fill)))
		for range n / len(chunk) {
			w.Write(chunk)
		}
		w.Write([]byte(suffix))
		w.Close()
		return b.Bytes()
	}
	head := enc.EncodeAll([]byte(bombHeader), nil)
	turn := `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}` + "\n"
	for _, tc := range []struct {
		name   string
		body   []byte
		want   error
		line   int
		detail string
		alloc  uint64
	}{
		// The read and the title scan each gather the line up to the
		// record cap (doubling its buffer: twice the cap allocated).
		{"a long title", frame(`{"type":"session/title","seq":0,"time":1,"data":{"title":"`, "A", `"}}`+"\n"), ErrTooLarge, 2, "record longer", 5 * maxRecordBytes},
		{"empty lines", frame("", "\n", ""), ErrCorrupt, 2, "empty line", 20 << 20}, // half of what is decoded: TotalAlloc also counts the runtime's and the race detector's own
		// Records that go wrong stop a read at once (a seq gap inside a
		// complete frame); the title scan, which reads past them, stops
		// at the ratio.
		{"short lines", frame("", turn, ""), ErrCorrupt, 3, "bad record inside a complete zstd frame", 3 * ratioFloor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ZstdName)
			os.WriteFile(path, append(bytes.Clone(head), tc.body...), 0o644)
			s, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = s.ReadSurface(context.Background(), "bomb")
			ts, terr := s.ReadTitles(context.Background(), []string{"bomb"})
			runtime.ReadMemStats(&after)
			var le *LogError
			if !errors.As(err, &le) || !errors.Is(err, tc.want) || le.Path != path || le.Line != tc.line || !strings.Contains(le.Detail, tc.detail) {
				t.Fatalf("read: %#v", err)
			}
			if terr != nil || (tc.want != ErrCorrupt || tc.line == 3) && (!errors.Is(ts[0].Err, ErrTooLarge) || tc.line == 3 && !strings.Contains(ts[0].Err.Error(), "times its size")) {
				t.Fatalf("titles: %+v %v", ts, terr)
			}
			// Bounded by the record cap (the bytes of a line are kept until
			// it ends) or the ratio floor (a frame's text is kept until it
			// ends), not by the 40 MiB decoded.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > tc.alloc {
				t.Fatalf("%d MiB allocated", alloc>>20)
			}
		})
	}
}

// TestRawRecordTooLarge: a raw log's line longer than maxRecordBytes is
// an ErrTooLarge error naming the file and line, not a record read.
func TestRawRecordTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), RawName)
	body := bombHeader + `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1,"x":"` + strings.Repeat("A", maxRecordBytes) + `"}}` + "\n"
	os.WriteFile(path, []byte(body), 0o644)
	s, _ := OpenFile(path)
	_, err := s.ReadSurface(context.Background(), "bomb")
	var le *LogError
	if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.Path != path || le.Line != 2 {
		t.Fatalf("%#v", err)
	}
}
