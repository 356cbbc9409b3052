package picker_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// A host whose store lists sessions by last activity (and sets
// SessionHeader.UpdatedAt) shows that age in the rows. The store has no
// folders, so no folder column and no badge take room from the label.
func ExampleWithAge() {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	cands := []sessionref.Candidate{
		{SessionID: "s-1", Label: "Fix the parser", CreatedAt: sessionref.Millis(now.AddDate(0, -2, 0)),
			UpdatedAt: sessionref.Millis(now.Add(-5 * time.Minute)), Rank: sessionref.RankNoCwd},
		{SessionID: "s-2", Label: "Release notes", CreatedAt: sessionref.Millis(now.AddDate(0, 0, -3)),
			Rank: sessionref.RankNoCwd},
	}
	p := picker.New(picker.SourceFunc(nil), picker.WithAge(picker.LastActive),
		picker.WithClock(func() time.Time { return now }))
	p.SetScreenSize(50, 10)
	p.SetAnchor(0, 9)
	_ = p.Open("")
	p, _ = p.Update(picker.NewAnswerMsg(p, picker.SessionsID, "", picker.Answer{Candidates: cands}))
	for _, row := range strings.Split(ansi.Strip(p.View()), "\n")[1:3] {
		fmt.Println(strings.Join(strings.Fields(strings.Trim(row, "│")), " "))
	}
	fmt.Println(picker.Created(cands[0]).Format(time.DateOnly))
	// Output:
	// › Fix the parser s-1 5m ago
	// Release notes s-2 3d ago
	// 2026-10-03
}
