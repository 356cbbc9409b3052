package sessionref

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Scheme is the URI scheme of a session reference. It is case-sensitive.
const Scheme = "dsh-session:"

// EncodeURI returns the canonical URI of a session id: the scheme followed
// by the unpadded base64url of the id as a JavaScript JSON string. The id
// must be valid UTF-8 (a JS string could not hold anything else); an id
// that is not is rejected, never altered.
func EncodeURI(id string) (string, error) {
	if !utf8.ValidString(id) {
		return "", newError(CodeInvalidReference, "session id "+quote(id)+" is not valid UTF-8", nil)
	}
	var js [128]byte
	var enc [192]byte
	j := appendJSString(js[:0], id, false)
	var e []byte
	if n := base64.RawURLEncoding.EncodedLen(len(j)); n <= len(enc) {
		e = enc[:n]
	} else {
		e = make([]byte, n)
	}
	base64.RawURLEncoding.Encode(e, j)
	var b strings.Builder // one allocation: the result
	b.Grow(len(Scheme) + len(e))
	b.WriteString(Scheme)
	b.Write(e)
	return b.String(), nil
}

// DecodeURI returns the session id of a canonical session URI. Anything
// but the exact form EncodeURI produces (padding, stray bits, whitespace,
// needless escapes, a JSON value that is not a string) is an
// [CodeInvalidReference] error.
func DecodeURI(uri string) (string, error) {
	payload, ok := strings.CutPrefix(uri, Scheme)
	if !ok || payload == "" || !isPayload(payload) {
		return "", invalidURI(uri)
	}
	var stack [128]byte
	n := base64.RawURLEncoding.DecodedLen(len(payload))
	buf := stack[:0]
	if n > len(stack) {
		buf = make([]byte, 0, n)
	}
	buf = buf[:n]
	// Strict rejects non-zero trailing bits, which re-encoding would drop.
	m, err := base64.RawURLEncoding.Strict().Decode(buf, []byte(payload))
	if err != nil {
		return "", invalidURI(uri)
	}
	id, ok := decodeJSString(buf[:m])
	if !ok {
		return "", invalidURI(uri)
	}
	return id, nil
}

// isPayload reports whether s is made of base64url characters only.
func isPayload(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isPayloadByte(s[i]) {
			return false
		}
	}
	return true
}

func isPayloadByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
