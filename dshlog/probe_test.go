package dshlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// probeHeader is the header of the logs these probes write: session
// "p", cwd /p (so <root>/--p--/p/).
const probeHeader = `{"type":"session","version":0,"id":"p","createdAt":1,"cwd":"/p","delegationDepth":0}` + "\n"

// userLine is the record of a person's message of seq seq.
func userLine(seq int, text string) string {
	return fmt.Sprintf(`{"type":"user/message","seq":%d,"time":%d,"data":{"content":[{"type":"text","text":%q}],"source":{"kind":"user"}},"surfaceOp":"append"}`+"\n", seq, seq, text)
}

// userLines are the records of messages texts, from seq from on.
func userLines(from int, texts ...string) string {
	var b strings.Builder
	for i, text := range texts {
		b.WriteString(userLine(from+i, text))
	}
	return b.String()
}

// probePath is where the session "p" log of the given name goes under
// root.
func probePath(t testing.TB, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, "--p--", "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

func writeBytes(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// isLogError fails t unless err is a *LogError wrapping want.
func isLogError(t testing.TB, what string, err, want error) {
	t.Helper()
	var le *LogError
	if !errors.As(err, &le) || !errors.Is(err, want) {
		t.Fatalf("%s: %T %v, want a *LogError of %v", what, err, err, want)
	}
}

// Messages of a torn zstd frame are outlined from a fork of the index;
// when the writer undoes the torn write and writes another frame there
// before Text is called, Text fails: it never returns the new text for
// the message the outline saw.
func TestOutlineOfATornFrameRewritten(t *testing.T) {
	ctx := context.Background()
	path := probePath(t, t.TempDir(), ZstdName)
	head := oneShotFrame([]byte(probeHeader))
	old := oneShotFrame([]byte(userLines(0, "first", "abcd")))
	other := oneShotFrame([]byte(userLines(0, "first", "abce")))
	if len(old) != len(other) {
		t.Fatal("the two frames differ in length; pick other texts")
	}
	writeBytes(t, path, append(bytes.Clone(head), old[:len(old)-4]...)) // torn: only its checksum is missing
	s, _ := openPath(t, path)
	o, err := s.ReadOutline(ctx, "p")
	if err != nil || len(o.Messages) != 2 {
		t.Fatalf("outline of the torn frame: %+v %v", o, err)
	}
	writeBytes(t, path, append(bytes.Clone(head), other...))
	text, err := o.Text(ctx, 1)
	if err == nil {
		t.Fatalf("the rewritten torn frame's message was read as the outlined one: %q", text)
	}
	isLogError(t, "Text", err, ErrUnreadable)
	sf, err := s.ReadSurface(ctx, "p")
	if err != nil || len(sf.Events) != 2 || sf.Events[1].Content[0].Text != "abce" {
		t.Fatalf("a new read: %+v %v", sf, err)
	}
}

// A log cut short, or gone, between ReadOutline and Text: Text fails with
// a *LogError, raw or zstd.
func TestOutlineThenCut(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{RawName, ZstdName} {
		for _, how := range []string{"cut", "cut to the header", "removed", "replaced"} {
			t.Run(name+" "+how, func(t *testing.T) {
				path := probePath(t, t.TempDir(), name)
				data := []byte(probeHeader + userLines(0, "one", "two", "three"))
				if name == ZstdName {
					data = append(oneShotFrame([]byte(probeHeader)), oneShotFrame([]byte(userLines(0, "one", "two", "three")))...)
				}
				writeBytes(t, path, data)
				s, _ := openPath(t, path)
				o, err := s.ReadOutline(ctx, "p")
				if err != nil || len(o.Messages) != 3 {
					t.Fatalf("%+v %v", o, err)
				}
				switch how {
				case "cut":
					err = os.Truncate(path, int64(len(data)-5))
				case "cut to the header":
					err = os.Truncate(path, int64(len(probeHeader)))
				case "removed":
					err = os.Remove(path)
				case "replaced":
					tmp := path + ".tmp"
					writeBytes(t, tmp, data)
					err = os.Rename(tmp, path)
				}
				if err != nil {
					t.Fatal(err)
				}
				for i := range 3 {
					text, err := o.Text(ctx, i)
					var le *LogError
					if err == nil || !errors.As(err, &le) {
						t.Fatalf("message %d: %q %T %v", i, text, err, err)
					}
				}
			})
		}
	}
}

// OpenFile's path may be a link; re-pointed between ReadOutline and Text,
// Text still reads the file the outline was read from (or fails), and a
// new read follows the link to the new file.
func TestOpenFileLinkRepointed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	writeBytes(t, a, []byte(probeHeader+userLines(0, "from a")))
	writeBytes(t, b, []byte(probeHeader+userLines(0, "from b")))
	link := filepath.Join(dir, RawName)
	if err := os.Symlink(a, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	s, _ := openPath(t, link)
	o, err := s.ReadOutline(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	repoint := func(to string) {
		t.Helper()
		tmp := link + ".new"
		if err := os.Symlink(to, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, link); err != nil {
			t.Fatal(err)
		}
	}
	repoint(b)
	if text, err := o.Text(ctx, 0); err == nil && text != "from a" {
		t.Fatalf("the outline of a read b's text: %q", text)
	}
	sf, err := s.ReadSurface(ctx, "p")
	if err != nil || sf.Events[0].Content[0].Text != "from b" {
		t.Fatalf("a read after the link moved: %+v %v", sf, err)
	}
	// Pointed at a FIFO-like non-file (a directory) and at nothing.
	repoint(dir)
	if _, err := s.ReadSurface(ctx, "p"); err == nil {
		t.Fatal("a link to a directory was read")
	} else {
		isLogError(t, "a link to a directory", err, ErrNotRegular)
	}
	repoint(filepath.Join(dir, "gone"))
	_, err = s.ReadSurface(ctx, "p")
	isLogError(t, "a dangling link", err, ErrNotFound)
}

// skippable is a zstd skippable frame holding b.
func skippable(b string) []byte {
	return append(binary.LittleEndian.AppendUint32([]byte{0x50, 0x2A, 0x4D, 0x18}, uint32(len(b))), b...)
}

// Hostile zstd logs: each is read, or refused with the *LogError its
// defect calls for; none panics or hangs.
func TestZstdHostileFrames(t *testing.T) {
	ctx := context.Background()
	head := oneShotFrame([]byte(probeHeader))
	body := oneShotFrame([]byte(userLines(0, "one", "two")))
	huge := append(bytes.Clone(zstdMagic), 0xC0, 0x38) // an 8-byte content size, then blocks
	huge = binary.LittleEndian.AppendUint64(huge, 1<<40)
	huge = append(huge, 0x01, 0x00, 0x00) // an empty last raw block
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, c := range []struct {
		name string
		data []byte
		want error // nil: read, with msgs messages
		msgs int
	}{
		{"whole", cat(head, body), nil, 2},
		{"garbage between frames", cat(head, []byte("garbage!"), body), ErrCorrupt, 0},
		{"garbage at the end", cat(head, body, []byte{0x28, 0xB5, 0x2F, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), ErrCorrupt, 0},
		{"a skippable frame between frames", cat(head, skippable("xyz"), body), nil, 2},
		{"a frame declaring 1 TiB", cat(head, huge, body), ErrTooLarge, 0},
		{"a torn frame declaring 1 TiB", cat(head, body, huge[:len(huge)-1]), ErrTooLarge, 0},
		{"text without a last newline", cat(head, oneShotFrame([]byte(strings.TrimSuffix(userLines(0, "one"), "\n")))), ErrCorrupt, 0},
		{"a frame of empty lines", cat(head, oneShotFrame([]byte("\n\n\n"))), ErrCorrupt, 0},
		{"an empty frame", cat(head, oneShotFrame(nil), body), nil, 2},
		{"the last frame torn in its block", cat(head, body, oneShotFrame([]byte(userLines(2, "three")))[:20]), nil, 2},
		{"the last frame missing its checksum", cat(head, body, oneShotFrame([]byte(userLines(2, "three")))[:len(oneShotFrame([]byte(userLines(2, "three"))))-4]), nil, 3},
		{"the last frame torn in its header", cat(head, body, zstdMagic[:3]), nil, 2},
		{"a bad checksum", cat(head, body[:len(body)-1], []byte{body[len(body)-1] ^ 1}), ErrCorrupt, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := probePath(t, t.TempDir(), ZstdName)
			writeBytes(t, path, c.data)
			s, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sf, err := s.ReadSurface(ctx, "p")
			if c.want != nil {
				isLogError(t, "read", err, c.want)
				ts, err := s.ReadTitles(ctx, []string{"p"})
				if err != nil || ts[0].Err == nil && ts[0].Title != nil {
					t.Fatalf("titles: %+v %v", ts, err)
				}
				return
			}
			if err != nil || len(sf.Events) != c.msgs {
				t.Fatalf("%d events, %v", len(sf.Events), err)
			}
			o, err := s.ReadOutline(ctx, "p")
			if err != nil || len(o.Messages) != c.msgs {
				t.Fatalf("outline: %+v %v", o, err)
			}
			for i := range o.Messages {
				if text, err := o.Text(ctx, i); err != nil || text != sf.Events[i].Content[0].Text {
					t.Fatalf("text %d: %q %v", i, text, err)
				}
			}
		})
	}
}

// A zstd log whose first frame is torn, empty, skippable or not zstd is
// listed with a header error, and reading it by id gives that error.
func TestZstdFirstFrameHostile(t *testing.T) {
	ctx := context.Background()
	head := oneShotFrame([]byte(probeHeader))
	for name, data := range map[string][]byte{
		"torn":             head[:len(head)/2],
		"torn in its head": head[:3],
		"empty":            oneShotFrame(nil),
		"skippable":        append(skippable("x"), head...),
		"raw text":         []byte(probeHeader),
		"no lines":         {},
	} {
		t.Run(name, func(t *testing.T) {
			path := probePath(t, t.TempDir(), ZstdName)
			writeBytes(t, path, data)
			s, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			infos, err := s.Sessions(ctx)
			if err != nil || len(infos) != 1 {
				t.Fatalf("%+v %v", infos, err)
			}
			isLogError(t, "listing", infos[0].Err, ErrHeader)
			_, err = s.ReadSurface(ctx, "p")
			isLogError(t, "read", err, ErrHeader)
		})
	}
}
