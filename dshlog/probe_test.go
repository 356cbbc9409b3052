package dshlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dshkit/mentions/sessionref"
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
		{"a skippable frame between frames", cat(head, skippable("xyz"), body), ErrCorrupt, 0}, // the format has none
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

// Many readers (listing, titles, surfaces, outlines and their texts,
// walks, captured seqs, versions) over two sessions, one raw and one
// zstd, while a writer appends to both a half line or a half frame at a
// time, under a cache too small for both: every read succeeds and sees
// a prefix of what was written, in order, and a later read never sees
// less. Run it with -race.
func TestConcurrentReadsWhileAppending(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	const batches = 120
	rawPath := filepath.Join(root, "--p--", "p", RawName)
	zPath := filepath.Join(root, "--p--", "q", ZstdName)
	for _, p := range []string{rawPath, zPath} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	qHeader := strings.Replace(probeHeader, `"id":"p"`, `"id":"q"`, 1)
	writeBytes(t, rawPath, []byte(probeHeader))
	writeBytes(t, zPath, oneShotFrame([]byte(qHeader)))
	// Each batch: a message (and every tenth a title); in zstd, a frame.
	batch := func(i int) string {
		b := userLine(2*i, fmt.Sprintf("m%d", i))
		if i%10 == 0 {
			b += fmt.Sprintf(`{"type":"session/title","seq":%d,"time":1,"data":{"title":"t%d","messageSeqs":[],"source":"auto"}}`+"\n", 2*i+1, i)
		} else {
			b += userLine(2*i+1, fmt.Sprintf("n%d", i))
		}
		return b
	}
	s, err := Open(root, WithCacheBytes(4<<10))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	errs := make(chan error, 64)
	go func() {
		defer close(done)
		rf, _ := os.OpenFile(rawPath, os.O_WRONLY|os.O_APPEND, 0)
		zf, _ := os.OpenFile(zPath, os.O_WRONLY|os.O_APPEND, 0)
		defer rf.Close()
		defer zf.Close()
		for i := range batches {
			raw := batch(i)
			z := oneShotFrame([]byte(raw))
			rf.WriteString(raw[:len(raw)/2])
			zf.Write(z[:len(z)/2])
			rf.WriteString(raw[len(raw)/2:])
			zf.Write(z[len(z)/2:])
		}
	}()
	// prefix checks that texts are m0, n0|title, m1, ... as written.
	prefix := func(what string, texts []string) error {
		want := 0
		for _, tx := range texts {
			switch {
			case tx == fmt.Sprintf("m%d", want):
			case tx == fmt.Sprintf("n%d", want):
				want++
			default:
				return fmt.Errorf("%s: %q where m%d or n%d belongs (%q)", what, tx, want, want, texts)
			}
			if strings.HasPrefix(tx, "m") && want%10 == 0 {
				want++ // its batch's second record is a title
			}
		}
		return nil
	}
	reader := func(g int) error {
		seen := map[string]int{}
		lastSeq := map[string]int64{}
		for n := 0; ; n++ {
			select {
			case <-done:
				if n > 3 {
					return nil
				}
			default:
			}
			for _, id := range []string{"p", "q"} {
				var texts []string
				var err error
				switch (g + n) % 5 {
				case 0:
					var sf sessionref.Surface
					sf, err = s.ReadSurface(ctx, id)
					for _, e := range sf.Events {
						texts = append(texts, e.Content[0].Text)
					}
				case 1:
					var o sessionref.Outline
					o, err = s.ReadOutline(ctx, id)
					for i := range o.Messages {
						tx, terr := o.Text(ctx, i)
						var le *LogError
						if errors.Is(terr, errChanged) && errors.As(terr, &le) {
							// An append's write(2) can show the file's new
							// mtime before its new size: the same size,
							// changed, is a rewrite to Text, which fails
							// rather than risk another version's bytes.
							texts = nil
							break
						}
						if terr != nil {
							err = terr
							break
						}
						texts = append(texts, tx)
					}
				case 2:
					_, err = s.WalkSurface(ctx, id, func(e *sessionref.Event) bool {
						texts = append(texts, e.Content[0].Text)
						return true
					})
				case 3:
					var ts []sessionref.TitleResult
					ts, err = s.ReadTitles(ctx, []string{id})
					if err == nil && ts[0].Err != nil {
						err = ts[0].Err
					}
					if _, _, lerr := s.ListSessionsWithTitles(ctx); lerr != nil {
						err = lerr
					}
				case 4:
					var seqs []*int64
					seqs, err = s.CapturedSeqs(ctx, []string{id})
					if err == nil && seqs[0] != nil {
						if *seqs[0] < lastSeq[id] {
							return fmt.Errorf("%s: captured seq went back from %d to %d", id, lastSeq[id], *seqs[0])
						}
						lastSeq[id] = *seqs[0]
					}
					if _, verr := s.SessionVersions(ctx, []string{id}); verr != nil {
						err = verr
					}
				}
				if err != nil {
					return fmt.Errorf("reader %d, %s: %w", g, id, err)
				}
				if err := prefix(id, texts); err != nil {
					return err
				}
				if texts != nil {
					if len(texts) < seen[id] {
						return fmt.Errorf("%s: a later surface has %d messages, fewer than %d", id, len(texts), seen[id])
					}
					seen[id] = max(seen[id], len(texts))
				}
			}
		}
	}
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			if err := reader(g); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, id := range []string{"p", "q"} {
		sf, err := s.ReadSurface(ctx, id)
		if err != nil || len(sf.Events) != 2*batches-batches/10 {
			t.Fatalf("%s at the end: %d events, %v", id, len(sf.Events), err)
		}
	}
}

// Every query stopped at every point where it looks at its context
// returns a *LogError of the cancellation, and leaves the store as if it
// had not run: the same queries then give what a fresh store gives.
func TestCancelAtEveryStage(t *testing.T) {
	root := t.TempDir()
	var raw, zs strings.Builder
	for i := range 8 {
		raw.WriteString(userLine(i, fmt.Sprintf("p%d", i)))
	}
	writeBytes(t, probePath(t, root, RawName), []byte(probeHeader+raw.String()+
		`{"type":"session/title","seq":8,"time":1,"data":{"title":"tp","messageSeqs":[],"source":"auto"}}`+"\n"))
	qDir := filepath.Join(root, "--p--", "q")
	os.MkdirAll(qDir, 0o755)
	z := oneShotFrame([]byte(strings.Replace(probeHeader, `"id":"p"`, `"id":"q"`, 1)))
	for i := range 8 {
		zs.Reset()
		zs.WriteString(userLine(i, fmt.Sprintf("q%d", i)))
		z = append(z, oneShotFrame([]byte(zs.String()))...)
	}
	writeBytes(t, filepath.Join(qDir, ZstdName), z)
	ids := []string{"p", "q"}
	ops := map[string]func(ctx context.Context, s *Store) (any, error){
		"ListSessions": func(ctx context.Context, s *Store) (any, error) { return s.ListSessions(ctx) },
		"ListSessionsWithTitles": func(ctx context.Context, s *Store) (any, error) {
			h, ts, err := s.ListSessionsWithTitles(ctx)
			return render(h, ts), err
		},
		"ReadTitles": func(ctx context.Context, s *Store) (any, error) {
			ts, err := s.ReadTitles(ctx, ids)
			for _, r := range ts {
				if err == nil && r.Err != nil {
					err = r.Err
				}
			}
			return render(ts), err
		},
		"ReadSurface": func(ctx context.Context, s *Store) (any, error) {
			var out []any
			for _, id := range ids {
				sf, err := s.ReadSurface(ctx, id)
				if err != nil {
					return nil, err
				}
				out = append(out, sf)
			}
			return render(out), nil
		},
		"WalkSurface": func(ctx context.Context, s *Store) (any, error) {
			var texts []string
			for _, id := range ids {
				if _, err := s.WalkSurface(ctx, id, func(e *sessionref.Event) bool {
					texts = append(texts, e.Content[0].Text)
					return true
				}); err != nil {
					return nil, err
				}
			}
			return render(texts), nil
		},
		"ReadOutline": func(ctx context.Context, s *Store) (any, error) {
			var texts []string
			for _, id := range ids {
				o, err := s.ReadOutline(ctx, id)
				if err != nil {
					return nil, err
				}
				for i := range o.Messages {
					tx, err := o.Text(ctx, i)
					if err != nil {
						return nil, err
					}
					texts = append(texts, tx)
				}
			}
			return render(texts), nil
		},
		"CapturedSeqs": func(ctx context.Context, s *Store) (any, error) {
			seqs, err := s.CapturedSeqs(ctx, ids)
			var out []int64
			for _, p := range seqs {
				if p == nil {
					return nil, errors.New("no captured seq")
				}
				out = append(out, *p)
			}
			return render(out), err
		},
		"Open": func(ctx context.Context, s *Store) (any, error) { return s.Open(ctx, "q") },
	}
	want := map[string]any{}
	for name, op := range ops {
		s, _ := Open(root)
		got, err := op(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want[name] = got
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			for n := 0; ; n++ {
				s, _ := Open(root)
				_, err := op(newStopAfter(n), s)
				if err == nil {
					break
				}
				if n > 100000 {
					t.Fatal("never done")
				}
				var le *LogError
				if !errors.As(err, &le) || !errors.Is(err, context.Canceled) || strings.Count(err.Error(), root) != 1 {
					t.Fatalf("stopped after %d looks: %T %v", n, err, err)
				}
				for other, op := range ops {
					if got, err := op(context.Background(), s); err != nil || render(got) != render(want[other]) {
						t.Fatalf("stopped after %d looks, then %s: %v %v, want %v", n, other, got, err, want[other])
					}
				}
			}
		})
	}
}

// render is v as JSON: pointers followed, for comparing results.
func render(vs ...any) string {
	b, err := json.Marshal(vs)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// Listing odd files reads at most what a header needs and reports each
// with a *LogError of a bad header; none is listed, none panics.
func TestHeadOfOddFiles(t *testing.T) {
	ctx := context.Background()
	big := `{"type":"session","version":0,"id":"p","createdAt":1,"cwd":"/p","delegationDepth":0,"x":"` + strings.Repeat("x", 2<<20) + "\"}\n"
	for name, data := range map[string]string{
		"empty":                "",
		"a newline":            "\n",
		"NUL bytes":            "\x00\x00\x00\x00\n",
		"a byte order mark":    "\ufeff" + probeHeader,
		"no newline yet":       strings.TrimSuffix(probeHeader, "\n"),
		"a 2 MiB header":       big,
		"an array":             "[1,2,3]\n",
		"a record first":       userLine(0, "x"),
		"the header of a zstd": string(oneShotFrame([]byte(probeHeader))),
	} {
		for _, enc := range []string{RawName, ZstdName} {
			t.Run(name+" "+enc, func(t *testing.T) {
				root := t.TempDir()
				raw := []byte(data)
				if enc == ZstdName {
					raw = oneShotFrame(raw)
				}
				writeBytes(t, probePath(t, root, enc), raw)
				s, err := Open(root)
				if err != nil {
					t.Fatal(err)
				}
				infos, err := s.Sessions(ctx)
				if err != nil || len(infos) != 1 {
					t.Fatalf("%+v %v", infos, err)
				}
				isLogError(t, "listing", infos[0].Err, ErrHeader)
				if hs, err := s.ListSessions(ctx); err != nil || len(hs) != 0 {
					t.Fatalf("listed: %+v %v", hs, err)
				}
				_, err = s.ReadSurface(ctx, "p")
				var le *LogError
				if !errors.As(err, &le) {
					t.Fatalf("read: %T %v", err, err)
				}
			})
		}
	}
}

// A listed log replaced in place by another session's log is not read
// as the session asked for: the read looks the session up again, and it
// is not found (its directory now holds a log that does not belong
// there).
func TestLogReplacedByAnotherSession(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	path := probePath(t, root, RawName)
	writeBytes(t, path, []byte(probeHeader+userLines(0, "p's")+
		`{"type":"session/title","seq":1,"time":1,"data":{"title":"tp","messageSeqs":[],"source":"auto"}}`+"\n"))
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ListSessions(ctx); err != nil {
		t.Fatal(err)
	}
	if ts, err := s.ReadTitles(ctx, []string{"p"}); err != nil || ts[0].Title == nil {
		t.Fatalf("the title of p: %+v %v", ts, err)
	}
	other := strings.Replace(probeHeader, `"id":"p"`, `"id":"r"`, 1) + userLines(0, "r's") +
		`{"type":"session/title","seq":1,"time":1,"data":{"title":"tr","messageSeqs":[],"source":"auto"}}` + "\n"
	writeBytes(t, path, []byte(other))
	sf, err := s.ReadSurface(ctx, "p")
	if err == nil {
		t.Fatalf("session p read as %q: %+v", sf.Session.ID, sf)
	}
	var le *LogError
	if !errors.As(err, &le) || !(errors.Is(err, ErrNotFound) || errors.Is(err, ErrHeader)) {
		t.Fatalf("%T %v", err, err)
	}
	if o, err := s.ReadOutline(ctx, "p"); err == nil {
		t.Fatalf("outline of p read from r's log: %+v", o)
	}
	if seqs, err := s.CapturedSeqs(ctx, []string{"p"}); err != nil || seqs[0] != nil {
		t.Fatalf("captured seqs of p from r's log: %v %v", seqs, err)
	}
	if ts, err := s.ReadTitles(ctx, []string{"p"}); err != nil || ts[0].Title != nil || !errors.Is(ts[0].Err, ErrNotFound) {
		t.Fatalf("the title of p from r's log: %+v %v", ts, err)
	}
}

// Decoding a frame costs what the frame holds, not a fresh 64 KiB buffer:
// a log of a million empty frames (9 bytes each) took 22 s to read. The
// bound leaves room for the race detector's pool, which drops a quarter
// of what is put back (a decoder made again).
func TestSmallFramesCostLittle(t *testing.T) {
	empty := append(bytes.Clone(zstdMagic), 0x20, 0x00, 0x01, 0x00, 0x00) // no content, one empty raw block
	z := zstdFrames{1 << 30}
	const frames = 1000
	var errs int
	got := allocated(func() {
		for range frames {
			if err := z.Decode(context.Background(), empty, 1<<20, func([]byte) error { return nil }); err != nil {
				errs++
			}
		}
	})
	if errs > 0 || got > frames*32<<10 {
		t.Fatalf("%d empty frames allocated %d bytes (%d errors)", frames, got, errs)
	}
}
