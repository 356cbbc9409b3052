package dshlog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLog writes a raw log of about size bytes: turns of a user prompt
// and an assistant answer with their brackets.
func writeLog(tb testing.TB, path, id string, size int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, `{"type":"session","version":0,"id":%q,"createdAt":1700000000000,"cwd":"/home/dev/src/big","delegationDepth":0}`+"\n", id)
	text := strings.Repeat("lorem ipsum dolor sit amet ", 150)
	seq, written := 0, 0
	for turn := 1; written < size; turn++ {
		lines := []string{
			fmt.Sprintf(`{"type":"turn/start","seq":%d,"time":1,"data":{"turn":%d}}`, seq, turn),
			fmt.Sprintf(`{"type":"user/message","seq":%d,"time":1,"data":{"id":"u%d","role":"user","content":[{"type":"text","text":%q}],"source":{"kind":"user"}},"surfaceOp":"append"}`, seq+1, turn, text),
			fmt.Sprintf(`{"type":"assistant/message","seq":%d,"time":1,"data":{"turn":%d,"step":1,"message":{"id":"a%d","role":"assistant","content":[{"type":"text","text":%q}],"source":{"kind":"model","provider":"p"}}},"surfaceOp":"append"}`, seq+2, turn, turn, text),
			fmt.Sprintf(`{"type":"turn/end","seq":%d,"time":1,"data":{"turn":%d,"reason":{"kind":"completed"}}}`, seq+3, turn),
		}
		seq += 4
		for _, l := range lines {
			n, _ := f.WriteString(l + "\n")
			written += n
		}
	}
}

func BenchmarkReadSurface50MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), RawName)
	writeLog(b, path, "big", 50<<20)
	fi, _ := os.Stat(path)
	b.Run("cold", func(b *testing.B) {
		b.SetBytes(fi.Size())
		for b.Loop() {
			s, _ := OpenFile(path)
			if _, err := s.ReadSurface(context.Background(), "big"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		s, _ := OpenFile(path)
		s.ReadSurface(context.Background(), "big")
		b.ResetTimer()
		for b.Loop() {
			if _, err := s.ReadSurface(context.Background(), "big"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkList10k(b *testing.B) {
	root := b.TempDir()
	for i := range 10000 {
		dir := filepath.Join(root, fmt.Sprintf("--home-dev-p%d--", i%50), fmt.Sprintf("s%05d", i))
		os.MkdirAll(dir, 0o755)
		line := fmt.Sprintf(`{"type":"session","version":0,"id":"s%05d","createdAt":%d,"cwd":"/home/dev/p%d","delegationDepth":0}`+"\n", i, 1700000000000+i, i%50)
		os.WriteFile(filepath.Join(dir, RawName), []byte(line+`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`+"\n"), 0o644)
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			s, _ := Open(root)
			if hs, err := s.ListSessions(context.Background()); err != nil || len(hs) != 10000 {
				b.Fatal(len(hs), err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		s, _ := Open(root)
		s.ListSessions(context.Background())
		b.ResetTimer()
		for b.Loop() {
			if hs, err := s.ListSessions(context.Background()); err != nil || len(hs) != 10000 {
				b.Fatal(len(hs), err)
			}
		}
	})
	// read-one: one session's surface after a listing, as Prepare does; it
	// must not cost a scan of the whole root.
	b.Run("read-one", func(b *testing.B) {
		s, _ := Open(root)
		s.ListSessions(context.Background())
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			if _, err := s.ReadSurface(context.Background(), fmt.Sprintf("s%05d", i%10000)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
