package sessionref

import (
	"errors"
	"strings"
	"testing"
)

func TestEncodeURIGoldens(t *testing.T) {
	for id, want := range map[string]string{
		"source":                      "dsh-session:InNvdXJjZSI",
		"same":                        "dsh-session:InNhbWUi",
		"":                            "dsh-session:IiI",
		"unicode/引号\"/slash\\/line\n": "dsh-session:InVuaWNvZGUv5byV5Y-3XCIvc2xhc2hcXC9saW5lXG4i",
	} {
		got, err := EncodeURI(id)
		if err != nil || got != want {
			t.Errorf("EncodeURI(%q) = %q, %v; want %q", id, got, err, want)
		}
		back, err := DecodeURI(want)
		if err != nil || back != id {
			t.Errorf("DecodeURI(%q) = %q, %v; want %q", want, back, err, id)
		}
	}
}

func TestJSStringEscapes(t *testing.T) {
	cases := map[string]string{
		"\"\\":                       `"\"\\"`,
		"\b\f\n\r\t":                 `"\b\f\n\r\t"`,
		"\x00\x01\x1f":               `"\u0000\u0001\u001f"`,
		"/<>&\x7f\u0085\u2028\u2029": "\"/<>&\x7f\u0085\u2028\u2029\"",
		"\ufeff😀":                    "\"\ufeff😀\"",
	}
	for in, want := range cases {
		if got := string(appendJSString(nil, in, false)); got != want {
			t.Errorf("appendJSString(%q) = %s, want %s", in, got, want)
		}
		if got := tagSafeLen(in); got != len(appendJSString(nil, in, true)) {
			t.Errorf("tagSafeLen(%q) = %d, want %d", in, got, len(appendJSString(nil, in, true)))
		}
	}
	if got := string(appendJSString(nil, "</x>", true)); got != `"\u003c/x>"` {
		t.Errorf("tag-safe: %s", got)
	}
}

func TestDecodeURIRejects(t *testing.T) {
	enc := func(raw string) string { // base64url of raw JSON bytes
		u, _ := EncodeURI("x")
		_ = u
		return Scheme + b64(raw)
	}
	for _, uri := range []string{
		"https://example.test",
		"dsh-session:",
		"DSH-SESSION:InNvdXJjZSI",
		"dsh-session:IiJ",          // trailing bits
		"dsh-session:I",            // length ≡ 1 mod 4
		"dsh-session:IiI=",         // padding
		"dsh-session:%%%",          // not base64url
		"dsh-session:Ilx1ZDgwMCI",  // JS "\ud800": a lone surrogate
		enc(`null`),                // Go would unmarshal null into ""
		enc(`{"id":"x"}`),          // not a string
		enc(` "x"`),                // whitespace
		enc(`"\u0061"`),            // needless escape
		enc(`"\/"`),                // needless escape
		enc(`"\u001F"`),            // uppercase hex
		enc(`"\u000a"`),            // has a short form
		enc("\"\xff\""),            // invalid UTF-8
		enc(`"a`),                  // unterminated
		enc(`"a"b"`),               // raw quote inside
		enc("\"\x01\""),            // raw control character
		enc(`"\ud83d\ude00"`),      // surrogate pair escapes are not canonical
		enc(`"\`),                  // dangling escape
		enc(`"\u00"`),              // short \u
		enc(`12`),                  // number
		"dsh-session:InNvdXJjZSI ", // trailing space
	} {
		_, err := DecodeURI(uri)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidReference {
			t.Errorf("DecodeURI(%q) err = %v, want INVALID_REFERENCE", uri, err)
			continue
		}
		if !strings.HasPrefix(e.Error(), "invalid session reference URI ") {
			t.Errorf("message %q", e.Error())
		}
	}
}

func TestEncodeURIRejectsInvalidUTF8(t *testing.T) {
	if _, err := EncodeURI("a\xffb"); CodeOf(err) != CodeInvalidReference {
		t.Fatalf("err = %v", err)
	}
	if _, err := FormatMention(Reference{SessionID: "a\xffb"}); CodeOf(err) != CodeInvalidReference {
		t.Fatalf("err = %v", err)
	}
	if _, err := FormatMention(Reference{SessionID: "ok", Label: ptr("\xff")}); CodeOf(err) != CodeInvalidReference {
		t.Fatalf("err = %v", err)
	}
}

func TestDecodeAcceptsCanonicalControlEscapes(t *testing.T) {
	id := "\x00\x1f\x7f\b"
	uri, err := EncodeURI(id)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodeURI(uri); err != nil || got != id {
		t.Fatalf("round trip %q: %q %v", id, got, err)
	}
}
