package sessionref

import (
	"errors"
	"fmt"
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
}

// Error implements error.
func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s", e.Msg, e.Cause)
	}
	return e.Msg
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
