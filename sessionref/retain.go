package sessionref

import (
	"container/heap"
	"context"
	"strconv"
	"strings"
)

// Roles of a snapshot conversation turn.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// item is one projected message that is kept. Only kept messages are
// built (joined and made valid UTF-8); a dropped message costs O(1) in its
// length.
type item struct {
	index      int // position in the surface
	assistant  bool
	checkpoint bool
	rawLen     int    // B(original): raw UTF-8 length of the joined text, as stored (a dropped message counts it)
	original   string // the joined text
	text       string // the current, possibly truncated, text
	omitted    int    // bytes omitted by truncation
	esc        int    // tagSafeLen(text), kept up to date
	pos        int    // position among the kept items
}

// classify applies the projection (docs/snapshot.md, section 3) to one
// surface event: human prompts, compaction checkpoints and assistant
// messages with text are kept; other sources (plugins, instructions,
// earlier session references) and tool results are not. It returns the raw length of the joined text
// without building it.
func classify(e *Event) (ok, assistant, checkpoint bool, rawLen int) {
	switch e.Type {
	case EventUserMessage:
		checkpoint = e.Source.IsCheckpoint()
		if !checkpoint && e.Source.Kind != SourceUser {
			return false, false, false, 0
		}
	case EventAssistantMessage:
		assistant = true
	default:
		return false, false, false, 0
	}
	n, texts := 0, 0
	for i := range e.Content {
		if b := &e.Content[i]; b.Type == BlockText {
			n += len(b.Text)
			texts++
		}
	}
	if texts == 0 || texts == 1 && n == 0 {
		return false, false, false, 0
	}
	return true, assistant, checkpoint, n + texts - 1
}

// newItem builds the kept item of entry i of l.
func newItem(ctx context.Context, l messages, i int) (item, error) {
	_, assistant, checkpoint, rawLen := l.class(i)
	text, err := l.text(ctx, i)
	if err != nil {
		return item{}, err
	}
	text = validOrReplaced(text)
	return item{index: i, assistant: assistant, checkpoint: checkpoint, rawLen: rawLen, original: text, text: text, esc: tagSafeLen(text)}, nil
}

func (it *item) role() string {
	if it.assistant {
		return RoleAssistant
	}
	return RoleUser
}

// size is the item's serialized size in the conversation array.
func (it *item) size() int {
	return it.frame() + it.esc
}

// frame is the item's size without its text: {"role":"user","text":}
// or {"role":"assistant","text":}.
func (it *item) frame() int {
	if it.assistant {
		return 28
	}
	return 23
}

// retained is the result of fitting one source into its budget.
type retained struct {
	object []byte // the tag-safe JSON data object
	record ReferenceRecord
}

// retain fits one source's projected conversation into max bytes of
// tag-safe JSON exactly as the reference does (docs/snapshot.md, section
// 5): drop the oldest non-checkpoint messages, never the newest, while
// too large; then cut the longest text around an exact notice until the
// object fits.
//
// It runs in time linear in the number of events plus the bytes it keeps,
// whatever the shape: dropping is one backward pass, the longest text is
// taken from a heap (O(log n) a cut, not a scan of every kept message), an
// object that cannot fit even with every text cut to nothing fails at
// once, and each cut costs the bytes it keeps. It checks ctx as it goes
// and returns errCancelled when ctx ends; ok=false is BUDGET_EXCEEDED.
func retain(ctx context.Context, head []byte, events messages, max int) (res retained, ok bool, err error) {
	r := retainer{ctx: ctx, events: events, max: max}
	// Pass 1: count, and find what is kept whatever the budget.
	c, err := r.count()
	if err != nil || c.n > 0 && c.least(len(head), events) > max {
		return retained{}, false, err
	}
	fixed, err := r.fixedItems(c)
	if err != nil {
		return retained{}, false, err
	}
	res.record.OriginalMessages = c.n
	res.record.Compacted = c.nfixed > 1
	size := len(head) + 2 // the object with "conversation":[]
	if c.n > 0 {
		size-- // n items have n-1 separators
	}
	for i := range fixed {
		size += fixed[i].size() + 1
	}
	suffix, size, err := r.suffix(c.last, size)
	if err != nil {
		return retained{}, false, err
	}
	kept, keptRaw, floor := merge(fixed, suffix, size)
	res.record.OmittedMessages = c.n - len(kept)
	dropped := c.totalRaw - keptRaw

	// Phase 2: truncate the longest text until the object fits. With
	// every text cut to "" the object is floor bytes; the reference would
	// cut them all and then fail, so fail now.
	if size > max && floor > max {
		return retained{}, false, nil
	}
	if size > max {
		if ok, err := r.cut(kept, size); !ok || err != nil {
			return retained{}, false, err
		}
	}

	res.record.RetainedMessages = len(kept)
	res.record.OmittedBytes = dropped
	for _, it := range kept {
		res.record.OmittedBytes += it.omitted
	}
	res.record.Truncated = res.record.OmittedMessages > 0 || res.record.OmittedBytes > 0
	res.object = serialize(head, kept, size)
	return res, true, nil
}

// retainer is one retention's reading of its messages.
type retainer struct {
	ctx    context.Context
	events messages
	max    int
	tick   int
}

// cancelled reports, every ctxCheckEvery steps, whether ctx has ended.
func (r *retainer) cancelled() bool {
	if r.tick++; r.tick%ctxCheckEvery != 0 {
		return false
	}
	return r.ctx.Err() != nil
}

// counts is pass 1's result: the projected messages, their raw bytes, the
// newest one's index (-1 for none) and how many are kept whatever the
// budget (the checkpoints, and one for the newest).
type counts struct {
	n, totalRaw, last, nfixed int
}

// count is pass 1.
func (r *retainer) count() (counts, error) {
	c := counts{last: -1, nfixed: 1}
	for i := range r.events.len() {
		if r.cancelled() {
			return counts{}, r.ctx.Err()
		}
		ok, _, checkpoint, rawLen := r.events.class(i)
		if !ok {
			continue
		}
		c.n++
		c.totalRaw += rawLen
		c.last = i
		if checkpoint {
			c.nfixed++
		}
	}
	return c, nil
}

// least is the object's size with every kept text cut to nothing: the
// checkpoints and the newest message alone. Beyond the budget, retention
// fails before reading any text.
func (c counts) least(head int, events messages) int {
	_, lastAssistant, lastCheckpoint, _ := events.class(c.last)
	least := head + 1 + (c.nfixed-1)*(23+2+1)
	if !lastCheckpoint {
		least += 23 + 2 + 1
		if lastAssistant {
			least += 5
		}
	}
	return least
}

// fixedItems builds what is kept whatever the budget, in surface order:
// the checkpoints (counted first, so their slice is allocated once) and
// the newest message.
func (r *retainer) fixedItems(c counts) ([]item, error) {
	fixed := make([]item, 0, c.nfixed)
	for i := 0; i <= c.last && len(fixed) < c.nfixed-1; i++ {
		if r.cancelled() {
			return nil, r.ctx.Err()
		}
		if ok, _, checkpoint, _ := r.events.class(i); ok && checkpoint {
			it, err := newItem(r.ctx, r.events, i)
			if err != nil {
				return nil, err
			}
			fixed = append(fixed, it)
		}
	}
	if c.n > 0 && !(len(fixed) > 0 && fixed[len(fixed)-1].index == c.last) {
		it, err := newItem(r.ctx, r.events, c.last)
		if err != nil {
			return nil, err
		}
		fixed = append(fixed, it)
	}
	return fixed, nil
}

// suffix is phase 1 as one backward pass: the reference drops from the
// front while too large, which keeps exactly the longest suffix of the
// droppable messages that fits. It returns that suffix, newest first, and
// the object's size with it.
func (r *retainer) suffix(last, size int) ([]item, int, error) {
	var suffix []item // newest first
	for i := last - 1; i >= 0 && size <= r.max; i-- {
		if r.cancelled() {
			return nil, 0, r.ctx.Err()
		}
		ok, _, checkpoint, _ := r.events.class(i)
		if !ok || checkpoint {
			continue
		}
		it, err := newItem(r.ctx, r.events, i)
		if err != nil {
			return nil, 0, err
		}
		s := it.size() + 1
		if size+s > r.max {
			break
		}
		size += s
		suffix = append(suffix, it)
	}
	return suffix, size, nil
}

// merge puts the fixed items and the suffix (newest first) in surface
// order, numbering them, and returns their raw bytes and floor: the
// object's size with every kept text cut to nothing.
func merge(fixed, suffix []item, size int) (kept []*item, keptRaw, floor int) {
	kept = make([]*item, 0, len(fixed)+len(suffix))
	floor = size
	for f, s := 0, len(suffix)-1; f < len(fixed) || s >= 0; {
		var it *item
		if s < 0 || f < len(fixed) && fixed[f].index < suffix[s].index {
			it, f = &fixed[f], f+1
		} else {
			it, s = &suffix[s], s-1
		}
		it.pos = len(kept)
		keptRaw += it.rawLen
		floor -= it.esc - tagSafeLen("")
		kept = append(kept, it)
	}
	return kept, keptRaw, floor
}

// cut is phase 2: it cuts the longest text until the object of size
// bytes fits, and reports false when it cannot.
func (r *retainer) cut(kept []*item, size int) (bool, error) {
	h := append(longestFirst(nil), kept...) // a copy: kept keeps its order
	heap.Init(&h)
	for size > r.max {
		if r.cancelled() {
			return false, r.ctx.Err()
		}
		longest := h[0]
		if len(longest.text) == 0 {
			return false, nil
		}
		target := max(len(longest.text)-(size-r.max), 0)
		text, omitted := truncateWithNotice(longest.original, target)
		if text == longest.text {
			return false, nil
		}
		esc := tagSafeLen(text)
		size += esc - longest.esc
		longest.text, longest.omitted, longest.esc = text, omitted, esc
		heap.Fix(&h, 0)
	}
	return true, nil
}

// serialize writes the data object: head, then the kept turns.
func serialize(head []byte, kept []*item, size int) []byte {
	obj := make([]byte, 0, size)
	obj = append(obj, head...)
	for i, it := range kept {
		if i > 0 {
			obj = append(obj, ',')
		}
		obj = append(obj, `{"role":`...)
		obj = appendJSString(obj, it.role(), true)
		obj = append(obj, `,"text":`...)
		obj = appendJSString(obj, it.text, true)
		obj = append(obj, '}')
	}
	return append(obj, ']', '}')
}

// ctxCheckEvery is how many steps of retention run between two looks at
// the context: often enough to stop within microseconds, rarely enough
// to cost nothing.
const ctxCheckEvery = 256

// longestFirst is a heap of kept items, the first with the largest raw
// text on top: the reference's "first item with the largest B(text)".
type longestFirst []*item

func (h longestFirst) Len() int { return len(h) }
func (h longestFirst) Less(i, j int) bool {
	if a, b := len(h[i].text), len(h[j].text); a != b {
		return a > b
	}
	return h[i].pos < h[j].pos
}
func (h longestFirst) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *longestFirst) Push(x any)   { *h = append(*h, x.(*item)) }
func (h *longestFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// objectHead is the data object up to and including "conversation":[.
func objectHead(id, label string, cwd *string, seq *int64) []byte {
	b := make([]byte, 0, 96+len(id)+len(label))
	b = append(b, `{"sessionId":`...)
	b = appendJSString(b, validOrReplaced(id), true)
	b = append(b, `,"label":`...)
	b = appendJSString(b, validOrReplaced(label), true)
	b = append(b, `,"cwd":`...)
	if cwd == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSString(b, validOrReplaced(*cwd), true)
	}
	b = append(b, `,"capturedThroughSeq":`...)
	if seq == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, *seq, 10)
	}
	return append(b, `,"conversation":[`...)
}

// noticeLen is the raw length of the truncation notice for om bytes.
func noticeLen(om int) int {
	return 31 + len(strconv.Itoa(om))
}

// truncateWithNotice keeps a head and a tail of text that, with a notice
// of the exact number of bytes left out, take at most m raw bytes. It is
// the reference's binary search on the kept length, which is not monotone
// (the notice's digits and the UTF-8 cuts vary), kept exactly; each probe
// is O(1) and only the answer is built.
func truncateWithNotice(text string, m int) (string, int) {
	total := len(text)
	if total <= m {
		return text, 0
	}
	bestR, found := 0, false
	for lo, hi := 0, m; lo <= hi; {
		r := (lo + hi) / 2
		hs, he, ts, te, om := headTail(text, (r+1)/2, r/2)
		if (he-hs)+(te-ts)+noticeLen(om) <= m {
			bestR, found = r, true
			lo = r + 1
		} else {
			hi = r - 1
		}
	}
	if !found {
		return "", total
	}
	hs, he, ts, te, om := headTail(text, (bestR+1)/2, bestR/2)
	var b strings.Builder
	b.Grow(m)
	b.WriteString(text[hs:he])
	b.WriteString(text[ts:te])
	b.WriteString("\n[… omitted ")
	b.WriteString(strconv.Itoa(om))
	b.WriteString(" UTF-8 bytes …]")
	return b.String(), om
}

const bom = "\uFEFF"

// headTail cuts the first h and last t bytes of x at UTF-8 boundaries and
// returns the kept ranges x[hs:he] and x[ts:te], with the bytes omitted
// between them. Like a WHATWG decoder, each side drops one leading BOM,
// which still counts as kept, not omitted.
func headTail(x string, h, t int) (hs, he, ts, te, om int) {
	total := len(x)
	he = h
	if h > 0 {
		j := h - 1
		for steps := 0; j > 0 && steps < 3 && isContinuation(x[j]); steps++ {
			j--
		}
		if lead := x[j]; lead < 0xF8 {
			if h-j < seqLen(lead) {
				he = j
			}
		}
	}
	ts, te = total, total
	if t > 0 {
		ts = total - t
		for ts < total && isContinuation(x[ts]) {
			ts++
		}
	}
	om = total - he - (te - ts)
	if strings.HasPrefix(x[:he], bom) {
		hs = len(bom)
	}
	if strings.HasPrefix(x[ts:], bom) {
		ts += len(bom)
	}
	return hs, he, ts, te, om
}

func isContinuation(c byte) bool { return c&0xC0 == 0x80 }

// seqLen is the sequence length a lead byte declares.
func seqLen(lead byte) int {
	switch {
	case lead < 0x80:
		return 1
	case lead < 0xE0:
		return 2
	case lead < 0xF0:
		return 3
	}
	return 4
}
