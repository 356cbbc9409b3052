package card

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/sessionref"
)

// goldenMessage is a realistic session beside a hostile one: Markdown,
// CJK, emoji, a keycap and a flag, then references, links and controls.
func goldenMessage() (*sessionref.Message, TitleFunc) {
	cwd := "/home/dev/src/mentions"
	real := snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "Fix the session parser",
		"Why does the **parser** fail on empty input? 1️⃣ 🇯🇵 ✅",
		"Because `len(x)-1` underflows. Fixed in `parser.go`:\n\n- guard the empty case\n- add a test\n\n```go\nif len(x) == 0 { return nil }\n```",
		"重构日志模块 and the trailing newline case? café e\u0301")
	real.Cwd = &cwd
	evil := snapshot("persisted-session-2", "pasted \x1b[2J label",
		"**&#27;]52;c;SGVsbG8=&#7;** &#27;[2J <script>alert(1)</script>",
		"[click here](http://evil.example/steal) ![img](http://evil.example/a.png) <http://evil.example/auto>\n\n\x1b]8;;http://x\x07raw\x1b]8;;\x07")
	titles := func(id string) (string, bool) {
		if id == "persisted-session-2" {
			return "The real title", true
		}
		return "Fix the session parser", true
	}
	return messageOf(real, evil), titles
}

// TestGoldenViews keeps the collapsed and the expanded card at 40, 80
// and 120 columns, hostile content among them. The goldens are the
// visible text; the raw output is checked to hold only SGR styling.
func TestGoldenViews(t *testing.T) {
	msg, titles := goldenMessage()
	for _, w := range []int{40, 80, 120} {
		for _, expanded := range []bool{false, true} {
			name := fmt.Sprintf("collapsed_w%d", w)
			if expanded {
				name = fmt.Sprintf("expanded_w%d", w)
			}
			t.Run(name, func(t *testing.T) {
				c := New(msg, WithHome("/home/dev"))
				c.SetStyles(PlainStyles())
				c.SetWidth(w)
				c.SetMaxHeight(200)
				c.SetTitles(titles)
				if expanded {
					c.Toggle()
					c.Render()
				}
				v := c.View()
				if why := terminalSafe(v); why != "" {
					t.Fatal(why)
				}
				requireFits(t, v, w, c.Height())
				golden.RequireEqual(t, []byte(ansi.Strip(v)))
			})
		}
	}
}
