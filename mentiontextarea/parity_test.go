package mentiontextarea

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/composer"
	"github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// editors is the composer and the textarea adapter side by side, given
// the same messages.
type editors struct {
	c  composer.Model
	a  Model
	ta textarea.Model
}

func newEditors() *editors {
	src := picker.SourceFunc(func(context.Context, string) ([]sessionref.Candidate, error) { return nil, nil })
	tick := picker.WithTick(func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil })
	ta := textarea.New()
	ta.SetWidth(parityWidth) // no soft wrap: a line is a line in both
	ta.SetHeight(4)
	ta.CharLimit, ta.MaxHeight = 0, 0
	ta.Focus()
	c := composer.New(picker.New(src, tick), nil)
	c.SetWidth(parityWidth)
	return &editors{c: c, a: New(picker.New(src, tick)), ta: ta}
}

func (e *editors) send(msg tea.Msg) {
	e.c, _ = e.c.Update(msg)
	e.a.Update(&e.ta, msg)
}

// answer delivers an answer to each editor's open picker.
func (e *editors) answer(cs []sessionref.Candidate) {
	if p := e.c.Picker(); p.IsOpen() {
		e.c, _ = e.c.Update(picker.NewAnswerMsg(*p, picker.SessionsID, p.Query(), picker.Answer{Candidates: cs}))
	}
	if p := e.a.Picker(); p.IsOpen() {
		e.a.Update(&e.ta, picker.NewAnswerMsg(*p, picker.SessionsID, p.Query(), picker.Answer{Candidates: cs}))
	}
}

// state is what must be the same in both editors after every step.
type state struct {
	canonical, readable string
	tokens              []mention.Token
	open, accepting     bool
	query               string
}

func stateOf(canonical, readable string, toks []mention.Token, p *picker.Model) state {
	s := state{canonical: canonical, readable: readable, tokens: toks, open: p.IsOpen(), accepting: p.Accepting()}
	if s.open {
		s.query = p.Query()
	}
	return s
}

func (s state) String() string {
	return fmt.Sprintf("canonical %q readable %q tokens %v open %v accepting %v query %q",
		s.canonical, s.readable, s.tokens, s.open, s.accepting, s.query)
}

func sameState(x, y state) bool {
	return x.canonical == y.canonical && x.readable == y.readable && x.open == y.open &&
		x.accepting == y.accepting && x.query == y.query &&
		slices.EqualFunc(x.tokens, y.tokens, func(a, b mention.Token) bool {
			return a.Start == b.Start && a.End == b.End && a.Mention == b.Mention
		})
}

// parityPieces are what a paste or a typed run brings: canonical
// mentions, bare URIs and their halves, and text.
func parityPieces(t testing.TB) []string {
	c := canon(t, idA, "Fix the parser")
	u, err := sessionref.EncodeURI(idB)
	if err != nil {
		t.Fatal(err)
	}
	return []string{c, c[:11], c[11:], u, u[:13], u[13:], "see " + c + " and " + u + " ok", "@pa", "x y"}
}

// parityWidth is wider than any text a run reaches (maxParityText):
// Home and End go to the line's ends in both, never a soft-wrapped row's.
const parityWidth, maxParityText = 500, 400

// step sends one operation to both editors.
func (e *editors) step(op, arg byte, pieces []string) {
	piece := pieces[int(arg)%len(pieces)]
	if len(e.c.Readable())+len(piece) > maxParityText {
		piece = "x"
	}
	key := func(code rune) { e.send(tea.KeyPressMsg{Code: code}) }
	switch op % 14 {
	case 0:
		r := rune('a' + arg%26)
		e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	case 1:
		e.send(tea.KeyPressMsg{Code: '@', Text: "@"})
	case 2:
		e.send(tea.KeyPressMsg{Code: ' ', Text: " "})
	case 3:
		key(tea.KeyBackspace)
	case 4:
		key(tea.KeyDelete)
	case 5:
		key(tea.KeyHome)
	case 6:
		key(tea.KeyEnd)
	case 7:
		e.send(tea.PasteMsg{Content: piece})
	case 8:
		for _, r := range piece {
			e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	case 9:
		key(tea.KeyEscape)
	case 10:
		key(tea.KeyTab) // a pick, or one that waits for its answer
	case 11:
		if arg%2 == 0 {
			e.answer(cands)
		} else {
			e.answer(nil) // matched nothing
		}
	case 12, 13:
		// A move by a character or a word, while no token is in the text
		// (the textarea's cursor may stop inside one, the composer's not).
		if len(e.c.Tokens()) > 0 {
			return
		}
		moves := []tea.KeyPressMsg{{Code: tea.KeyLeft}, {Code: tea.KeyRight},
			{Code: tea.KeyLeft, Mod: tea.ModAlt}, {Code: tea.KeyRight, Mod: tea.ModAlt}}
		e.send(moves[int(arg)%len(moves)])
	}
}

func (e *editors) compare(t *testing.T, i int, op byte) {
	t.Helper()
	cs := stateOf(e.c.Canonical(), e.c.Readable(), e.c.Tokens(), e.c.Picker())
	as := stateOf(e.a.Canonical(e.ta), e.ta.Value(), e.a.Tokens(), e.a.Picker())
	if !sameState(cs, as) {
		t.Fatalf("step %d (op %d):\ncomposer %s\nadapter  %s", i, op%14, cs, as)
	}
}

// FuzzParity drives the composer and the textarea adapter with the same
// keys, pastes (canonical mentions, bare URIs, halves of them), picks,
// Esc, Backspace and Delete at tokens' edges, spaces and picker answers
// (some matching nothing), and requires the same canonical and readable
// text, the same tokens and the same picker state after every step: one
// mention model behind both.
//
// A copy of the adapter taken at a random step is checked unchanged at
// the end (copy safety). Moves by a character or a word are made only
// while the text holds no token: the textarea's cursor may stop inside a
// token's "@label", the composer's steps over it.
func FuzzParity(f *testing.F) {
	f.Add([]byte{1, 0, 0, 15, 11, 0, 10, 0, 2, 0, 0, 3})                                 // @p, answer, Tab, space after the pick
	f.Add([]byte{1, 0, 0, 25, 11, 1, 2, 0, 3, 0, 0, 4})                                  // @z matching nothing, space, Backspace
	f.Add([]byte{7, 0, 5, 0, 3, 0, 7, 3, 6, 0, 4, 0})                                    // a pasted mention, Backspace at its edge
	f.Add([]byte{7, 1, 7, 2, 8, 4, 8, 5, 2, 0, 7, 6})                                    // halves, typed, bare URIs
	f.Add([]byte{1, 0, 0, 5, 10, 0, 0, 7, 11, 0, 2, 0, 9, 0, 1, 0})                      // Tab before the answer, typed on
	f.Add([]byte{0, 1, 1, 0, 0, 2, 9, 0, 0, 3, 5, 0, 0, 4, 6, 0, 3, 0})                  // Esc, then edits
	f.Add([]byte{1, 0, 0, 0, 0, 1, 12, 0, 12, 0, 13, 1, 9, 0, 12, 2, 0, 3, 2, 0, 13, 3}) // moves into and out of @ab, Esc, words
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 160 {
			return
		}
		e := newEditors()
		pieces := parityPieces(t)
		// A copy of the adapter taken at some step is, at the end, what it
		// was then (the textarea is the host's and not copy-safe itself).
		var kept Model
		var keptState state
		copyAt := -1
		if len(ops) > 0 {
			copyAt = int(ops[len(ops)-1]) % (len(ops)/2 + 1)
		}
		for i := 0; i+1 < len(ops); i += 2 {
			if i/2 == copyAt {
				kept = e.a
				keptState = stateOf(kept.draft.Canonical(), kept.draft.Readable(), kept.Tokens(), kept.Picker())
			}
			e.step(ops[i], ops[i+1], pieces)
			if !utf8.ValidString(e.ta.Value()) {
				t.Fatalf("invalid UTF-8 in the textarea: %q", e.ta.Value())
			}
			e.compare(t, i/2, ops[i])
		}
		if copyAt >= 0 && copyAt < len(ops)/2 {
			got := stateOf(kept.draft.Canonical(), kept.draft.Readable(), kept.Tokens(), kept.Picker())
			if !sameState(got, keptState) {
				t.Fatalf("a copy of the adapter changed:\n%s\nwas\n%s", got, keptState)
			}
		}
	})
}
