package dshlog

import (
	"bytes"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/valyala/fastjson/fastfloat"
)

// A record is read without building a parse tree: scanJSON checks its
// text once, allocating nothing, and counts its values and depth; the
// parts a reader wants are then found in the checked text (jv) and only
// what is kept is copied out of it. A tree costs about 450 bytes a
// value, 250 times a record of tiny values; what this costs is what the
// reader keeps.
//
// What is JSON here is what the fastjson parser this package used
// before accepts, so a line reads (or fails to) as it always did: white
// space is space, tab, CR and LF; a string runs to the first quote not
// escaped by an odd run of backslashes (escapes are decoded best effort,
// a bad one kept as written); a number is a run of digits, '.', '-', '+',
// 'e' and 'E', or inf or nan; values nest at most jsonMaxDepth deep.

// jsonMaxDepth is the nesting past which a line is not JSON.
const jsonMaxDepth = 300

// The caps on a record whose data is read (a message: what the fold and
// the surface keep). A record over one is an ErrTooLarge error naming
// the session and the seq, like a line over maxRecordBytes. A record
// that is skipped (an ignorable or log-only event, whose data is not
// read) costs a scan whatever its shape, and has no cap but the line's.
const (
	// maxValues bounds the JSON values of a message record.
	maxValues = 1 << 17
	// maxDepth bounds how deep a message record's values nest.
	maxDepth = 64
	// maxChunks bounds the entries of a packed chunk row.
	maxChunks = 1 << 16
)

// jv is one JSON value of checked text, without the white space around
// it; nil is no value.
type jv []byte

var errNotJSON = errors.New("not JSON")

func isWS(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

// scanner checks JSON text, counting its values and its depth, and
// notes the members of the top value when it is an object (at most
// len(top); more set many).
type scanner struct {
	values int
	depth  int // of the deepest value; the top is 1
	top    [12]member
	ntop   int
	many   bool
}

// member is one member of an object: its key as written, its value.
type member struct {
	key []byte
	val jv
}

// scanJSON checks that b is one JSON value with white space around it
// and returns that value.
func (s *scanner) scanJSON(b []byte) (jv, error) {
	i := skipWS(b, 0)
	end, err := s.value(b, i, 0)
	if err != nil {
		return nil, err
	}
	if skipWS(b, end) != len(b) {
		return nil, errNotJSON
	}
	return jv(b[i:end]), nil
}

// value checks the value at b[i:] and returns the offset after it.
func (s *scanner) value(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, errNotJSON
	}
	depth++
	if depth > jsonMaxDepth {
		return i, errNotJSON
	}
	s.values++
	s.depth = max(s.depth, depth)
	switch b[i] {
	case '{':
		return s.object(b, i+1, depth)
	case '[':
		return s.array(b, i+1, depth)
	case '"':
		return stringEnd(b, i+1)
	case 't':
		return literal(b, i, "true")
	case 'f':
		return literal(b, i, "false")
	case 'n':
		if bytes.HasPrefix(b[i:], []byte("null")) {
			return i + 4, nil
		}
		if len(b)-i >= 3 && bytes.EqualFold(b[i:i+3], []byte("nan")) {
			return i + 3, nil
		}
		return i, errNotJSON
	}
	return numberEnd(b, i)
}

func literal(b []byte, i int, word string) (int, error) {
	if !bytes.HasPrefix(b[i:], []byte(word)) {
		return i, errNotJSON
	}
	return i + len(word), nil
}

func (s *scanner) array(b []byte, i, depth int) (int, error) {
	i = skipWS(b, i)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = s.value(b, skipWS(b, i), depth); err != nil {
			return i, err
		}
		if i = skipWS(b, i); i >= len(b) {
			return i, errNotJSON
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1, nil
		default:
			return i, errNotJSON
		}
	}
}

func (s *scanner) object(b []byte, i, depth int) (int, error) {
	i = skipWS(b, i)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		var err error
		if i = skipWS(b, i); i >= len(b) || b[i] != '"' {
			return i, errNotJSON
		}
		k := i + 1
		if i, err = stringEnd(b, k); err != nil {
			return i, err
		}
		key := b[k : i-1]
		if i = skipWS(b, i); i >= len(b) || b[i] != ':' {
			return i, errNotJSON
		}
		v := skipWS(b, i+1)
		if i, err = s.value(b, v, depth); err != nil {
			return i, err
		}
		if depth == 1 {
			if s.ntop < len(s.top) {
				s.top[s.ntop] = member{key, jv(b[v:i])}
				s.ntop++
			} else {
				s.many = true
			}
		}
		if i = skipWS(b, i); i >= len(b) {
			return i, errNotJSON
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return i + 1, nil
		default:
			return i, errNotJSON
		}
	}
}

// stringEnd returns the offset after the quote that closes the string
// whose text starts at b[i:]: the first quote after an even run of
// backslashes (none included).
func stringEnd(b []byte, i int) (int, error) {
	for {
		// Keys and kinds end within a few bytes: look at those first.
		n, lim := 0, min(len(b)-i, 16)
		for n < lim && b[i+n] != '"' {
			n++
		}
		if n == lim {
			m := bytes.IndexByte(b[i+lim:], '"')
			if m < 0 {
				return len(b), errNotJSON
			}
			n = lim + m
		}
		k := n
		for k > 0 && b[i+k-1] == '\\' {
			k--
		}
		if (n-k)%2 == 0 {
			return i + n + 1, nil
		}
		i += n + 1
	}
}

// numberEnd returns the offset after the number at b[i:].
func numberEnd(b []byte, i int) (int, error) {
	for j := i; j < len(b); j++ {
		if c := b[j]; c >= '0' && c <= '9' || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+' {
			continue
		}
		if j == i || j == i+1 && (b[i] == '-' || b[i] == '+') {
			if len(b)-j >= 3 && (bytes.EqualFold(b[j:j+3], []byte("inf")) || bytes.EqualFold(b[j:j+3], []byte("nan"))) {
				return j + 3, nil
			}
			return j, errNotJSON
		}
		return j, nil
	}
	return len(b), nil
}

// structural marks the bytes valueEnd stops at inside a container.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// valueEnd returns the offset after the checked value at b[i:].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		end, _ := stringEnd(b, i+1)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			for j < len(b) && !structural[b[j]] {
				j++
			}
			if j == len(b) {
				break
			}
			switch b[j] {
			case '"':
				end, _ := stringEnd(b, j+1)
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && !isWS(b[j]) && b[j] != ',' && b[j] != ']' && b[j] != '}' {
		j++
	}
	return j
}

// The kinds of a value, by its first byte.
func (v jv) isObject() bool { return len(v) > 0 && v[0] == '{' }
func (v jv) isArray() bool  { return len(v) > 0 && v[0] == '[' }
func (v jv) isString() bool { return len(v) > 0 && v[0] == '"' }
func (v jv) isNull() bool   { return string(v) == "null" }
func (v jv) isTrue() bool   { return string(v) == "true" }
func (v jv) isNumber() bool {
	if len(v) == 0 {
		return false
	}
	switch v[0] {
	case '{', '[', '"', 't', 'f':
		return false
	}
	return !v.isNull()
}

// members calls fn with each key (as written, escaped) and value of an
// object, in order, until fn returns false.
func (v jv) members(fn func(key []byte, val jv) bool) {
	if !v.isObject() {
		return
	}
	i := skipWS(v, 1)
	if v[i] == '}' {
		return
	}
	for {
		i = skipWS(v, i)
		kEnd, _ := stringEnd(v, i+1)
		key := v[i+1 : kEnd-1]
		i = skipWS(v, skipWS(v, kEnd)+1)
		end := valueEnd(v, i)
		if !fn(key, v[i:end]) {
			return
		}
		if i = skipWS(v, end); v[i] == '}' {
			return
		}
		i++
	}
}

// elems calls fn with each value of an array, in order, until fn
// returns false.
func (v jv) elems(fn func(val jv) bool) {
	if !v.isArray() {
		return
	}
	i := skipWS(v, 1)
	if v[i] == ']' {
		return
	}
	for {
		i = skipWS(v, i)
		end := valueEnd(v, i)
		if !fn(v[i:end]) {
			return
		}
		if i = skipWS(v, end); v[i] == ']' {
			return
		}
		i++
	}
}

// count is the number of an object's members or an array's values.
func (v jv) count() int {
	n := 0
	each := func() bool { n++; return true }
	if v.isObject() {
		v.members(func([]byte, jv) bool { return each() })
	} else {
		v.elems(func(jv) bool { return each() })
	}
	return n
}

// keyIs reports whether key, as written, decodes to name.
func keyIs(key []byte, name string) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key) == name
	}
	var buf [64]byte
	return string(unescape(buf[:0], key)) == name
}

// get returns an object's value for key: the first member written as
// key, else the first whose key decodes to it (fastjson's Get); nil when
// there is none or v is not an object.
func (v jv) get(key string) jv {
	var found, decoded jv
	v.members(func(k []byte, val jv) bool {
		if string(k) == key {
			found = val
			return false
		}
		if decoded == nil && bytes.IndexByte(k, '\\') >= 0 && keyIs(k, key) {
			decoded = val
		}
		return true
	})
	if found != nil {
		return found
	}
	return decoded
}

// lookup finds, in one pass over an object, the value of each of names
// as get would, into vals (len(vals) = len(names)), and returns how many
// members the object has (0 when v is not an object).
func (v jv) lookup(vals []jv, names ...string) int {
	var decoded uint64 // bit i: vals[i] matched a key with escapes
	n := 0
	v.members(func(k []byte, val jv) bool {
		n++
		escaped := bytes.IndexByte(k, '\\') >= 0
		for i, name := range names {
			switch {
			case !escaped && string(k) == name && (vals[i] == nil || decoded&(1<<i) != 0):
				vals[i], decoded = val, decoded&^(1<<i)
			case escaped && vals[i] == nil && keyIs(k, name):
				vals[i], decoded = val, decoded|1<<i
			}
		}
		return true
	})
	return n
}

// str returns a string value, decoded and copied; ok=false when v is
// missing or not a string.
func (v jv) str() (string, bool) {
	if !v.isString() {
		return "", false
	}
	raw := v[1 : len(v)-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw), true
	}
	return string(unescape(nil, raw)), true
}

// strIs reports whether v is a string that decodes to s, copying
// nothing when it has no escape.
func (v jv) strIs(s string) bool {
	return v.isString() && keyIs(v[1:len(v)-1], s)
}

// strLen is the decoded length of a string value.
func (v jv) strLen() int {
	raw := v[1 : len(v)-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return len(raw)
	}
	return len(unescape(nil, raw))
}

// int64Of reads an integer value as fastjson's Int64 does.
func (v jv) int64Of() (int64, bool) {
	if !v.isNumber() {
		return 0, false
	}
	n, err := fastfloat.ParseInt64(unsafe.String(unsafe.SliceData(v), len(v)))
	return n, err == nil
}

// compact returns the value's text without white space outside its
// strings: what fastjson's MarshalTo gives for a value it parsed and
// did not look into.
func (v jv) compact() []byte {
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '"':
			end, _ := stringEnd(v, i+1)
			out = append(out, v[i:end]...)
			i = end
		case isWS(c):
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// quote writes a decoded string as fastjson writes one it has decoded:
// as it is between quotes unless it holds a quote, a backslash or a
// control byte, else Go-quoted.
func quote(dst []byte, s string) []byte {
	special := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			special = true
			break
		}
	}
	if !special {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return strconv.AppendQuote(dst, s)
}

// unescape appends the decoded text of a string's raw text to dst:
// escapes decoded, one that is not valid kept as written.
func unescape(dst, s []byte) []byte {
	for len(s) > 0 {
		n := bytes.IndexByte(s, '\\')
		if n < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:n]...)
		s = s[n+1:]
		if len(s) == 0 {
			break
		}
		ch := s[0]
		s = s[1:]
		switch ch {
		case '"', '\\', '/':
			dst = append(dst, ch)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			dst, s = unescapeU(dst, s)
		default:
			dst = append(dst, '\\', ch)
		}
	}
	return dst
}

// unescapeU decodes the \u escape whose hex digits start s.
func unescapeU(dst, s []byte) ([]byte, []byte) {
	if len(s) < 4 {
		return append(dst, `\u`...), s
	}
	x, err := strconv.ParseUint(string(s[:4]), 16, 16)
	if err != nil {
		return append(dst, `\u`...), s
	}
	xs := s[:4]
	s = s[4:]
	if !utf16.IsSurrogate(rune(x)) {
		return utf8.AppendRune(dst, rune(x)), s
	}
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return append(append(dst, `\u`...), xs...), s
	}
	x1, err := strconv.ParseUint(string(s[2:6]), 16, 16)
	if err != nil {
		return append(append(dst, `\u`...), xs...), s
	}
	return utf8.AppendRune(dst, utf16.DecodeRune(rune(x), rune(x1))), s[6:]
}
