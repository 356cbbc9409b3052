package dshlog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
	// ErrHeader: the first line is not a valid session header, or its id
	// and cwd do not map back to the directory the log is in.
	ErrHeader = errors.New("invalid session header")
	// ErrNotFound: no log has that session id, or the file is gone.
	ErrNotFound = errors.New("session not found")
	// ErrDuplicate: the session id has logs under two project
	// directories; like the reference, neither is used.
	ErrDuplicate = errors.New("session id found in two places")
	// ErrNotRegular: the path is not a regular file (a FIFO, a device, a
	// directory) or is a symbolic link below the sessions root, which is
	// never followed.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the log decodes to more bytes than the store's cap
	// ([WithMaxLogBytes]).
	ErrTooLarge = errors.New("session log too large")
	// ErrUnreadable: the file or directory could not be read; the
	// operating system's error is wrapped too, so errors.Is(err,
	// fs.ErrPermission) reports permission denied.
	ErrUnreadable = errors.New("cannot read session log")
)

// LogError is an error about one log file (or, for listing, one
// directory).
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

// ioErr classifies an error of the operating system about path: a
// missing file is ErrNotFound, anything else (permission denied first of
// all) ErrUnreadable; both keep the cause for errors.Is.
func ioErr(path string, err error) *LogError {
	var le *LogError
	if errors.As(err, &le) {
		return le
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &LogError{Path: path, Err: err, Detail: "stopped"}
	}
	var pe *fs.PathError
	cause := err
	if errors.As(err, &pe) {
		cause = pe.Err // the path is already said once
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &LogError{Path: path, Err: withCause{ErrNotFound, err}, Detail: cause.Error()}
	case errors.Is(err, fs.ErrPermission):
		return &LogError{Path: path, Err: withCause{ErrUnreadable, err}, Detail: "permission denied"}
	}
	return &LogError{Path: path, Err: withCause{ErrUnreadable, err}, Detail: cause.Error()}
}

// withCause is a sentinel that also unwraps to its cause; it prints as
// the sentinel alone (the cause is in the LogError's Detail).
type withCause struct{ sentinel, cause error }

func (w withCause) Error() string   { return w.sentinel.Error() }
func (w withCause) Unwrap() []error { return []error{w.sentinel, w.cause} }
