module github.com/dshkit/mentions

go 1.24.2

// Requirements are floors: the lowest version whose API and fixes this
// module needs. A host chooses higher ones; .ci/run tests both ends (see
// docs/dependencies.md).
//   go 1.24.2           the floor of the Charm v2 libraries below
//   bubbletea v2.0.0    the first v2 release; nothing later is needed
//   bubbles v2.0.0      key, help, textarea, viewport as in the v2.0.0 API
//   lipgloss v2.0.0     theme.Render keeps clusters whole on v2.0.x
//   x/ansi v0.11.7      StringWidth counts a keycap (1 U+FE0F U+20E3) as 2 cells
//   x/text v0.20.0      cases and the UTF-16 decoder
//   uuid v1.6.0         NewString as used by fakestore
require (
	charm.land/bubbles/v2 v2.0.0
	charm.land/bubbletea/v2 v2.0.0
	charm.land/lipgloss/v2 v2.0.0
	github.com/charmbracelet/x/ansi v0.11.7
	github.com/google/uuid v1.6.0
	golang.org/x/text v0.20.0
)

require (
	github.com/atotto/clipboard v0.1.4 // indirect
	github.com/charmbracelet/colorprofile v0.4.2 // indirect
	github.com/charmbracelet/ultraviolet v0.0.0-20260205113103-524a6607adb8 // indirect
	github.com/charmbracelet/x/term v0.2.2 // indirect
	github.com/charmbracelet/x/termios v0.1.1 // indirect
	github.com/charmbracelet/x/windows v0.2.2 // indirect
	github.com/clipperhouse/displaywidth v0.11.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/lucasb-eyer/go-colorful v1.4.0 // indirect
	github.com/mattn/go-runewidth v0.0.23 // indirect
	github.com/muesli/cancelreader v0.2.2 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/xo/terminfo v0.0.0-20220910002029-abceb7e1c41e // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)
