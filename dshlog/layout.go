package dshlog

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// The layout's directory names, as the writer makes them from a header:
// <root>/<projectDir(cwd)>/<sessionDir(id)>/session.jsonl[.zstd].

// noCwdDir is the project directory of sessions without a cwd.
const noCwdDir = "_no-cwd"

// maxSlug is how long a cwd slug may be (the directory name adds 4).
const maxSlug = 251

func keptInName(u uint16) bool {
	return u < 0x80 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9' || u == '.' || u == '_' || u == '-')
}

// escapeUnit writes one UTF-16 unit as ~XXXX (uppercase hex).
func escapeUnit(b *strings.Builder, u uint16) { fmt.Fprintf(b, "~%04X", u) }

// projectDir is the directory of a cwd: per UTF-16 unit, a run of '/',
// '\' or ':' becomes one '-', [A-Za-z0-9._-] is kept and anything else is
// ~XXXX; leading '-' are stripped, an empty slug is "root", the slug is
// cut to 251 characters, and the name is --<slug>--.
func projectDir(cwd *string) string {
	if cwd == nil {
		return noCwdDir
	}
	var b strings.Builder
	sep := false
	for _, u := range utf16.Encode([]rune(*cwd)) {
		if u == '/' || u == '\\' || u == ':' {
			if !sep {
				b.WriteByte('-')
			}
			sep = true
			continue
		}
		sep = false
		if keptInName(u) {
			b.WriteByte(byte(u))
		} else {
			escapeUnit(&b, u)
		}
	}
	slug := strings.TrimLeft(b.String(), "-")
	if slug == "" {
		slug = "root"
	}
	if len(slug) > maxSlug {
		slug = slug[:maxSlug]
	}
	return "--" + slug + "--"
}

// sessionDir is the directory of a session id: escaped as a cwd is, but
// with no separator collapsing, and "." and ".." escaped whole.
func sessionDir(id string) string {
	switch id {
	case ".":
		return "~002E"
	case "..":
		return "~002E~002E"
	}
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(id)) {
		if keptInName(u) {
			b.WriteByte(byte(u))
		} else {
			escapeUnit(&b, u)
		}
	}
	return b.String()
}
