package sessionref

import (
	"reflect"
	"strings"
	"testing"
)

func mustURI(t testing.TB, id string) string {
	t.Helper()
	u, err := EncodeURI(id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestFormatMentionGolden(t *testing.T) {
	got, err := FormatMention(Reference{SessionID: "a]b\\c"})
	if err != nil || got != `@[a\]b\\c](dsh-session:ImFdYlxcYyI)` {
		t.Fatalf("FormatMention = %q, %v", got, err)
	}
	p, err := ParseText(got)
	if err != nil || p.Text != "@a]b\\c" || len(p.References) != 1 || p.References[0].SessionID != "a]b\\c" {
		t.Fatalf("parse back: %+v %v", p, err)
	}
}

// Round trips of ids, labels and mentions (docs/references.md).
func TestParseRoundTrips(t *testing.T) {
	id := "unicode/引号\"/slash\\/line\n"
	uri := mustURI(t, id)
	if back, err := DecodeURI(uri); err != nil || back != id {
		t.Fatalf("round trip: %q %v", back, err)
	}
	m, _ := FormatMention(Reference{SessionID: id, Label: ptr("源]会话")})
	p, err := ParseText("compare " + m + " and " + uri)
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != "compare @源]会话 and @"+id {
		t.Fatalf("text %q", p.Text)
	}
	want := []Reference{{SessionID: id, Label: ptr("源]会话")}, {SessionID: id, Label: ptr(id)}}
	if !reflect.DeepEqual(p.References, want) {
		t.Fatalf("refs %+v", p.References)
	}
	// A label-less mention escapes the id.
	if m, _ := FormatMention(Reference{SessionID: "x]y"}); !strings.HasPrefix(m, `@[x\]y](`) {
		t.Fatalf("label-less mention %q", m)
	}
	for _, text := range []string{uri + ".", "`" + uri + "`"} {
		p, err := ParseText(text)
		if err != nil || len(p.References) != 1 || p.References[0].SessionID != id {
			t.Fatalf("ParseText(%q) = %+v %v", text, p, err)
		}
	}
	for _, text := range []string{"dsh-session: URI?", "dsh-session:%%%", "dsh-session:", "DSH-SESSION:x"} {
		p, err := ParseText(text)
		if err != nil || p.Text != text || len(p.References) != 0 {
			t.Fatalf("ParseText(%q) = %+v %v", text, p, err)
		}
	}
}

// Malformed references fail with INVALID_REFERENCE (docs/references.md).
func TestParseRejects(t *testing.T) {
	obj := Scheme + b64(`{"a":1}`)
	for _, text := range []string{
		"see dsh-session:IiJ",
		"@[bad](dsh-session:%%%)",
		"@[bad](" + obj + ")",
		"@[bad](dsh-session:not-canonical)",
		"dsh-session:abc",
		mustURI(t, "x") + "-",
		mustURI(t, "x") + "_",
		"@[x](dsh-session:)",
	} {
		_, err := ParseText(text)
		if CodeOf(err) != CodeInvalidReference || !strings.Contains(err.Error(), "invalid session reference URI") {
			t.Errorf("ParseText(%q) err = %v", text, err)
		}
	}
}

// The table of cases in docs/references.md: Markdown that fails but is
// caught by the bare rule.
func TestParseMarkdownFallbacks(t *testing.T) {
	uri := mustURI(t, "id")
	cases := []struct{ in, out string }{
		{"@[x](" + uri + " )", "@[x](@id )"},
		{"@[x](" + uri + "\v)", "@[x](@id\v)"},
		{"@[x](" + uri + "\u00a0)", "@[x](@id\u00a0)"},
		{"@[x](" + uri + "\ufeff)", "@[x](@id\ufeff)"},
		{"@[x](" + uri, "@[x](@id"},
		{"@[a\\\nb](" + uri + ")", "@[a\\\nb](@id)"},
		{"@[a\\\u2028b](" + uri + ")", "@[a\\\u2028b](@id)"},
		{"@[a]b](" + uri + ")", "@[a]b](@id)"},
		{"@[](" + uri + ")", "@"},
		{"@" + uri, "@@id"},
		{"(" + uri + ")", "(@id)"},
		{uri + ".", "@id."},
		{"@[x](" + uri + ")(" + uri + ")", "@x(@id)"},
		{"@[a\nb](" + uri + ")", "@a\nb"},
		{"@[a\\]b\\\\](" + uri + ")", "@a]b\\"},
		{"@[@[x](" + uri + ")", "@@[x"},
		{"x@[y", "x@[y"},
	}
	for _, c := range cases {
		p, err := ParseText(c.in)
		if err != nil || p.Text != c.out {
			t.Errorf("ParseText(%q) = %q, %v; want %q", c.in, p.Text, err, c.out)
		}
	}
	p, _ := ParseText("@[x](" + uri + ")(" + uri + ")")
	if len(p.References) != 2 {
		t.Fatalf("want 2 refs, got %d", len(p.References))
	}
}

func TestFindMentionsPositions(t *testing.T) {
	m, _ := FormatMention(Reference{SessionID: "s1", Label: ptr("One")})
	text := "hi " + m + " and " + mustURI(t, "s2")
	ms, err := FindMentions(text)
	if err != nil || len(ms) != 2 {
		t.Fatalf("%+v %v", ms, err)
	}
	if text[ms[0].Start:ms[0].End] != m || !ms[0].Markdown || ms[1].Markdown {
		t.Fatalf("positions %+v", ms)
	}
	if ms[1].Reference.SessionID != "s2" || ms[1].End != len(text) {
		t.Fatalf("bare %+v", ms[1])
	}
}

func TestEveryLabelSurvivesFormatThenParse(t *testing.T) {
	for _, label := range []string{"", "]", "\\", "\\]", "a\nb", "[x](y)", "@[", "dsh-session:IiI", "🙂 é", "\u2028"} {
		m, err := FormatMention(Reference{SessionID: "id", Label: &label})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseText(m)
		if err != nil || len(p.References) != 1 || *p.References[0].Label != label || p.Text != "@"+label {
			t.Errorf("label %q: %+v %v", label, p, err)
		}
	}
}

func TestFindValidMentionsSkipsMalformed(t *testing.T) {
	good, _ := FormatMention(Reference{SessionID: "s1", Label: ptr("One")})
	text := "a @[bad](dsh-session:not-canonical) b " + good + " dsh-session:abc " + mustURI(t, "s2")
	ms := FindValidMentions(text)
	if len(ms) != 2 || ms[0].Reference.SessionID != "s1" || ms[1].Reference.SessionID != "s2" {
		t.Fatalf("%+v", ms)
	}
	if _, err := FindMentions(text); CodeOf(err) != CodeInvalidReference {
		t.Fatal("strict scan should fail")
	}
}
