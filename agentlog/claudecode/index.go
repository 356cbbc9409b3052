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
// per projected message an agentlog.Message (24 bytes); besides that the
// titles and a fixed few hundred bytes.
type index struct {
	p     fastjson.Parser
	ids   map[key]int32
	nodes []node
	msgs  []agentlog.Message
	leaf  int32 // the last user or assistant line's node, -1 for none

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
	if r.UUID == "" || r.IsSidechain {
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
// earlier in the file, so no chain can loop.
func (ix *index) link(n int, off int64, length int, r *record) {
	nd := node{parent: -1, msg: -1}
	if r.ParentUUID != nil {
		if p, ok := ix.ids[keyOf(*r.ParentUUID)]; ok {
			nd.parent = p
		}
	}
	if text, kind := project(r); kind != 0 {
		nd.msg = int32(len(ix.msgs))
		ix.msgs = append(ix.msgs, agentlog.Message{Off: off, Len: uint32(length), Line: int32(n), Bytes: uint32(len(text)), Kind: kind})
		if kind == agentlog.KindUser && ix.firstPerson == nil {
			ix.firstPerson = &titleRec{agentlog.FirstLine(strings.TrimSpace(text), 100), n, agentlog.Millis(r.Timestamp)}
		}
	}
	id := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, nd)
	ix.ids[keyOf(r.UUID)] = id
	if r.Type == "user" || r.Type == "assistant" {
		ix.leaf = id
	}
}

// Long counts a line over the cap.
func (ix *index) Long(int, int64, int64) { ix.bad++ }

// Size is about what the index holds.
func (ix *index) Size() int64 {
	return int64(len(ix.nodes))*48 + int64(cap(ix.msgs))*24 + int64(len(ix.summaries))*64 + 512
}

// Conversation walks back from the last user or assistant line to its
// root: the current branch (a rewind or an edit left the others), which
// a compaction boundary starts afresh.
func (ix *index) Conversation() []agentlog.Message {
	var out []agentlog.Message
	for i := ix.leaf; i >= 0; i = ix.nodes[i].parent {
		if m := ix.nodes[i].msg; m >= 0 {
			out = append(out, ix.msgs[m])
		}
	}
	slices.Reverse(out)
	return out
}

// Summary is the header, the title and the counts. The title is the
// newest custom title (a rename), else the newest AI title, else the
// newest summary line whose leaf is in this file (clients have written
// other sessions' summaries into a file), else the first line of the
// person's first message.
func (ix *index) Summary() agentlog.Summary {
	s := agentlog.Summary{Cwd: ix.cwd, HasCwd: ix.hasCwd, Created: agentlog.Millis(ix.first), Updated: agentlog.Millis(ix.last),
		Bad: ix.bad, Unknown: ix.unknown, Empty: ix.leaf < 0}
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
