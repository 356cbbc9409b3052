package dshlog

import (
	"encoding/json"
	"slices"

	"github.com/dshkit/mentions/sessionref"
)

// Error codes of the synthetic tool results the crash-repair closers add.
const (
	CodeToolOutcomeUnknown = "TOOL_OUTCOME_UNKNOWN"
	CodeToolNotStarted     = "TOOL_NOT_STARTED"
)

// closers returns the events the reference appends, in memory only, to a
// log whose last turn is still open: a tool result for every pending call,
// then step/end if a step is open, then turn/end (interrupted). They are
// marked Synthetic: a log open on disk usually belongs to a live session.
func closers(evs []event) []event {
	turnOpen, stepOpen := false, false
	var pending []string
	callSeq := map[string]int64{}
	for _, e := range evs {
		switch e.typ {
		case "turn/start":
			turnOpen = true
		case "turn/end":
			turnOpen, stepOpen, pending = false, false, nil
			clear(callSeq)
		case "step/start":
			stepOpen = true
		case "step/end":
			stepOpen, pending = false, nil
			clear(callSeq)
		case sessionref.EventAssistantMessage:
			for _, id := range e.toolCalls {
				if !slices.Contains(pending, id) {
					pending = append(pending, id)
				}
			}
		case "tool/call":
			callSeq[e.callID] = e.seq
		case sessionref.EventToolResult:
			pending = slices.DeleteFunc(pending, func(id string) bool { return id == e.callID })
		}
	}
	if !turnOpen || len(evs) == 0 {
		return nil
	}
	last := evs[len(evs)-1]
	next, at := last.seq+1, last.time
	var out []event
	for _, id := range pending {
		code, text := CodeToolNotStarted, "The tool never started: the session stopped first."
		var sources []int64
		if s, ok := callSeq[id]; ok {
			code, text, sources = CodeToolOutcomeUnknown, "The tool's outcome is unknown: the session stopped before it reported.", []int64{s}
		}
		seq := next
		idJSON, _ := json.Marshal(id)
		inner, _ := json.Marshal([]map[string]string{{"type": "text", "text": text}})
		msg := &sessionref.Event{Seq: &seq, Type: sessionref.EventToolResult, Synthetic: true,
			Source: sessionref.Source{Kind: sessionref.SourceTool, Fields: map[string]json.RawMessage{"callId": idJSON}},
			Content: []sessionref.Block{{Type: "tool-result", Fields: map[string]json.RawMessage{
				"toolCallId": idJSON, "content": inner, "isError": json.RawMessage("true"),
				"error": json.RawMessage(`{"name":"ToolError","code":"` + code + `"}`)}}}}
		out = append(out, event{seq: seq, time: at, typ: sessionref.EventToolResult, msg: msg, sources: sources, callID: id})
		next++
	}
	if stepOpen {
		out = append(out, event{seq: next, time: at, typ: "step/end"})
		next++
	}
	return append(out, event{seq: next, time: at, typ: "turn/end"})
}

// fold computes the current surface (spec: append pushes; replace splices
// out a current range and puts the new event where it began), checking
// the fold's structure as it goes. It returns the surface as seqs, in
// surface order.
func fold(path string, evs []event) ([]int64, error) {
	var nodes []int64
	for _, e := range evs {
		if e.msg == nil {
			continue
		}
		seen := map[int64]bool{}
		for _, s := range e.sources {
			if s < 0 || s >= e.seq || seen[s] {
				return nil, logErr(path, e.line, ErrCorrupt, "sourceEventSeqs of seq %d must be unique, earlier seqs", e.seq)
			}
			seen[s] = true
		}
		if e.replace == nil {
			nodes = append(nodes, e.seq)
			continue
		}
		i, j := slices.Index(nodes, e.replace[0]), slices.Index(nodes, e.replace[1])
		if i < 0 || j < 0 || i > j {
			return nil, logErr(path, e.line, ErrCorrupt, "replace %d..%d does not name a current range", e.replace[0], e.replace[1])
		}
		for _, s := range nodes[i : j+1] {
			if !seen[s] {
				return nil, logErr(path, e.line, ErrCorrupt, "replace at seq %d does not cite shadowed seq %d", e.seq, s)
			}
		}
		if e.typ == sessionref.EventToolResult && (i != j || evs[nodes[i]].typ != sessionref.EventToolResult) {
			return nil, logErr(path, e.line, ErrCorrupt, "a tool/result replace must shadow exactly one tool/result")
		}
		nodes = slices.Replace(nodes, i, j+1, e.seq)
	}
	return nodes, nil
}
