package card

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"
	gansi "charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/dshkit/mentions/internal/textutil"
)

// This file renders one snapshot turn as Markdown. The turn is untrusted:
// anyone who can write a session log controls it. Two things keep it
// from reaching the terminal as anything but styled text:
//
//   - before rendering, [neutralise] turns every '<' and '&' outside code
//     blocks into a character reference, so glamour sees no raw HTML, no
//     <autolink> and no character reference of the author's (glamour
//     decodes references everywhere, code spans included, so "&#27;"
//     would otherwise become an ESC byte);
//   - after rendering, [styleOnly] keeps only SGR styling and newlines,
//     dropping every other escape sequence (the OSC 8 hyperlinks glamour
//     wraps around links, say) and every other control character.
//
// Links therefore show as their text followed by their URL, never as a
// clickable hyperlink. Code blocks are not syntax highlighted: the lexer
// would be chosen by, and run over, untrusted text.

// markdownParser parses as glamour does (GFM and definition lists), so
// the code blocks it finds are the ones glamour will render.
var markdownParser = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))
})

// maxNeutralisePasses bounds the passes [neutralise] makes before it
// escapes everything, code blocks included.
const maxNeutralisePasses = 4

// neutralise returns Markdown that renders as src does, except that no
// '<' or '&' outside a code block keeps a meaning: each becomes "&lt;" or
// "&amp;", which glamour turns back into the one character. Inside code
// blocks, which glamour prints verbatim, they stay as they are.
//
// Escaping a '<' can change the block structure (a line that opened an
// HTML block becomes a paragraph, which can absorb an indented code block
// below it), so the source is parsed again after each pass until every
// unescaped '<' and '&' is still inside a code block. Each pass is one
// linear parse; a source that does not settle within a few passes is
// escaped everywhere, which is safe but shows "&lt;" inside its code.
func neutralise(src string) string {
	if !strings.ContainsAny(src, "<&") {
		return src
	}
	esc := make([]bool, len(src))
	for range maxNeutralisePasses {
		out, at := escapeAt(src, esc)
		code := codeSegments(out)
		changed := false
		k := 0
		for i := 0; i < len(src); i++ {
			if c := src[i]; (c != '<' && c != '&') || esc[i] {
				continue
			}
			p := at[i]
			for k < len(code) && code[k].Stop <= p {
				k++
			}
			if k < len(code) && code[k].Start <= p {
				continue // inside a code block: printed verbatim
			}
			esc[i] = true
			changed = true
		}
		if !changed {
			return out
		}
	}
	for i := range esc {
		esc[i] = src[i] == '<' || src[i] == '&'
	}
	out, _ := escapeAt(src, esc)
	return out
}

// escapeAt returns src with the bytes marked in esc replaced by their
// character reference, and where each byte of src landed in the result.
func escapeAt(src string, esc []bool) (string, []int) {
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	at := make([]int, len(src))
	for i := 0; i < len(src); i++ {
		at[i] = b.Len()
		switch {
		case !esc[i]:
			b.WriteByte(src[i])
		case src[i] == '<':
			b.WriteString("&lt;")
		default:
			b.WriteString("&amp;")
		}
	}
	return b.String(), at
}

// codeSegments returns the byte ranges of src that glamour prints
// verbatim (the lines of fenced and indented code blocks), in order.
func codeSegments(src string) []text.Segment {
	source := []byte(src)
	doc := markdownParser().Parser().Parse(text.NewReader(source))
	var segs []text.Segment
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				segs = append(segs, lines.At(i))
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return segs
}

// markdownRenderer renders turns at one width with one style.
type markdownRenderer struct {
	r *glamour.TermRenderer
}

// newMarkdownRenderer returns a renderer wrapping at width cells. Code
// blocks are drawn in the style's code colours without highlighting.
func newMarkdownRenderer(style gansi.StyleConfig, width int) (markdownRenderer, error) {
	style.CodeBlock.Chroma = nil
	style.CodeBlock.Theme = ""
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(width))
	return markdownRenderer{r: r}, err
}

// render renders one turn's text: made printable line by line, then
// neutralised, rendered, and stripped of everything but SGR styling. If
// glamour fails, the printable text is shown as it is.
func (mr markdownRenderer) render(turn string) string {
	safe := textutil.Block(turn)
	if mr.r != nil {
		if out, err := mr.r.Render(neutralise(safe)); err == nil {
			return styleOnly(strings.Trim(out, "\n"))
		}
	}
	return safe
}
