package sessionref

import (
	"errors"
	"slices"
	"testing"
)

// rankOrder: same working directory first, then none, then the rest, the
// store's order kept within a rank, the target itself left out.
func TestRankOrder(t *testing.T) {
	same, other := "/same", "/else"
	headers := []SessionHeader{
		{ID: "o1", Cwd: &other}, {ID: "n1"}, {ID: "s1", Cwd: &same},
		{ID: "me", Cwd: &same}, {ID: "n2"}, {ID: "s2", Cwd: &same}, {ID: "o2", Cwd: &other},
	}
	order, ranks := rankOrder(headers, Target{ID: "me", Cwd: &same})
	var ids []string
	for _, i := range order {
		ids = append(ids, headers[i].ID)
	}
	if want := []string{"s1", "s2", "n1", "n2", "o1", "o2"}; !slices.Equal(ids, want) {
		t.Fatalf("order %v, want %v", ids, want)
	}
	if want := []Rank{2, 1, 0, -1, 1, 0, 2}; !slices.Equal(ranks, want) {
		t.Fatalf("ranks %v, want %v", ranks, want)
	}
	// A target without a working directory ranks sessions without one first.
	order, _ = rankOrder(headers, Target{ID: "me"})
	if first := headers[order[0]].ID; first != "n1" {
		t.Fatalf("first %s, want n1", first)
	}
}

// labelOf: the title when there is one, else the id; an empty title stays
// empty; a failed title read labels by id.
func TestLabelOf(t *testing.T) {
	h := &SessionHeader{ID: "s1"}
	titles := []TitleResult{
		{Title: &Title{Text: "Fix the parser"}},
		{Title: &Title{Text: ""}},
		{Err: errors.New("unreadable")},
		{},
	}
	for k, want := range []string{"Fix the parser", "", "s1", "s1", "s1"} {
		if got, _ := labelOf(h, titles, k); got != want {
			t.Errorf("labelOf(%d) = %q, want %q", k, got, want)
		}
	}
}
