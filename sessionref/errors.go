package sessionref

import (
	"errors"
	"strings"
)

// Code classifies an [Error]. The values are the reference service's own, so
// hosts that already switch on them keep working.
type Code string

// The error codes of the session-reference service.
const (
	// CodeInvalidConfig: a [Config] value is out of range.
	CodeInvalidConfig Code = "SESSION_REFERENCE_INVALID_CONFIG"
	// CodeInvalidReference: a URI, mention, reference or limit is malformed.
	CodeInvalidReference Code = "SESSION_REFERENCE_INVALID_REFERENCE"
	// CodeSelfReference: a message references the session it is written in.
	CodeSelfReference Code = "SESSION_REFERENCE_SELF_REFERENCE"
	// CodeTooMany: a message references more distinct sessions than allowed.
	CodeTooMany Code = "SESSION_REFERENCE_TOO_MANY"
	// CodeReadFailed: the store could not read a referenced session.
	CodeReadFailed Code = "SESSION_REFERENCE_READ_FAILED"
	// CodeBudgetExceeded: a referenced session cannot fit the byte budget.
	CodeBudgetExceeded Code = "SESSION_REFERENCE_BUDGET_EXCEEDED"
	// CodeCancelled: the caller's context ended first.
	CodeCancelled Code = "SESSION_REFERENCE_CANCELLED"
)

// Error is the typed error of this package. Every failure of the service
// that the reference reports with a code is an *Error; match it with
// [errors.As] or [CodeOf].
type Error struct {
	// Code says what kind of failure this is.
	Code Code
	// Msg is a one-line description meant for people.
	Msg string
	// Cause is the underlying error, if any (a store error, ctx.Err()).
	Cause error
	// SessionID names the session the error is about, when there is one.
	SessionID string
	// Label is the label the message gave that session, when known.
	Label string
}

// Error implements error. An error about one session starts by naming
// it, with the label the message gave it and its short id (the first 8
// characters of a UUID), both made safe to print on one line:
//
//	session "Fix the parser" (81a83c14): failed to read referenced session: permission denied
//	session 81a83c14: referenced session does not fit in 16 bytes
func (e *Error) Error() string {
	var b strings.Builder
	if who := e.session(); who != "" {
		b.WriteString(who)
		b.WriteString(": ")
	}
	msg := e.Msg
	if msg == "" && e.Cause == nil {
		msg = string(e.Code)
	}
	b.WriteString(msg)
	if e.Cause != nil {
		if msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(errText(e.Cause))
	}
	return b.String()
}

// session names the session the error is about for Error: its label
// (when it says more than the id) and short id.
func (e *Error) session() string {
	switch {
	case e.SessionID == "" && e.Label == "":
		return ""
	case e.SessionID == "":
		return "session " + `"` + clipRunes(safeLine(e.Label), maxLabelRunes) + `"`
	case e.Label == "" || e.Label == e.SessionID:
		return "session " + shortID(e.SessionID)
	}
	return "session " + `"` + clipRunes(safeLine(e.Label), maxLabelRunes) + `"` + " (" + shortID(e.SessionID) + ")"
}

// Unwrap returns the cause, so errors.Is(err, context.Canceled) works.
func (e *Error) Unwrap() error { return e.Cause }

// CodeOf returns the code of the first *Error in err's chain, or "" when
// err is nil or not one of ours (a store error passed through unwrapped).
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func newError(code Code, msg string, cause error) *Error {
	return &Error{Code: code, Msg: msg, Cause: cause}
}

func cancelled(cause error) *Error {
	return newError(CodeCancelled, "session reference preparation was cancelled", cause)
}

func invalidURI(uri string) *Error {
	return newError(CodeInvalidReference, "invalid session reference URI "+quote(uri), nil)
}
