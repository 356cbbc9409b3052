package composer

import (
	"strings"
	"testing"
)

// A binding the host disabled never fires and never shows in help, and
// the composer's state does not enable it again.
func TestDisabledBindingNeverFires(t *testing.T) {
	e := newEnv(t)
	keys := DefaultKeyMap()
	keys.InsertNewline.SetEnabled(false)
	m := typeText(e.composer(withKeyMap(keys)), "one")
	if m.KeyMap().InsertNewline.Enabled() {
		t.Fatal("a disabled InsertNewline shows in help")
	}
	if m, _ = press(m, shiftEnt); strings.Contains(m.Canonical(), "\n") {
		t.Fatalf("a disabled InsertNewline broke the line: %q", m.Canonical())
	}
	m = typeText(e.composer(), "one")
	if m, _ = press(m, shiftEnt); !strings.Contains(m.Canonical(), "\n") {
		t.Fatal("the enabled InsertNewline did not fire: the check proves nothing")
	}
}
