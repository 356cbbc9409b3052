package picker

import "testing"

// A binding the host disabled never fires, is not wanted from the host
// and never shows in help, and the picker's state does not enable it.
func TestDisabledBindingNeverFires(t *testing.T) {
	keys := DefaultKeyMap()
	keys.Down.SetEnabled(false)
	m := openWith(t, newTestPicker(&fakeSource{}, withKeyMap(keys)), "")
	if m.WantsKey(press("down")) || m.KeyMap().Down.Enabled() {
		t.Fatal("a disabled Down is wanted or shows in help")
	}
	before := m.Cursor()
	if m, _ = m.Update(press("down")); m.Cursor() != before {
		t.Fatal("a disabled Down moved the cursor")
	}
	m.SetKeyMap(DefaultKeyMap())
	if m, _ = m.Update(press("down")); m.Cursor() == before {
		t.Fatal("the enabled Down did not move: the check proves nothing")
	}
}
