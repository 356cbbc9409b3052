//go:build ignore

// gen_extpict writes extpict.go: the Extended_Pictographic ranges of the
// grapheme properties github.com/rivo/uniseg ships (the version this
// module requires), merged where they touch. Run it with go generate.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", "github.com/rivo/uniseg").Output()
	if err != nil {
		log.Fatalf("finding uniseg: %v", err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	src, err := os.ReadFile(filepath.Join(dir, "graphemeproperties.go"))
	if err != nil {
		log.Fatal(err)
	}
	unicodeVersion := regexp.MustCompile(`Public/(\d+\.\d+)\.\d+/ucd/emoji/emoji-data\.txt`).FindSubmatch(src)
	line := regexp.MustCompile(`\{0x([0-9A-F]+), 0x([0-9A-F]+), prExtendedPictographic\}`)
	type rng struct{ lo, hi uint64 }
	var rs []rng
	for _, m := range line.FindAllSubmatch(src, -1) {
		lo, _ := strconv.ParseUint(string(m[1]), 16, 32)
		hi, _ := strconv.ParseUint(string(m[2]), 16, 32)
		if n := len(rs); n > 0 && rs[n-1].hi+1 >= lo {
			rs[n-1].hi = max(rs[n-1].hi, hi)
			continue
		}
		rs = append(rs, rng{lo, hi})
	}
	if len(rs) == 0 {
		log.Fatal("no Extended_Pictographic ranges found")
	}
	uv := "?"
	if unicodeVersion != nil {
		uv = string(unicodeVersion[1])
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated from the Extended_Pictographic ranges of Unicode %s\n", uv)
	fmt.Fprintf(&b, "// emoji-data.txt (as github.com/rivo/uniseg %s ships them); DO NOT EDIT.\n\n", version)
	b.WriteString("package plain\n\nimport \"unicode\"\n\n")
	b.WriteString("// ExtendedPictographic is the Unicode property Extended_Pictographic: the\n// characters an emoji ZWJ sequence joins.\n")
	b.WriteString("var ExtendedPictographic = &unicode.RangeTable{\n\tR16: []unicode.Range16{\n")
	latin := 0
	for _, r := range rs {
		if r.hi <= 0xFFFF {
			fmt.Fprintf(&b, "\t\t{Lo: 0x%04X, Hi: 0x%04X, Stride: 1},\n", r.lo, r.hi)
			if r.hi <= 0xFF {
				latin++
			}
		}
	}
	b.WriteString("\t},\n\tR32: []unicode.Range32{\n")
	for _, r := range rs {
		if r.lo > 0xFFFF {
			fmt.Fprintf(&b, "\t\t{Lo: 0x%X, Hi: 0x%X, Stride: 1},\n", r.lo, r.hi)
		} else if r.hi > 0xFFFF {
			log.Fatalf("a range across U+FFFF: %X-%X", r.lo, r.hi)
		}
	}
	fmt.Fprintf(&b, "\t},\n\tLatinOffset: %d,\n}\n", latin)
	code, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("extpict.go", code, 0o644); err != nil {
		log.Fatal(err)
	}
}
