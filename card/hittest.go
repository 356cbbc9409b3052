package card

import "sort"

// Span is where a card sits in a transcript: the transcript line its
// first line is on (0 is the transcript's first line) and how many lines
// it takes, its [Model.Height] when it was laid out.
type Span struct {
	Top, Height int
}

// HitTest finds the card under the pointer in a scrolled transcript.
// spans are the cards in transcript order (each starting below the end
// of the one before); the transcript is drawn from screen row top,
// scrolled down by yOffset lines; y is the pointer's screen row. It
// returns the index of the card in spans and the line of that card under
// the pointer (0 is its header). The search is binary: O(log n) in the
// number of cards.
func HitTest(spans []Span, top, yOffset, y int) (index, line int, ok bool) {
	if y < top {
		return 0, 0, false
	}
	row := y - top + yOffset
	i := sort.Search(len(spans), func(i int) bool { return spans[i].Top+spans[i].Height > row })
	if i == len(spans) || row < spans[i].Top {
		return 0, 0, false
	}
	return i, row - spans[i].Top, true
}
