package sessionref

import (
	"strings"
	"unicode/utf8"
)

// This file reproduces JavaScript's JSON.stringify for strings, byte for
// byte. encoding/json differs (it escapes <, >, &, U+2028 and U+2029, and
// rewrites invalid UTF-8), and the reference's URIs and snapshot bytes
// depend on the JS form.

const hexDigits = "0123456789abcdef"

// escapeCost[b] is how many bytes byte b takes inside a JS JSON string.
// Bytes of multi-byte sequences cost 1 each, so the cost of a valid UTF-8
// string is the sum over its bytes. tagSafeCost also counts '<' as \u003c.
var escapeCost, tagSafeCost = func() (plain, safe [256]uint8) {
	for b := 0; b < 256; b++ {
		switch {
		case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
			plain[b] = 2
		case b < 0x20:
			plain[b] = 6
		default:
			plain[b] = 1
		}
		safe[b] = plain[b]
	}
	safe['<'] = 6
	return plain, safe
}()

// appendJSString appends s as a JS JSON string literal, quotes included.
// With tagSafe, '<' is written as \u003c so the result can sit between
// literal tags. s must be valid UTF-8.
func appendJSString(dst []byte, s string, tagSafe bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && (c != '<' || !tagSafe) {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default: // control characters and '<'
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// tagSafeLen is len(appendJSString(nil, s, true)) without building it.
func tagSafeLen(s string) int {
	n := 2
	for i := 0; i < len(s); i++ {
		n += int(tagSafeCost[s[i]])
	}
	return n
}

// quote renders s as a JS string literal for error messages; invalid
// UTF-8 is shown as U+FFFD so the message itself stays valid.
func quote(s string) string {
	return string(appendJSString(nil, strings.ToValidUTF8(s, "\uFFFD"), false))
}

// decodeJSString parses b as a JSON string literal in exactly the form
// appendJSString(_, _, false) produces, and nothing else: no whitespace, no
// needless or uppercase escapes, no surrogate escapes, valid UTF-8 only.
// Accepting only the canonical form is what makes DecodeURI's
// "re-encoding must match" rule hold without re-encoding.
func decodeJSString(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	b = b[1 : len(b)-1]
	if !utf8.Valid(b) {
		return "", false
	}
	var sb []byte
	start := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '"' || c < 0x20 {
			return "", false
		}
		if c != '\\' {
			continue
		}
		if sb == nil {
			sb = make([]byte, 0, len(b))
		}
		sb = append(sb, b[start:i]...)
		r, n, ok := unescapeAt(b, i)
		if !ok {
			return "", false
		}
		sb = append(sb, r)
		i += n - 1
		start = i + 1
	}
	if sb == nil {
		return string(b), true
	}
	return string(append(sb, b[start:]...)), true
}

// unescapeAt decodes the escape at b[i] (a backslash) in the canonical
// form: a short escape, or \u00xx for a control character that has no
// short one. It returns the byte and the escape's length.
func unescapeAt(b []byte, i int) (r byte, n int, ok bool) {
	if i+1 >= len(b) {
		return 0, 0, false
	}
	switch b[i+1] {
	case '"':
		return '"', 2, true
	case '\\':
		return '\\', 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		if i+5 >= len(b) || b[i+2] != '0' || b[i+3] != '0' {
			return 0, 0, false
		}
		hi, lo := unhex(b[i+4]), unhex(b[i+5])
		if hi < 0 || hi > 1 || lo < 0 {
			return 0, 0, false
		}
		r = byte(hi<<4 | lo)
		return r, 6, escapeCost[r] == 6
	}
	return 0, 0, false
}

// unhex decodes one lowercase hex digit, or returns -1.
func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}
