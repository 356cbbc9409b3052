package sessionref_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/dshkit/mentions/fakestore"
	"github.com/dshkit/mentions/sessionref"
)

// longStore is a host's store whose sessions are long: it offers
// outlines, so Prepare reads the text of only the messages a snapshot
// keeps (here from memory; a real store reads them from disk).
type longStore struct {
	*fakestore.Store
	texts []string // the session's messages, oldest first
	read  int      // texts Prepare asked for
}

func (s *longStore) ReadOutline(ctx context.Context, id string) (sessionref.Outline, error) {
	out := sessionref.Outline{Session: sessionref.SessionHeader{ID: id}}
	for _, t := range s.texts {
		e := sessionref.Event{Type: sessionref.EventUserMessage, Source: sessionref.Source{Kind: sessionref.SourceUser},
			Content: []sessionref.Block{sessionref.TextBlock(t)}}
		if m, ok := sessionref.OutlineOf(&e); ok {
			out.Messages = append(out.Messages, m)
		}
	}
	out.Text = func(ctx context.Context, i int) (string, error) {
		s.read++
		return s.texts[i], nil
	}
	return out, nil
}

// A store of long sessions implements OutlineReader: Prepare then reads
// each referenced session's outline and the text of only the messages
// its byte budget keeps.
func ExampleOutlineReader() {
	s := &longStore{Store: fakestore.New()}
	s.Create("long", nil, fakestore.DefaultNow)
	for i := range 10_000 {
		s.texts = append(s.texts, fmt.Sprintf("message %d %s", i, strings.Repeat("word ", 20)))
	}
	r, _ := sessionref.NewResolver(s, sessionref.Config{MaxReferenceBytes: 4096})
	out, _ := r.Prepare(context.Background(), sessionref.Target{ID: "current"}, nil, []sessionref.Reference{{SessionID: "long"}})
	rec := out.Context.Source.References[0]
	fmt.Println(rec.OriginalMessages, "messages,", rec.RetainedMessages, "kept,", s.read, "texts read")
	// Output: 10000 messages, 28 kept, 29 texts read
}
