package mention

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokenRune stands for a whole mention token in the text given to
// [WordStart] and [QueryText]: an editor that shows tokens some other way
// writes this rune where one is, so no query runs through it.
const TokenRune = '\uFFFC'

// MaxQuery is the longest query, in bytes: a longer run of text after an
// '@' is no mention query. It bounds what each keystroke looks at, however
// long the line.
const MaxQuery = 256

// Where a mention query starts and ends; every editor of this module (the
// composer, the textarea adapter) follows these rules, through these two
// functions:
//
//   - A query starts at an '@' at the start of a line or after
//     whitespace. While the picker is closed, an edit (or, in the
//     composer, a move along the line) that leaves the cursor at the end
//     of or inside an "@word" — the '@' and text without whitespace up to
//     the cursor — opens it.
//   - Once open, the query is the text from the '@' to the cursor, and may
//     hold single spaces, as titles do. It ends on a second consecutive
//     space, a newline, a token, when the cursor leaves it, with a pick,
//     and on Esc. An "@ " is no query.
//   - Esc makes the @word text: it stays closed while the cursor moves
//     over it and while text is typed after it, and opens again only when
//     the user edits inside it.

// WordStart returns the offset in before of the '@' that starts the @word
// ending at the end of before (the cursor). before is the text of the
// cursor's line up to the cursor; afterSpace says whether what precedes
// before counts as whitespace (true at the start of a line).
func WordStart(before string, afterSpace bool) (int, bool) {
	j := len(before)
	for j > 0 && len(before)-j <= MaxQuery {
		r, n := utf8.DecodeLastRuneInString(before[:j])
		if unicode.IsSpace(r) || r == TokenRune {
			break
		}
		j -= n
	}
	if j >= len(before) || before[j] != '@' || len(before)-j > MaxQuery {
		return 0, false
	}
	if j == 0 {
		return 0, afterSpace
	}
	r, _ := utf8.DecodeLastRuneInString(before[:j])
	return j, unicode.IsSpace(r)
}

// QueryText returns what the picker searches for, given s, the text from
// the '@' to the cursor: s without its '@' and trailing whitespace. It
// reports false when s is no open query by the rules above (afterSpace
// says whether the '@' follows whitespace or starts a line).
func QueryText(s string, afterSpace bool) (string, bool) {
	if !afterSpace || !strings.HasPrefix(s, "@") || len(s) > MaxQuery+1 {
		return "", false
	}
	q := s[1:]
	prevSpace := false
	for i, r := range q {
		switch {
		case r == '\n' || r == '\r' || r == TokenRune:
			return "", false
		case unicode.IsSpace(r):
			if i == 0 || prevSpace {
				return "", false // "@ " is no mention; a second space ends it
			}
			prevSpace = true
		default:
			prevSpace = false
		}
	}
	return strings.TrimRightFunc(q, unicode.IsSpace), true
}
