// Command genhostile writes the hostile session logs of the memory and
// cost table (scripts/bench-hostile) under DIR, each in a sessions root
// of its own:
//
//	DIR/zstd/     ZSTD logs of 950,000 small messages, one zstd frame each
//	              (about 232 MB decoded from a few MB)
//	DIR/raw/      one raw log of 1,000,000 messages (256 MB)
//	DIR/pending/  one log with 100,000 tool calls pending in an open turn
//	DIR/compact/  one log of 50,000 compactions
//	DIR/shape/S/raw/, DIR/shape/S/zstd/
//	              with -shape-bytes N: for each of hostile.Shapes, one log
//	              holding a record of that shape of about N bytes, raw
//	              and zstd (its id is the shape's name, -z for zstd)
//	DIR/shape/four/
//	              with -shape-bytes N: four zstd wide-array logs, to be
//	              indexed at once
//
//	DIR/storm/    with -storm: one raw log of 800,000 messages, then 400,000
//	              replaces of one message by one (250 MB)
//
//	go run ./dshlog/internal/genhostile -dir DIR [-zstd 4] [-big=false] [-shape-bytes N] [-storm]
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"path/filepath"

	"github.com/dshkit/mentions/dshlog/internal/benchlog"
	"github.com/dshkit/mentions/dshlog/internal/hostile"
)

func main() {
	dir := flag.String("dir", "", "output directory (required)")
	zstdLogs := flag.Int("zstd", 4, "zstd logs of 950,000 messages")
	big := flag.Bool("big", true, "write the logs of many messages (zstd, raw, pending, compact)")
	storm := flag.Bool("storm", false, "write the replace storm")
	shapeBytes := flag.Int("shape-bytes", 0, "write the record shapes, each of about this many bytes")
	flag.Parse()
	if *dir == "" {
		log.Fatal("genhostile: -dir is required")
	}
	write := func(sub, id, name string, fn func(io.Writer) error) {
		if err := benchlog.WriteFile(filepath.Join(*dir, sub, hostile.ProjectDir, id, name), fn); err != nil {
			log.Fatal(err)
		}
	}
	for _, shape := range hostile.Shapes {
		if *shapeBytes <= 0 {
			break
		}
		write(filepath.Join("shape", shape, "raw"), shape, "session.jsonl", func(w io.Writer) error { return hostile.Shaped(w, shape, shape, *shapeBytes) })
		write(filepath.Join("shape", shape, "zstd"), shape+"-z", "session.jsonl.zstd", func(w io.Writer) error {
			return hostile.ShapedZstd(w, shape+"-z", shape, *shapeBytes)
		})
	}
	for i := range 4 {
		if *shapeBytes <= 0 {
			break
		}
		id := fmt.Sprintf("wide-array-%d", i)
		write(filepath.Join("shape", "four"), id, "session.jsonl.zstd", func(w io.Writer) error {
			return hostile.ShapedZstd(w, id, "wide-array", *shapeBytes)
		})
	}
	if *storm {
		write("storm", "storm", "session.jsonl", func(w io.Writer) error { return hostile.ReplaceStorm(w, "storm", 800_000, 400_000, 208) })
	}
	if !*big {
		return
	}
	for i := range *zstdLogs {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		write("zstd", id, "session.jsonl.zstd", func(w io.Writer) error { return hostile.MessagesZstd(w, id, 950_000, 244, 0) })
	}
	write("raw", "raw", "session.jsonl", func(w io.Writer) error { return hostile.Messages(w, "raw", 1_000_000, 256) })
	write("pending", "pending", "session.jsonl", func(w io.Writer) error { return hostile.PendingCalls(w, "pending", 100_000) })
	write("compact", "compact", "session.jsonl", func(w io.Writer) error { return hostile.Compactions(w, "compact", 50_000) })
}
