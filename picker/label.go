package picker

import "github.com/dshkit/mentions/mention"

// MaxLabelWidth is the most cells a picked mention's label takes
// ([mention.MaxLabelWidth]): the editors show a chip that long whole, so
// what the user sees of the label is all that is sent.
const MaxLabelWidth = mention.MaxLabelWidth

// MentionLabel is the label a pick writes into the mention, made from a
// session's title: [mention.Label], the one rule every editor's tokens
// follow, so the row, the chip and the wire agree.
func MentionLabel(title string) string { return mention.Label(title) }
