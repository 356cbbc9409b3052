package claudecode

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/sessionref"
)

// node is one line of the conversation graph: any line with a uuid that
// is not a sidechain's.
type node struct {
	parent int32 // the parent's node, -1 for a root
	msg    int32 // its projected message in index.msgs, -1 for none
}

// titleRec is a title line seen.
type titleRec struct {
	text string
	line int
	at   int64
}

// summaryRec is a summary line seen, kept until its leaf can be checked.
type summaryRec struct {
	titleRec
	leaf key
}

// rider is a queued prompt written without a uuid (older releases): it
// rides on the conversation line that was the tip when it was written.
type rider struct {
	after int32 // that line's node, -1 for none
	msg   int32 // its message in index.msgs
}

// maxSummaries is how many summary lines an index keeps to pick from:
// the newest.
const maxSummaries = 64

// key is a uuid as 16 bytes: parsed when it is in canonical form, else
// the first 16 bytes of its SHA-256.
type key [16]byte

func keyOf(s string) key {
	var k key
	if len(s) == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-' {
		h := s[:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
		if _, err := hex.Decode(k[:], []byte(h)); err == nil && strings.ToLower(h) == h {
			return k
		}
	}
	sum := sha256.Sum256([]byte(s))
	copy(k[:], sum[:16])
	return k
}

// index is a Claude Code transcript's index. Per line with a uuid it
// keeps a node (8 bytes) and an entry in the uuid map (about 40 bytes);
// per projected message an agentlog.Message (24 bytes); per queued
// prompt without a uuid a rider (8 bytes), per one naming the uuid it
// was queued under an entry in sources (about 40 bytes); besides that
// the titles and a fixed few hundred bytes.
type index struct {
	p       fastjson.Parser
	ids     map[key]int32
	nodes   []node
	msgs    []agentlog.Message
	leaf    int32 // the last conversation line's node, -1 for none
	riders  []rider
	sources map[int32]key // a queued prompt's message → the uuid it was queued under

	cwd          string
	hasCwd       bool
	first, last  string // timestamps
	bad, unknown int
	custom, ai   *titleRec
	summaries    []summaryRec
	firstPerson  *titleRec
}

func newIndex() agentlog.Index { return &index{ids: map[key]int32{}, leaf: -1} }

// knownTypes are the line types this reader knows, read or not.
var knownTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "summary": true,
	"custom-title": true, "ai-title": true, "agent-name": true,
	"file-history-snapshot": true, "queue-operation": true, "progress": true,
	"attachment": true, "tag": true, "last-prompt": true, "pr-link": true,
	"mode": true, "permission-mode": true, "worktree-state": true,
}

// Line reads one line.
func (ix *index) Line(n int, off int64, line []byte) {
	r, ok := decode(&ix.p, line)
	if !ok {
		ix.bad++
		return
	}
	if !knownTypes[r.Type] {
		ix.unknown++
	}
	ix.stamp(&r)
	switch r.Type {
	case "custom-title":
		ix.custom = ix.title(r.CustomTitle, n, ix.custom)
	case "ai-title":
		ix.ai = ix.title(r.AITitle, n, ix.ai)
	case "summary":
		if r.Summary != "" {
			ix.summaries = append(ix.summaries, summaryRec{titleRec{r.Summary, n, ix.latest()}, keyOf(r.LeafUUID)})
			if len(ix.summaries) > maxSummaries {
				ix.summaries = slices.Delete(ix.summaries, 0, 1)
			}
		}
	}
	if r.IsSidechain {
		return
	}
	if r.UUID == "" {
		if r.Queued {
			if m := ix.keep(n, off, len(line), &r); m >= 0 {
				ix.riders = append(ix.riders, rider{after: ix.leaf, msg: m})
			}
		}
		return
	}
	ix.link(n, off, len(line), &r)
}

// title keeps a title line's text when it has one.
func (ix *index) title(text string, n int, old *titleRec) *titleRec {
	if text == "" {
		return old
	}
	return &titleRec{text, n, ix.latest()}
}

// stamp notes the line's working directory and time.
func (ix *index) stamp(r *record) {
	if r.IsSidechain {
		return
	}
	if !ix.hasCwd && r.Cwd != "" {
		ix.cwd, ix.hasCwd = r.Cwd, true
	}
	if r.Timestamp != "" {
		if ix.first == "" {
			ix.first = r.Timestamp
		}
		ix.last = r.Timestamp
	}
}

func (ix *index) latest() int64 { return agentlog.Millis(ix.last) }

// link adds a line with a uuid to the graph. A parent is only one seen
// earlier in the file, so no chain can loop. A user or assistant line, or
// a queued prompt kept, is the conversation's new tip.
func (ix *index) link(n int, off int64, length int, r *record) {
	nd := node{parent: -1, msg: ix.keep(n, off, length, r)}
	if r.ParentUUID != nil {
		if p, ok := ix.ids[keyOf(*r.ParentUUID)]; ok {
			nd.parent = p
		}
	}
	id := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, nd)
	ix.ids[keyOf(r.UUID)] = id
	if r.Type == "user" || r.Type == "assistant" || nd.msg >= 0 {
		ix.leaf = id
	}
}

// keep adds the line's projected message, if it has one, and returns its
// place in ix.msgs, or -1.
func (ix *index) keep(n int, off int64, length int, r *record) int32 {
	text, kind := project(r)
	if kind == 0 {
		return -1
	}
	m := int32(len(ix.msgs))
	ix.msgs = append(ix.msgs, agentlog.Message{Off: off, Len: uint32(length), Line: int32(n), Bytes: uint32(len(text)), Kind: kind})
	if kind == agentlog.KindUser && ix.firstPerson == nil {
		ix.firstPerson = &titleRec{agentlog.FirstLine(strings.TrimSpace(text), 100), n, agentlog.Millis(r.Timestamp)}
	}
	if r.Queued && r.SourceUUID != "" {
		if ix.sources == nil {
			ix.sources = map[int32]key{}
		}
		ix.sources[m] = keyOf(r.SourceUUID)
	}
	return m
}

// Long counts a line over the cap.
func (ix *index) Long(int, int64, int64) { ix.bad++ }

// Size is about what the index holds.
func (ix *index) Size() int64 {
	return int64(len(ix.nodes))*48 + int64(cap(ix.msgs))*24 + int64(len(ix.summaries))*64 +
		int64(cap(ix.riders))*8 + int64(len(ix.sources))*40 + 512
}

// Conversation walks back from the conversation's tip (the last user,
// assistant or queued prompt line) to its root: the current branch (a
// rewind or an edit left the others), which a compaction boundary starts
// afresh. Queued prompts without a uuid join it where they were written,
// when the line they ride on is on it; a prompt written twice (queued,
// and as a user line or queued again under the same uuid) is kept once,
// where it first appears.
func (ix *index) Conversation() []agentlog.Message {
	if len(ix.riders) == 0 && len(ix.sources) == 0 {
		var out []agentlog.Message
		for i := ix.leaf; i >= 0; i = ix.nodes[i].parent {
			if m := ix.nodes[i].msg; m >= 0 {
				out = append(out, ix.msgs[m])
			}
		}
		slices.Reverse(out)
		return out
	}
	chain, onChain := ix.chain()
	return ix.once(ix.merge(chain, onChain))
}

// chain is the current branch's messages (by index in ix.msgs) in order,
// and which of the nodes riders ride on are on it (-1, before any line,
// when the branch starts at the file's first line).
func (ix *index) chain() ([]int32, map[int32]bool) {
	want := make(map[int32]bool, len(ix.riders))
	for _, r := range ix.riders {
		want[r.after] = true
	}
	onChain := map[int32]bool{}
	var out []int32
	root := int32(-1)
	for i := ix.leaf; i >= 0; i = ix.nodes[i].parent {
		if m := ix.nodes[i].msg; m >= 0 {
			out = append(out, m)
		}
		if want[i] {
			onChain[i] = true
		}
		root = i
	}
	if root <= 0 {
		onChain[-1] = true
	}
	slices.Reverse(out)
	return out, onChain
}

// merge puts the riders whose line is on the branch among the branch's
// messages, in file order: a rider came after the tip it rides on and
// before the next conversation line, so its line number places it.
func (ix *index) merge(chain []int32, onChain map[int32]bool) []int32 {
	if len(ix.riders) == 0 {
		return chain
	}
	out := make([]int32, 0, len(chain)+len(ix.riders))
	i := 0
	for _, r := range ix.riders {
		if !onChain[r.after] {
			continue
		}
		for i < len(chain) && ix.msgs[chain[i]].Line < ix.msgs[r.msg].Line {
			out = append(out, chain[i])
			i++
		}
		out = append(out, r.msg)
	}
	return append(out, chain[i:]...)
}

// once drops the later copies of a prompt written twice. A queued
// prompt names the uuid it was queued under, which is the uuid of the
// user line the same prompt becomes when it is also written as one; a
// prompt queued again under the same uuid is the same prompt too.
func (ix *index) once(order []int32) []agentlog.Message {
	ident := make(map[int32]key, 2*len(ix.sources))
	for m, k := range ix.sources {
		ident[m] = k
		if n, ok := ix.ids[k]; ok {
			if tm := ix.nodes[n].msg; tm >= 0 && ix.msgs[tm].Kind == agentlog.KindUser {
				ident[tm] = k
			}
		}
	}
	seen := make(map[key]bool, len(ident))
	out := make([]agentlog.Message, 0, len(order))
	for _, m := range order {
		if k, ok := ident[m]; ok {
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, ix.msgs[m])
	}
	return out
}

// Summary is the header, the title and the counts. The title is the
// newest custom title (a rename), else the newest AI title, else the
// newest summary line whose leaf is in this file (clients have written
// other sessions' summaries into a file), else the first line of the
// person's first message.
func (ix *index) Summary() agentlog.Summary {
	s := agentlog.Summary{Cwd: ix.cwd, HasCwd: ix.hasCwd, Created: agentlog.Millis(ix.first), Updated: agentlog.Millis(ix.last),
		Bad: ix.bad, Unknown: ix.unknown, Empty: ix.leaf < 0 && len(ix.riders) == 0}
	var t *titleRec
	switch {
	case ix.custom != nil:
		t = ix.custom
	case ix.ai != nil:
		t = ix.ai
	}
	for i := len(ix.summaries) - 1; t == nil && i >= 0; i-- {
		if _, ok := ix.ids[ix.summaries[i].leaf]; ok {
			t = &ix.summaries[i].titleRec
		}
	}
	if t == nil && ix.firstPerson != nil && ix.firstPerson.text != "" {
		t = ix.firstPerson
	}
	if t != nil {
		s.Title = &sessionref.Title{Text: t.text, EventSeq: int64(t.line), UpdatedAt: t.at}
	}
	return s
}
