// Command genlogs writes the logs of dshlog's benchmark table into a
// directory: a sessions root of COUNT raw logs of SIZE bytes, the same
// history zstd-compressed in a second root, and one big raw log.
//
//	go run ./dshlog/internal/genlogs -dir DIR [-count 100] [-size 2621440] [-big 52428800]
//
// It writes DIR/raw/<project>/<id>/session.jsonl,
// DIR/zstd/<project>/<id>/session.jsonl.zstd and DIR/big/session.jsonl.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"path/filepath"

	"github.com/dshkit/mentions/dshlog/internal/benchlog"
)

func main() {
	dir := flag.String("dir", "", "output directory (required)")
	count := flag.Int("count", 100, "logs in each history")
	size := flag.Int("size", 5<<19, "bytes of each history log")
	big := flag.Int("big", 50<<20, "bytes of the big log")
	flag.Parse()
	if *dir == "" {
		log.Fatal("genlogs: -dir is required")
	}
	write := func(path string, fn func(io.Writer) error) {
		if err := benchlog.WriteFile(path, fn); err != nil {
			log.Fatal(err)
		}
	}
	for i := range *count {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		project := "--home-dev-src-big--"
		write(filepath.Join(*dir, "raw", project, id, "session.jsonl"), func(w io.Writer) error { return benchlog.WriteRaw(w, id, *size) })
		write(filepath.Join(*dir, "zstd", project, id, "session.jsonl.zstd"), func(w io.Writer) error { return benchlog.WriteZstd(w, id, *size) })
	}
	write(filepath.Join(*dir, "big", "session.jsonl"), func(w io.Writer) error { return benchlog.WriteRaw(w, "big", *big) })
}
