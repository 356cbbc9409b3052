package card

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A binding the host disabled never fires and never shows in help, and
// the card's state does not enable it again.
func TestDisabledBindingNeverFires(t *testing.T) {
	_, msg := prepared(t)
	keys := DefaultKeyMap()
	keys.Toggle.SetEnabled(false)
	c := New(msg)
	c.SetKeyMap(keys)
	c.SetWidth(80)
	ctrlO := tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl}
	if c, _ = c.Update(ctrlO); c.Expanded() || c.KeyMap().Toggle.Enabled() {
		t.Fatal("a disabled Toggle fired or shows in help")
	}
	c.SetKeyMap(DefaultKeyMap())
	if c, _ = c.Update(ctrlO); !c.Expanded() {
		t.Fatal("the enabled Toggle did not fire: the check proves nothing")
	}
}
