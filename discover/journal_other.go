//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package discover

import "errors"

// lockJournal cannot test SQLite's lock here: the journal is left to
// SQLite.
func lockJournal(string) (func(), bool, error) {
	return nil, false, errors.New("discover: no journal lock test on this system")
}
