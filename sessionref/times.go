package sessionref

import (
	"context"
	"errors"
	"fmt"
	"github.com/dshkit/mentions/internal/plain"
	"time"
)

// Millis returns t as the Unix milliseconds that [SessionHeader.CreatedAt],
// [SessionHeader.UpdatedAt] and [Title.UpdatedAt] hold; 0 (unknown) for
// the zero time. A store that converts through Millis cannot write
// seconds or nanoseconds by mistake.
func Millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// earliestSeconds is plain.EarliestMillis in seconds.
const earliestSeconds = plain.EarliestMillis / 1000

// LooksLikeSeconds reports whether a value meant as Unix milliseconds is
// really Unix seconds: read as seconds it falls between 2000-01-01 and a
// day after now, so read as milliseconds it is a moment in January 1970,
// which no session has. The picker shows such an age as "secs?" rather
// than as unknown, so the mistake shows.
func LooksLikeSeconds(unixMs int64, now time.Time) bool {
	return unixMs >= earliestSeconds && unixMs <= now.Add(plain.ClockSlack).Unix()
}

// looksTooLarge reports whether a value meant as Unix milliseconds lies
// more than a thousand years ahead of now: microseconds or nanoseconds.
func looksTooLarge(unixMs int64, now time.Time) bool {
	return unixMs/1000 > now.UnixMilli()
}

// StoreIssue is one thing [CheckStore] found wrong with what a store
// lists.
type StoreIssue struct {
	// SessionID is the session it is about; "" for the listing as a whole.
	SessionID string
	// Problem says what is wrong and what it does to candidates.
	Problem string
}

func (e *StoreIssue) Error() string {
	if e.SessionID == "" {
		return e.Problem
	}
	return "session " + shortID(e.SessionID) + ": " + e.Problem
}

// CheckStore lists q's sessions and their titles and reports what a
// [SessionQuery] written for another storage commonly gets wrong, so a
// store's own tests can call it: times that are not Unix milliseconds
// (seconds, which the picker would show as 1970; microseconds or
// nanoseconds, far in the future), a listing that is not newest first
// (by UpdatedAt when every header has one, else by CreatedAt), an id
// listed twice, and ReadTitles answering a different number of results
// than ids. It reads no surface (see [CheckSurface] for those). It
// returns nil for a store with none, else the issues joined (each a
// *StoreIssue), or the store's own error.
func CheckStore(ctx context.Context, q SessionQuery) error {
	return checkStore(ctx, q, time.Now())
}

func checkStore(ctx context.Context, q SessionQuery, now time.Time) error {
	headers, err := q.ListSessions(ctx)
	if err != nil {
		return err
	}
	var errs []error
	issue := func(id, format string, args ...any) {
		errs = append(errs, &StoreIssue{SessionID: id, Problem: fmt.Sprintf(format, args...)})
	}
	checkTime := func(id, field string, v int64) {
		switch {
		case v == 0:
		case LooksLikeSeconds(v, now):
			issue(id, "%s %d is Unix seconds, not milliseconds (it reads as %s); set it with sessionref.Millis", field, v, time.UnixMilli(v).UTC().Format(time.RFC3339))
		case looksTooLarge(v, now):
			issue(id, "%s %d is far in the future as Unix milliseconds (microseconds or nanoseconds?); set it with sessionref.Millis", field, v)
		case v < 0:
			issue(id, "%s %d is before 1970", field, v)
		}
	}
	seen := make(map[string]bool, len(headers))
	byUpdate := len(headers) > 0
	ids := make([]string, len(headers))
	for i, h := range headers {
		ids[i] = h.ID
		if seen[h.ID] {
			issue(h.ID, "listed more than once")
		}
		seen[h.ID] = true
		checkTime(h.ID, "CreatedAt", h.CreatedAt)
		checkTime(h.ID, "UpdatedAt", h.UpdatedAt)
		byUpdate = byUpdate && h.UpdatedAt != 0
	}
	for i := 1; i < len(headers); i++ {
		a, b, field := headers[i-1].CreatedAt, headers[i].CreatedAt, "CreatedAt"
		if byUpdate {
			a, b, field = headers[i-1].UpdatedAt, headers[i].UpdatedAt, "UpdatedAt"
		}
		if plain.PlausibleMillis(a, now) && plain.PlausibleMillis(b, now) && b > a {
			issue(headers[i].ID, "listed after %s although its %s is later: ListSessions lists newest first", shortID(headers[i-1].ID), field)
			break
		}
	}
	if len(ids) > 0 {
		titles, err := q.ReadTitles(ctx, ids)
		switch {
		case err != nil:
			return errors.Join(append(errs, err)...)
		case len(titles) != len(ids):
			issue("", "ReadTitles answered %d results for %d ids; it answers one per id, in order", len(titles), len(ids))
		default:
			for i, tr := range titles {
				if tr.Err == nil && tr.Title != nil {
					checkTime(ids[i], "the title's UpdatedAt", tr.Title.UpdatedAt)
				}
			}
		}
	}
	return errors.Join(errs...)
}
