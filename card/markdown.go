package card

import (
	"bytes"
	"strings"

	gansi "charm.land/glamour/v2/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/dshkit/mentions/internal/textutil"
)

// This file renders one snapshot turn as Markdown. The turn is untrusted:
// anyone who can write a session log controls it. Three things keep it
// from reaching the terminal as anything but styled text:
//
//   - the Markdown read is a subset with no raw HTML, no links, images or
//     autolinks and no link reference definitions: those stay the text
//     they were written as, so a link shows its URL and is never a
//     clickable OSC 8 hyperlink, and a '<' is always just a character;
//   - before rendering, [neutralise] turns every '&' outside code blocks
//     into "&amp;", because glamour decodes character references
//     everywhere else (code spans included), and "&#27;" would otherwise
//     become an ESC byte;
//   - after rendering, [styleOnly] keeps only SGR styling and newlines,
//     whatever glamour produced.
//
// Code blocks are not syntax highlighted: the lexer would be chosen by,
// and run over, untrusted text, and highlighting is most of glamour's
// cost.

// newMarkdownParser returns the parser of that subset: CommonMark's
// headings, lists, quotes, code and emphasis, with GFM tables,
// strikethrough and task lists, and definition lists.
func newMarkdownParser() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(parser.NewSetextHeadingParser(), 100),
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(parser.NewListParser(), 300),
			util.Prioritized(parser.NewListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(parser.NewATXHeadingParser(), 600),
			util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
			util.Prioritized(parser.NewBlockquoteParser(), 800),
			util.Prioritized(parser.NewParagraphParser(), 1000),
		),
		parser.WithInlineParsers(
			util.Prioritized(parser.NewCodeSpanParser(), 100),
			util.Prioritized(parser.NewEmphasisParser(), 500),
		),
	)
}

// markdownRenderer renders turns at one width with one style. It is not
// safe for concurrent use.
type markdownRenderer struct {
	md goldmark.Markdown
}

// newMarkdownRenderer returns a renderer wrapping at width cells. Code
// blocks are drawn in the style's code colours without highlighting.
func newMarkdownRenderer(style gansi.StyleConfig, width int) markdownRenderer {
	style.CodeBlock.Chroma = nil
	style.CodeBlock.Theme = ""
	md := goldmark.New(
		goldmark.WithParser(newMarkdownParser()),
		goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.DefinitionList),
	)
	// Glamour's terminal renderer replaces the HTML one, as glamour does.
	ar := gansi.NewRenderer(gansi.Options{WordWrap: width, Styles: style})
	md.SetRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(ar, 1000))))
	return markdownRenderer{md: md}
}

// render renders one turn's text: made printable line by line,
// neutralised, rendered, and stripped of everything but SGR styling. If
// rendering fails, the printable text is shown as it is.
func (mr markdownRenderer) render(turn string) string {
	safe := textutil.Block(turn)
	var out bytes.Buffer
	if err := mr.md.Convert([]byte(mr.neutralise(safe)), &out); err != nil {
		return safe
	}
	return styleOnly(strings.Trim(out.String(), "\n"))
}

// neutralise returns src with every '&' outside a code block written as
// "&amp;", which glamour turns back into the one '&'. Code blocks, which
// glamour prints verbatim, keep theirs. An '&' never starts or ends a
// block, so the code blocks of the result are those of src: one parse,
// linear in the text.
func (mr markdownRenderer) neutralise(src string) string {
	if !strings.Contains(src, "&") {
		return src
	}
	code := codeSegments(mr.md.Parser(), src)
	var b strings.Builder
	b.Grow(len(src) + len(src)/8)
	k := 0
	for i := 0; i < len(src); i++ {
		if src[i] != '&' {
			b.WriteByte(src[i])
			continue
		}
		for k < len(code) && code[k].Stop <= i {
			k++
		}
		if k < len(code) && code[k].Start <= i {
			b.WriteByte('&')
			continue
		}
		b.WriteString("&amp;")
	}
	return b.String()
}

// codeSegments returns the byte ranges of src that glamour prints
// verbatim (the lines of fenced and indented code blocks), in order.
func codeSegments(p parser.Parser, src string) []text.Segment {
	doc := p.Parse(text.NewReader([]byte(src)))
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
