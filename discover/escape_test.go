package discover

import (
	"slices"
	"testing"

	"github.com/dshkit/mentions/sessionref"
)

// TestWordsStuckToEscapesAreFound: a terminal's escape sequences in a
// title or a message are not indexed as text, so the words they were
// stuck to are found as the words a terminal shows.
func TestWordsStuckToEscapesAreFound(t *testing.T) {
	c := newCorpus(t)
	c.add(t, "esc", strp("/src/e"), "\x1b[31mwidget\x1b[0m rollout", "the \x1b[1mflakiness\x1b[0m of the \x1b]8;;http://x\x07scheduler\x1b]8;;\x07")
	ix := openSynced(t, c, "")
	for _, q := range []string{"widget", "flakiness", "scheduler", "widget rollout"} {
		if got := found(t, ix, c, sessionref.Target{}, q); !slices.Contains(got, "esc") {
			t.Errorf("Search(%q) = %v: the word stuck to an escape is not found", q, got)
		}
	}
}
