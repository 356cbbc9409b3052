package sessionref

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dshkit/mentions/internal/plain"
)

// Describe says what went wrong when a draft could not be sent, in one
// sentence a person understands, for any error a preparer returns. It is
// the text the composer shows under the draft, available to a host with
// its own editor:
//
//   - [CodeInvalidReference]: a mention is malformed (with the reason);
//   - [CodeSelfReference]: a session cannot reference itself, naming it;
//   - [CodeTooMany]: at most cfg.MaxReferences sessions;
//   - [CodeReadFailed]: the session could not be read (with the reason);
//   - [CodeBudgetExceeded]: the session cannot fit cfg.MaxReferenceBytes
//     even with every message left out;
//   - [CodeCancelled]: sending was cancelled and the draft is kept;
//   - anything else (another code, a store's own error, nil): "Couldn't
//     send: " and its text.
//
// cfg gives the limits named (a zero field takes its default, as in
// [NewResolver]). label names a session by id as the host's draft shows
// it (the composer gives the token's "@label"); with nil, or for an error
// without a session, Describe uses "@" and the error's Label, else
// "session " and the short id, else "a session".
//
// The result is one line: every untrusted part (a label, an id, an
// error's text, what label returns) is made safe to print, with line
// breaks as spaces and controls, bidi overrides and invisible characters
// as visible escapes. It never panics, also for an error whose Error
// method does.
func Describe(err error, cfg Config, label func(sessionID string) string) string {
	return safeLine(describe(err, cfg, label))
}

func describe(err error, cfg Config, label func(string) string) string {
	var e *Error
	if !errors.As(err, &e) || e == nil {
		return "Couldn't send: " + errText(err) + "."
	}
	who := defaultLabel(e)
	if label != nil && e.SessionID != "" {
		who = label(e.SessionID)
	}
	why := e.Msg
	if e.Cause != nil {
		why = errText(e.Cause)
	}
	if why == "" {
		why = "no reason given"
	}
	maxRefs, budget := cfg.MaxReferences, cfg.MaxReferenceBytes
	if maxRefs <= 0 {
		maxRefs = MaxReferences
	}
	if budget <= 0 {
		budget = DefaultMaxReferenceBytes
	}
	switch e.Code {
	case CodeInvalidReference:
		return "A mention in the message is malformed; fix or remove it (" + why + ")."
	case CodeSelfReference:
		return "A session can't reference itself; remove " + who + "."
	case CodeTooMany:
		return fmt.Sprintf("A message can reference at most %d sessions; remove one.", maxRefs)
	case CodeReadFailed:
		if strings.HasSuffix(who, ":") {
			return "Couldn't read " + who + " (" + strings.TrimSuffix(why, ".") + ")." // never "::"
		}
		return "Couldn't read " + who + ": " + why + "."
	case CodeBudgetExceeded:
		// Messages are left out to fit: only the snapshot's own frame
		// (ids, labels, folder) can be too large, so a smaller session
		// would not help.
		return who + " is too large to fit the " + plain.Bytes(budget) + " snapshot budget even with every message left out; remove it, or raise the budget."
	case CodeCancelled:
		return "Sending cancelled; your draft is kept."
	}
	return "Couldn't send: " + errText(e) + "."
}

// defaultLabel names the session of e when the host gives no label.
func defaultLabel(e *Error) string {
	switch {
	case e.Label != "" && e.Label != e.SessionID:
		return "@" + clipRunes(e.Label, maxLabelRunes)
	case e.SessionID != "":
		return "session " + shortID(e.SessionID)
	}
	return "a session"
}

// errText is err's text, even for an error whose Error method is not
// safe on its zero value.
func errText(err error) (s string) {
	if err == nil {
		return "unknown error"
	}
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("%T", err)
		}
	}()
	if s = err.Error(); s == "" {
		s = fmt.Sprintf("%T", err)
	}
	return s
}
