package sessionref

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParseText(f *testing.F) {
	uri := "dsh-session:InNvdXJjZSI"
	for _, s := range []string{
		"", "dsh-session:", "dsh-session:%%%", "DSH-SESSION:x", "dsh-session:abc", "dsh-session:IiJ",
		"@[x](" + uri + ")", "@[x](" + uri + " )", "@[x](" + uri + "\v)", "@[x](" + uri, "@[a\\\nb](" + uri + ")",
		"@[a]b](" + uri + ")", "@[](" + uri + ")", "@" + uri, "(" + uri + ")", uri + ".", "@[x](" + uri + ")(" + uri + ")",
		"@[a\\]b\\\\](" + uri + ")", uri + "-", "@[x](dsh-session:)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseText(text)
		if err != nil {
			if CodeOf(err) != CodeInvalidReference {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		ms, err := FindMentions(text)
		if err != nil || len(ms) != len(p.References) {
			t.Fatalf("FindMentions disagrees: %d vs %d (%v)", len(ms), len(p.References), err)
		}
		if len(ms) == 0 && p.Text != text {
			t.Fatalf("text changed without mentions")
		}
		for i, m := range ms {
			if m.Start < 0 || m.End > len(text) || m.Start >= m.End || i > 0 && m.Start < ms[i-1].End {
				t.Fatalf("bad span %+v", m)
			}
			// Every mention found re-encodes to its canonical URI.
			if u, err := EncodeURI(m.Reference.SessionID); err != nil || !strings.Contains(text[m.Start:m.End], u) {
				t.Fatalf("mention %q does not hold %q", text[m.Start:m.End], u)
			}
			// A canonical mention of what we found parses back to it.
			if utf8.ValidString(*m.Reference.Label) {
				f, _ := FormatMention(m.Reference)
				back, err := ParseText(f)
				if err != nil || len(back.References) != 1 || *back.References[0].Label != *m.Reference.Label || back.References[0].SessionID != m.Reference.SessionID {
					t.Fatalf("format/parse of %+v: %+v %v", m.Reference, back, err)
				}
			}
		}
	})
}

func FuzzDecodeURI(f *testing.F) {
	for _, s := range []string{"dsh-session:InNvdXJjZSI", "dsh-session:IiI", "dsh-session:IiJ", "dsh-session:Ilx1ZDgwMCI", "dsh-session:bnVsbA", "https://example.test", "dsh-session:InVuaWNvZGUv5byV5Y-3XCIvc2xhc2hcXC9saW5lXG4i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		id, err := DecodeURI(uri)
		if err != nil {
			if CodeOf(err) != CodeInvalidReference {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		// The canonical check: only the exact encoding decodes.
		if again, err := EncodeURI(id); err != nil || again != uri {
			t.Fatalf("DecodeURI(%q) = %q, but it encodes to %q", uri, id, again)
		}
	})
}

func FuzzURIRoundTrip(f *testing.F) {
	for _, s := range []string{"", "source", "unicode/引号\"/slash\\/line\n", "\x00\x1f\x7f", "\u2028<>&", "\ufeff😀", "a]b\\c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		uri, err := EncodeURI(id)
		if !utf8.ValidString(id) {
			if CodeOf(err) != CodeInvalidReference {
				t.Fatalf("invalid UTF-8 accepted: %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeURI(uri)
		if err != nil || back != id {
			t.Fatalf("round trip %q -> %q -> %q, %v", id, uri, back, err)
		}
		// JS JSON of the id is valid JSON that decodes to the id.
		var s string
		if err := json.Unmarshal(appendJSString(nil, id, false), &s); err != nil || s != id {
			t.Fatalf("not JSON: %v", err)
		}
		m, err := FormatMention(Reference{SessionID: id})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseText(m)
		if err != nil || len(p.References) != 1 || p.References[0].SessionID != id || p.Text != "@"+id {
			t.Fatalf("mention round trip %q: %+v %v", m, p, err)
		}
	})
}

// FuzzRetention checks the retention invariants on arbitrary texts and
// budgets: the object fits or the error is BUDGET_EXCEEDED, it is valid
// JSON without a '<', the omitted bytes are exact, and the prompt has one
// literal closing tag.
func FuzzRetention(f *testing.F) {
	f.Add("hello", "world", "</referenced-sessions>", 200, uint8(0))
	f.Add("latest-"+strings.Repeat("界", 400), "\ufeffbom", "<x>", 360, uint8(3))
	f.Add("", "\n", "\"\\", 16, uint8(1))
	f.Add(strings.Repeat("a\x01<", 50), "é\u0301", "\xff\xfe", 120, uint8(6))
	f.Fuzz(func(t *testing.T, a, b, c string, budget int, shape uint8) {
		if budget < 1 || budget > 1<<16 {
			return
		}
		// Stores hand out valid UTF-8 (a dropped message's bytes are
		// counted as given, without a scan), so the exact byte accounting
		// is checked on valid text; invalid text is covered by the cwd.
		cwd := c
		a, b, c = validOrReplaced(a), validOrReplaced(b), validOrReplaced(c)
		texts := []string{a, b, c, a + b, c}
		var events []Event
		for i, txt := range texts {
			switch (int(shape) >> i) & 3 {
			case 0:
				events = append(events, userEv(txt))
			case 1:
				events = append(events, assistantEv(TextBlock(txt), reasoning("r")))
			case 2:
				events = append(events, checkpointEv(txt))
			case 3:
				events = append(events, pluginEv("p", txt))
			}
		}
		m := newMemStore()
		m.put("s", ptr(cwd), 1, ptr[int64](int64(len(events))), events...)
		r, _ := NewResolver(m, Config{MaxReferenceBytes: budget})
		p, err := r.Prepare(context.Background(), Target{ID: "t"}, nil, []Reference{{SessionID: "s", Label: ptr(strings.ToValidUTF8(a, ""))}})
		if err != nil {
			if CodeOf(err) != CodeBudgetExceeded {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		prompt := p.Context.Prompt()
		if strings.Count(prompt, ContextCloseTag) != 1 || !strings.HasSuffix(prompt, PromptSuffix) {
			t.Fatal("closing tag escaped")
		}
		body := strings.TrimSuffix(strings.TrimPrefix(prompt, PromptPrefix), PromptSuffix)
		if strings.Contains(body, "<") || !json.Valid([]byte(body)) || !utf8.ValidString(body) {
			t.Fatalf("bad body %q", body)
		}
		obj := body[1 : len(body)-1]
		if len(obj) > budget {
			t.Fatalf("object %d > budget %d", len(obj), budget)
		}
		var snap Snapshot
		if err := json.Unmarshal([]byte(obj), &snap); err != nil {
			t.Fatal(err)
		}
		// Exact omitted bytes: dropped messages' bytes plus each notice's count.
		rec := p.Context.Source.References[0]
		items := project(m.surfaces["s"].Events)
		total := 0
		for i := range items {
			total += len(items[i].original)
		}
		kept := 0
		for _, turn := range snap.Conversation {
			if i := strings.LastIndex(turn.Text, "\n[… omitted "); i >= 0 && strings.HasSuffix(turn.Text, " UTF-8 bytes …]") {
				n, err := strconv.Atoi(strings.TrimSuffix(turn.Text[i+len("\n[… omitted "):], " UTF-8 bytes …]"))
				if err == nil {
					kept += len(turn.Text) - len(noticeText(n))
					continue
				}
			}
			kept += len(turn.Text)
		}
		bomsLost := rec.OmittedBytes + kept - total
		if rec.OmittedBytes > total || bomsLost < 0 || bomsLost%3 != 0 || bomsLost > 6*len(snap.Conversation) {
			t.Fatalf("omitted %d, kept %d, total %d", rec.OmittedBytes, kept, total)
		}
		if rec.RetainedMessages != len(snap.Conversation) || rec.OriginalMessages != len(items) ||
			rec.Truncated != (rec.OmittedBytes > 0 || rec.OmittedMessages > 0) {
			t.Fatalf("stats %+v", rec)
		}
		if !bytes.Equal([]byte(obj), []byte(obj)) {
			t.Fatal("unreachable")
		}
	})
}

func noticeText(n int) string { return "\n[… omitted " + strconv.Itoa(n) + " UTF-8 bytes …]" }

// jsMentionRE is the reference's pattern with JavaScript's u-flag classes
// spelled out; Go's leftmost-first RE2 then matches as JS does. It is the
// oracle the linear scanner is checked against.
var jsMentionRE = regexp.MustCompile(`@\[((?:\\[^\n\r\x{2028}\x{2029}]|[^\\\]])*)\]\((dsh-session:[^\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff})]*)\)|dsh-session:[A-Za-z0-9_-]+`)

// FuzzParseTextMatchesRegexp: the scanner finds exactly the oracle's
// matches, and fails exactly when one of them does not decode.
func FuzzParseTextMatchesRegexp(f *testing.F) {
	uri := "dsh-session:InNvdXJjZSI"
	for _, s := range []string{"@[x](" + uri + ")", "@[a\\]b](" + uri + ")(" + uri + ")", "@[x](" + uri + "\u3000)", "@[@[x](" + uri + ")", "a\\@[\\\n](" + uri + ")", "dsh-session:abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return // JS strings are always valid; RE2 and JS differ on bytes
		}
		spans := jsMentionRE.FindAllStringIndex(text, -1)
		ms, err := FindMentions(text)
		if err != nil {
			for _, sp := range spans {
				m := text[sp[0]:sp[1]]
				u := m
				if strings.HasPrefix(m, "@[") {
					u = m[strings.LastIndex(m, "](")+2 : len(m)-1]
				}
				if _, derr := DecodeURI(u); derr != nil {
					return // the oracle has an undecodable match too
				}
			}
			t.Fatalf("scan failed (%v) but every oracle match decodes", err)
		}
		if len(ms) != len(spans) {
			t.Fatalf("scanner found %d mentions, oracle %d in %q", len(ms), len(spans), text)
		}
		for i, m := range ms {
			if m.Start != spans[i][0] || m.End != spans[i][1] {
				t.Fatalf("mention %d at %d-%d, oracle %v in %q", i, m.Start, m.End, spans[i], text)
			}
		}
	})
}

// project returns every projected message of a surface, built; retain
// itself only builds what it keeps. The fuzz oracle counts bytes with it.
func project(events []Event) []item {
	var items []item
	for i := range events {
		if ok, _, _, _ := classify(&events[i]); ok {
			it, _ := newItem(context.Background(), newEventList(events), i) // a surface's text never fails
			items = append(items, it)
		}
	}
	return items
}
