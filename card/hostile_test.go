package card

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// hostile is session text that tried to reach the terminal through the
// expanded card's Markdown renderer.
var hostile = []string{
	"**&#27;]52;c;SGVsbG8=&#7;**",                                                   // OSC 52: writes the clipboard
	"&#27;[2J&#x1b;[H cleared",                                                      // clear screen, decimal and hex
	"&#x1B;]8;;http://evil.example&#x07;click&#x1B;]8;;&#x07;",                      // an OSC 8 hyperlink spelt out
	"&#155;2J &#157;0;title&#156; &#133;",                                           // C1 controls as references
	"&#x202E;gnp.exe &#8203;zero&#x2066;",                                           // bidi and invisible characters
	"[click here](http://evil.example/steal) and ![img](http://evil.example/a.png)", // links become OSC 8
	"<http://evil.example/auto> www.evil.example mail@evil.example",
	"`&#27;[2J` in a code span",
	"~~&#27;[8m~~ struck",
	"# &#27;[2J heading\n\nterm\n: &#27;[2J definition",
	"| a | &#27;[2J |\n|---|---|\n| [l](http://evil.example) | x |",
	"<script>&#27;[2J</script> <b onclick=x>&#27;[8m</b>",
	"<!-- &#27;[2J -->\n    &#27;[2J indented after a comment",
	"```\n&#27;[2J in a fence\n```",
	"```js\nalert('&#27;[2J')\n```",
	"\x1b]52;c;SGVsbG8=\x07 raw \x9b2J \u009d0;x\u009c \x1b[31mred",
	"&amp;#27;[2J double &#0; nul &#xD800; surrogate &#1114112; too big",
	"[ref]\n\n[ref]: http://evil.example/&#27;[2J",
}

func hostileCard(text string) Model {
	c := New(messageOf(snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "hostile", text, text)))
	c.SetMaxHeight(200)
	return c
}

// TestHostileTextReachesNoTerminalControl is the regression for the
// expanded card writing the clipboard: no session text gets an escape
// sequence other than SGR, or a control character, to the terminal.
func TestHostileTextReachesNoTerminalControl(t *testing.T) {
	for _, styles := range []struct {
		name string
		st   Styles
	}{{"dark", DefaultStyles(true)}, {"light", DefaultStyles(false)}, {"plain", PlainStyles()}} {
		for _, text := range hostile {
			c := hostileCard(text)
			c.SetStyles(styles.st)
			for _, expanded := range []bool{false, true} {
				if expanded {
					c.Toggle()
					c.Render()
				}
				if why := terminalSafe(c.View()); why != "" {
					t.Errorf("%s, expanded %v, %q: %s", styles.name, expanded, text, why)
				}
			}
		}
	}
}

// TestHostileTextShowsAsWritten: references stay as the characters the
// model received, and links show their URL as text.
func TestHostileTextShowsAsWritten(t *testing.T) {
	for text, want := range map[string][]string{
		"**&#27;]52;c;SGVsbG8=&#7;**":        {"&#27;]52;c;SGVsbG8=&#7;"},
		"`&#27;[2J` and &amp; and &lt;b&gt;": {"&#27;[2J", "&amp; and &lt;b&gt;"},
		"```\n&#27;[2J <b> & x\n```":         {"&#27;[2J <b> & x"},
		"<b>not html</b> a < b && c":         {"<b>not html</b> a < b && c"},
		"[click](http://evil.example/x)":     {"click", "http://evil.example/x"},
		"![alt](http://evil.example/a.png)":  {"alt", "http://evil.example/a.png"},
		"<!-- c -->\n    &#27;[2J":           {"&#27;[2J"},
	} {
		for _, st := range []Styles{DefaultStyles(true), PlainStyles()} {
			c := hostileCard(text)
			c.SetStyles(st)
			c.Toggle()
			c.Render()
			got := ansi.Strip(c.View())
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%q renders without %q:\n%s", text, w, got)
				}
			}
		}
	}
}

// TestLinksAreNotHyperlinks: no OSC 8 in the raw output, with any style.
func TestLinksAreNotHyperlinks(t *testing.T) {
	c := hostileCard("[click](http://evil.example/x) <http://evil.example/y> www.evil.example")
	for _, st := range []Styles{DefaultStyles(true), PlainStyles()} {
		c.SetStyles(st)
		if !c.Expanded() {
			c.Toggle()
			c.Render()
		}
		if v := c.View(); strings.Contains(v, "\x1b]8;") {
			t.Fatalf("hyperlink in %q", v)
		}
	}
}

// TestPlainStylesHaveNoColour: PlainStyles draws bold at most, in the
// frame, the header and the rendered Markdown alike.
func TestPlainStylesHaveNoColour(t *testing.T) {
	c := hostileCard("# Title\n\n**bold** `code` [l](http://x.example)\n\n```go\nfunc f() {}\n```\n\n> quote\n\n- item")
	c.SetStyles(PlainStyles())
	c.Toggle()
	c.Render()
	for _, seq := range sgrSequences(c.View()) {
		for _, p := range strings.FieldsFunc(seq[2:len(seq)-1], func(r rune) bool { return r == ';' || r == ':' }) {
			switch p {
			case "0", "1", "22", "":
			default:
				t.Fatalf("PlainStyles emits %q", seq)
			}
		}
	}
}

func sgrSequences(s string) []string {
	var out []string
	var state byte
	for len(s) > 0 {
		seq, _, n, next := ansi.DecodeSequence(s, state, nil)
		state, s = next, s[n:]
		if isSGR(seq) {
			out = append(out, seq)
		}
	}
	return out
}

func TestStyleOnly(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[1;38;5;203mbold\x1b[m":                "\x1b[1;38;5;203mbold\x1b[m",
		"a\x1b]52;c;SGVsbG8=\x07b":                  "ab",
		"a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "alink",
		"\x1b[2J\x1b[?1049h\x1b[>1m\x1b[1 m":        "",
		"\x1bPq#0;2;0;0;0\x1b\\x":                   "x",
		"\x1b_Gf=100;AAAA\x1b\\y":                   "y",
		"tab\there\r\n\a\x00\x7f":                   "tab here\n",
		"c1 \u009b2J \u0085 \x9b":                   "c1 2J  \uFFFD",
		"bad \xff utf":                              "bad \uFFFD utf",
		"unterminated \x1b]52;c;SGVsbG8=":           "unterminated ",
		"界 🙂 e\u0301":                               "界 🙂 e\u0301",
	} {
		if got := styleOnly(in); got != want {
			t.Errorf("styleOnly(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzStyleOnly(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("\x1b[31m\x1b]8;;x\x07\x1b[1 q\x9b\u009b")
	f.Fuzz(func(t *testing.T, s string) {
		if why := terminalSafe(styleOnly(s)); why != "" {
			t.Fatalf("styleOnly(%q): %s", s, why)
		}
	})
}

// FuzzCardRender renders any session text, label, id and cwd through the
// collapsed and expanded card with the default and the plain styles: the
// output holds no escape sequence but SGR, no control character but
// newline, and no line wider than the card.
func FuzzCardRender(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, "label", 60)
	}
	f.Add("1️⃣ 👩‍👩‍👧 🇯🇵 重构 e\u0301", "1️⃣ 🇯🇵", 12)
	f.Fuzz(func(t *testing.T, text, label string, width int) {
		width = 10 + abs(width)%150
		cwd := label + "/cwd"
		snap := snapshot(label+"-id", label, text, text)
		snap.Cwd = &cwd
		msg := messageOf(snap)
		for _, st := range []Styles{DefaultStyles(true), PlainStyles()} {
			c := New(msg)
			c.SetStyles(st)
			c.SetWidth(width)
			c.SetMaxHeight(12)
			c.SetTitles(func(string) (string, bool) { return text, true })
			for range 2 {
				v := c.View()
				if why := terminalSafe(v); why != "" {
					t.Fatalf("width %d, expanded %v: %s in %q", width, c.Expanded(), why, v)
				}
				requireFits(t, v, width, c.Height())
				c.Toggle()
				c.Render()
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestNeutralise: '&' is escaped outside code blocks only, and nothing
// else changes.
func TestNeutralise(t *testing.T) {
	mr := newMarkdownRenderer(PlainStyles().Markdown, 40)
	for in, want := range map[string]string{
		"plain <b> text":                   "plain <b> text",
		"```\n<&>\n```\n<&>":               "```\n<&>\n```\n<&amp;>",
		"    &#27; indented code\n\n&#27;": "    &#27; indented code\n\n&amp;#27;",
		"<!-- a -->\n    &#27;[2J":         "<!-- a -->\n    &amp;#27;[2J", // no HTML block: a paragraph
		"`&#27;` ~~&\\#27;~~ &amp;":        "`&amp;#27;` ~~&amp;\\#27;~~ &amp;amp;",
		"> ```\n> &x;\n> ```":              "> ```\n> &x;\n> ```",
	} {
		if got := mr.neutralise(in); got != want {
			t.Errorf("neutralise(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHugeTurn renders one turn of references and tags as long as a
// snapshot budget allows.
func TestHugeTurn(t *testing.T) {
	huge := strings.Repeat("&#27;[2J <b>", 6000)
	c := New(messageOf(snapshot("id", "l", huge)))
	c.SetWidth(100)
	c.Toggle()
	c.Render()
	if why := terminalSafe(c.View()); why != "" {
		t.Fatal(why)
	}
}
