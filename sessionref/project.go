package sessionref

// Project returns the messages of a surface that Prepare shows the model,
// in surface order and before any byte budget is applied: direct user
// messages, compaction checkpoints (as user turns) and assistant messages
// with text, each as the newline-joined text of its text blocks, made
// valid UTF-8. Tool results, reasoning, plugin messages and earlier
// session-reference context are left out, and a person's message in the
// single-message form ([PreparedText.SingleMessage]) gives only its direct
// message, not the snapshot it carried: snapshots never nest. Indexers use it so they hold
// exactly the text a snapshot could carry.
func Project(events []Event) []Turn {
	var out []Turn
	for i := range events {
		if ok, assistant, _, _ := classify(&events[i]); ok {
			it := item{assistant: assistant}
			text, enveloped := envelopedText(&events[i])
			if !enveloped {
				text = joinedText(&events[i])
			}
			out = append(out, Turn{Role: it.role(), Text: validOrReplaced(text)})
		}
	}
	return out
}
