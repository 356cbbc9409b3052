package sessionref

import (
	"reflect"
	"testing"
)

func TestProject(t *testing.T) {
	ev := func(typ string, src Source, blocks ...Block) Event {
		return Event{Type: typ, Source: src, Content: blocks}
	}
	user, model := Source{Kind: SourceUser}, Source{Kind: SourceModel}
	events := []Event{
		ev(EventUserMessage, Source{Kind: SourcePlugin, Plugin: "@deepseek-ai/dsh-system-prompt"}, TextBlock("system prompt")),
		ev(EventUserMessage, Source{Kind: SourcePlugin, Plugin: PluginCompact}, TextBlock("summary so far")),
		ev(EventUserMessage, user, TextBlock("first"), Block{Type: "image"}, TextBlock("second\xff")),
		ev(EventToolResult, Source{Kind: SourceTool}, TextBlock("tool output")),
		ev(EventAssistantMessage, model, Block{Type: BlockReasoning, Text: "hidden reasoning"}),
		ev(EventAssistantMessage, model, Block{Type: BlockReasoning, Text: "hidden"}, TextBlock("answer")),
		ev(EventUserMessage, Source{Kind: SourceSessionReference}, TextBlock("earlier snapshot")),
		ev(EventUserMessage, user, TextBlock("")),
		ev(EventUserMessage, user, TextBlock(""), TextBlock("")),
	}
	got := Project(events)
	want := []Turn{
		{Role: RoleUser, Text: "summary so far"},
		{Role: RoleUser, Text: "first\nsecond\uFFFD"},
		{Role: RoleAssistant, Text: "answer"},
		{Role: RoleUser, Text: "\n"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Project = %#v, want %#v", got, want)
	}
	if Project(nil) != nil {
		t.Fatal("Project(nil) is not empty")
	}
}
