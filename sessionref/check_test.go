package sessionref

import (
	"errors"
	"testing"
)

func TestCheckSurface(t *testing.T) {
	events, _ := fixtureF()
	if err := CheckSurface(Surface{Events: events}); err != nil {
		t.Fatalf("fixture F: %v", err)
	}
	bad := []Event{
		{Type: EventUserMessage, Content: []Block{TextBlock("typed, Kind left empty")}},
		{Type: EventUserMessage, Source: Source{Kind: "User"}, Content: []Block{TextBlock("x")}},
		{Type: EventUserMessage, Source: Source{Plugin: PluginCompact}, Content: []Block{TextBlock("summary")}},
		{Type: "assistant_message", Content: []Block{TextBlock("reply")}},
		userEv("fine"),
	}
	err := CheckSurface(Surface{Events: bad})
	var issues []int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var si *SurfaceIssue
		if !errors.As(e, &si) {
			t.Fatalf("not a *SurfaceIssue: %v", e)
		}
		issues = append(issues, si.Index)
	}
	if len(issues) != 4 || issues[0] != 0 || issues[3] != 3 {
		t.Fatalf("issues at %v: %v", issues, err)
	}
	// What CheckSurface reports is indeed lost by Prepare.
	m := newMemStore()
	m.put("s", nil, 1, nil, bad...)
	r, _ := NewResolver(m, Config{})
	p, err := r.Prepare(t.Context(), Target{ID: "t"}, nil, []Reference{{SessionID: "s"}})
	if err != nil || p.Context.Source.References[0].OriginalMessages != 1 {
		t.Fatalf("Prepare kept %+v (%v)", p.Context.Source.References, err)
	}
}
