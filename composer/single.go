package composer

import "github.com/dshkit/mentions/sessionref"

// SingleMessage returns the submitted draft as one text, for a host that
// sends one user message per turn: the untrusted snapshot first, then the
// direct message (see sessionref.FormatSingleMessage). A draft that
// referenced nothing is its text alone. sessionref.ParseSingleMessage
// reads the stored text back, and card.FromText draws its card.
func (s SubmittedMsg) SingleMessage() (string, error) {
	return sessionref.FormatSingleMessage(s.Context, s.Text)
}
