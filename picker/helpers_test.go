package picker

import "github.com/dshkit/mentions/sessionref"

// Shorthands for the tests: each section's answer, and the runtime
// setters as options.

func fetchedMsg(m Model, q string, cands []sessionref.Candidate, err error) AnswerMsg {
	return NewAnswerMsg(m, SessionsID, q, Answer{Candidates: cands, Err: err})
}

func hitsMsg(m Model, q string, hits []Hit, err error) AnswerMsg {
	return NewAnswerMsg(m, MessagesID, q, Answer{Hits: hits, Err: err})
}

func itemsMsg(m Model, section, q string, items []Item, err error) AnswerMsg {
	return NewAnswerMsg(m, section, q, Answer{Items: items, Err: err})
}

func withMaxRows(n int) Option         { return func(m *Model) { m.SetMaxRows(n) } }
func withWidth(w int) Option           { return func(m *Model) { m.SetWidth(w) } }
func withDisable(f DisableFunc) Option { return func(m *Model) { m.SetDisable(f) } }
func withStyles(s Styles) Option       { return func(m *Model) { m.SetStyles(s) } }
func withKeyMap(k KeyMap) Option       { return func(m *Model) { m.SetKeyMap(k) } }
func withTarget(t sessionref.Target) Option {
	return func(m *Model) { m.SetTarget(t) }
}
