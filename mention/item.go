package mention

import "github.com/dshkit/mentions/picker"

// hostItem reports whether p picked a row of a host's own section rather
// than a session.
func hostItem(p picker.PickedMsg) bool { return p.Item != nil }
