package sessionref

import (
	"strconv"
	"strings"
)

// Roles of a snapshot conversation turn.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// item is one projected message. Its text is only built (joined and made
// valid UTF-8) when the message is kept, so a dropped message costs O(1)
// in its length.
type item struct {
	ev         *Event
	assistant  bool
	checkpoint bool
	rawLen     int // B(original): raw UTF-8 length of the joined text

	kept     bool
	original string // the joined text, once built
	text     string // the current, possibly truncated, text
	omitted  int    // bytes omitted by truncation
}

// project walks a surface and keeps human prompts, compaction checkpoints
// and assistant messages that have text (spec §6). Other sources (plugins,
// instructions, earlier session references) and tool results are left out.
func project(events []Event) []item {
	items := make([]item, 0, len(events))
	for i := range events {
		e := &events[i]
		var it item
		switch e.Type {
		case EventUserMessage:
			it.checkpoint = e.Source.IsCheckpoint()
			if !it.checkpoint && e.Source.Kind != SourceUser {
				continue
			}
		case EventAssistantMessage:
			it.assistant = true
		default:
			continue
		}
		n, texts := 0, 0
		for _, b := range e.Content {
			if b.Type == BlockText {
				n += len(b.Text)
				texts++
			}
		}
		if texts == 0 || texts == 1 && n == 0 {
			continue
		}
		it.ev = e
		it.rawLen = n + texts - 1
		items = append(items, it)
	}
	return items
}

// build joins the item's text blocks with "\n".
func (it *item) build() {
	if it.kept {
		return
	}
	it.kept = true
	var parts []string
	for _, b := range it.ev.Content {
		if b.Type == BlockText {
			parts = append(parts, b.Text)
		}
	}
	if len(parts) == 1 {
		it.original = validOrReplaced(parts[0])
	} else {
		it.original = validOrReplaced(strings.Join(parts, "\n"))
	}
	it.text = it.original
}

func (it *item) role() string {
	if it.assistant {
		return RoleAssistant
	}
	return RoleUser
}

// size is the item's serialized size in the conversation array.
func (it *item) size() int {
	if it.assistant {
		return 28 + tagSafeLen(it.text) // {"role":"assistant","text":…}
	}
	return 23 + tagSafeLen(it.text) // {"role":"user","text":…}
}

// retained is the result of fitting one source into its budget.
type retained struct {
	object []byte // the tag-safe JSON data object
	record ReferenceRecord
}

// retain fits one source's projected conversation into max bytes of
// tag-safe JSON, as the reference does (spec §8), in linear time: drop the
// oldest non-checkpoint messages (never the newest), then cut the longest
// text around an exact notice until the object fits.
func retain(head []byte, items []item, max int) (retained, bool) {
	base := len(head) + 2 // the object with "conversation":[]
	n := len(items)
	var res retained
	res.record.OriginalMessages = n
	for i := range items {
		if items[i].checkpoint {
			res.record.Compacted = true
		}
	}

	// Phase 1, as one backward pass. Checkpoints and the newest item stay;
	// the other items form a suffix that is kept while it fits. The
	// reference drops from the front while too large, which keeps exactly
	// the longest fitting suffix.
	size := base
	if n > 0 {
		size-- // n items have n-1 separators
	}
	for i := range items {
		if items[i].checkpoint || i == n-1 {
			items[i].build()
			size += items[i].size() + 1
		}
	}
	dropFrom := -1 // items[0..dropFrom] that are not checkpoints are dropped
	for i := n - 2; i >= 0; i-- {
		it := &items[i]
		if it.checkpoint {
			continue
		}
		if size > max {
			dropFrom = i
			break
		}
		it.build()
		s := it.size() + 1
		if size+s > max {
			it.kept = false
			dropFrom = i
			break
		}
		size += s
	}
	dropped := 0
	kept := make([]*item, 0, n)
	for i := range items {
		it := &items[i]
		if i <= dropFrom && !it.checkpoint {
			it.kept = false
			res.record.OmittedMessages++
			dropped += it.rawLen
			continue
		}
		kept = append(kept, it)
	}

	// Phase 2: truncate the longest text until the object fits.
	for size > max {
		var longest *item
		for _, it := range kept {
			if longest == nil || len(it.text) > len(longest.text) {
				longest = it
			}
		}
		if longest == nil || len(longest.text) == 0 {
			return retained{}, false
		}
		target := len(longest.text) - (size - max)
		if target < 0 {
			target = 0
		}
		text, omitted := truncateWithNotice(longest.original, target)
		if text == longest.text {
			return retained{}, false
		}
		before := longest.size()
		longest.text, longest.omitted = text, omitted
		size += longest.size() - before
	}

	res.record.RetainedMessages = len(kept)
	res.record.OmittedBytes = dropped
	for _, it := range kept {
		res.record.OmittedBytes += it.omitted
	}
	res.record.Truncated = res.record.OmittedMessages > 0 || res.record.OmittedBytes > 0

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
	res.object = append(obj, ']', '}')
	return res, true
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
