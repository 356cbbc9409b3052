//go:build race

package jsonlog

// raceEnabled: the race detector drops a quarter of what is put back in
// a sync.Pool, at random.
const raceEnabled = true
