package card

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/internal/golden"
	"github.com/dshkit/mentions/sessionref"
)

// truncatedMessage is one capture that was compacted and cut, by a title
// that starts with '@'.
func truncatedMessage() *sessionref.Message {
	msg := messageOf(snapshot("0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "@release notes", "what changed?", "the parser and the picker"))
	r := &msg.Source.References[0]
	r.OriginalMessages, r.OmittedMessages, r.OmittedBytes, r.Compacted, r.Truncated = 6, 4, 116357, true, true
	return msg
}

// TestFlagsWhenExpanded: "compacted" and "truncated" show in the expanded
// card too, not only in the collapsed summary, in the flag style.
func TestFlagsWhenExpanded(t *testing.T) {
	for _, expanded := range []bool{false, true} {
		c := New(truncatedMessage())
		c.SetWidth(80)
		c.SetMaxHeight(40)
		if expanded {
			c.Toggle()
			c.Render()
		}
		v := c.View()
		plain := ansi.Strip(v)
		if !strings.Contains(plain, "compacted") || !strings.Contains(plain, "truncated") {
			t.Fatalf("expanded %v: no flags in\n%s", expanded, plain)
		}
		if !inStyle(v, c.Styles().Flag.Render("X"), "truncated") {
			t.Fatalf("expanded %v: \"truncated\" is not in the flag style:\n%q", expanded, v)
		}
	}
	c := New(messageOf(snapshot("s", "whole", "hi")))
	c.SetWidth(60)
	c.Toggle()
	c.Render()
	if v := ansi.Strip(c.View()); strings.Contains(v, "truncated") || strings.Contains(v, "compacted") {
		t.Fatalf("a whole capture is flagged:\n%s", v)
	}
}

// TestTitleStartingWithAt: a label that begins with '@' reads with one.
func TestTitleStartingWithAt(t *testing.T) {
	c := New(truncatedMessage())
	c.SetWidth(80)
	c.SetMaxHeight(40)
	c.Toggle()
	c.Render()
	v := ansi.Strip(c.View())
	if strings.Contains(v, "@@") || strings.Count(v, "@release notes") != 2 {
		t.Fatalf("the label reads wrong (want \"@release notes\" in the header and above the conversation):\n%s", v)
	}
}

// TestGoldenUnframed keeps the card without its frame, as a host draws it
// inside its own message bar: no bar of its own, the whole width used.
func TestGoldenUnframed(t *testing.T) {
	for _, expanded := range []bool{false, true} {
		name := "collapsed"
		if expanded {
			name = "expanded"
		}
		t.Run(name, func(t *testing.T) {
			const w = 60
			c := New(truncatedMessage(), WithHome("/home/dev"))
			c.SetWidth(w)
			c.SetMaxHeight(40)
			c.SetStyles(PlainStyles().Unframed())
			if expanded {
				c.Toggle()
				c.Render()
			}
			v := c.View()
			requireFits(t, v, w, c.Height())
			framed := New(truncatedMessage())
			framed.SetWidth(w)
			framed.SetMaxHeight(40)
			framed.SetStyles(PlainStyles())
			if expanded {
				framed.Toggle()
				framed.Render()
			}
			for i, l := range strings.Split(ansi.Strip(v), "\n") {
				if strings.HasPrefix(l, "│") {
					t.Fatalf("line %d has a bar: %q", i, l)
				}
			}
			if c.Height() != framed.Height() {
				t.Fatalf("unframed %d lines, framed %d", c.Height(), framed.Height())
			}
			golden.RequireEqual(t, fmt.Sprintln(ansi.Strip(v)))
		})
	}
}

// inStyle reports whether word is drawn in the style that drew sample
// ("X"): some run that starts with the style's opening sequence holds
// word before its reset.
func inStyle(view, sample, word string) bool {
	open := sample[:strings.Index(sample, "X")]
	for _, run := range strings.Split(view, open)[1:] {
		if end := strings.Index(run, "\x1b[m"); end >= 0 && strings.Contains(run[:end], word) {
			return true
		}
	}
	return false
}
