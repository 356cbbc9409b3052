package dshlog

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error this package returns wraps one of them in
// a *LogError that names the file (and the line when there is one).
var (
	// ErrCorrupt: the log breaks the format in a way that is not a torn
	// tail (a bad record before a turn/end, a broken fold, bad zstd).
	ErrCorrupt = errors.New("corrupt session log")
	// ErrUnknownEvent: the log has an event type this reader does not
	// know and that is not marked ignorable.
	ErrUnknownEvent = errors.New("unknown event type")
	// ErrVersion: the log's format version is not 0.
	ErrVersion = errors.New("unsupported session log version")
	// ErrHeader: the first line is not a valid session header.
	ErrHeader = errors.New("invalid session header")
	// ErrNotFound: no log has that session id.
	ErrNotFound = errors.New("session not found")
)

// LogError is an error about one log file.
type LogError struct {
	// Path is the log file.
	Path string
	// Line is the 1-based line of the decoded log, 0 when not about a line.
	Line int
	// Err is one of the sentinel errors, possibly wrapping a cause.
	Err error
	// Detail says what was wrong, for people.
	Detail string
}

// Error says where (file:line) and what.
func (e *LogError) Error() string {
	where := e.Path
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Detail == "" {
		return fmt.Sprintf("%s: %v", where, e.Err)
	}
	return fmt.Sprintf("%s: %v: %s", where, e.Err, e.Detail)
}

// Unwrap returns the sentinel.
func (e *LogError) Unwrap() error { return e.Err }

func logErr(path string, line int, err error, format string, args ...any) *LogError {
	return &LogError{Path: path, Line: line, Err: err, Detail: fmt.Sprintf(format, args...)}
}
