// Package mentionpick joins a picker.Model to a mention.Model, for the
// two editors of this module (the composer and the textarea adapter): it
// tells the mention model what the picker did and opens, follows or
// closes the picker for the model's @query. It is the one place the
// pick protocol meets the picker, so both editors behave alike.
package mentionpick

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/mention"
	"github.com/dshkit/mentions/picker"
	"github.com/dshkit/mentions/sessionref"
)

// Update passes msg to p and tells d what p did in the same Update: a
// session picked becomes a token, a host's item replaces the query (and
// is returned, for the host to take), a close by the user (Esc, a click
// outside) dismisses the query, a pick asked for before its answer
// waits for it, and an answer that had nothing to pick ends the wait.
func Update(p *picker.Model, d *mention.Model, msg tea.Msg) (tea.Cmd, *picker.PickedMsg) {
	wasOpen := p.IsOpen()
	var cmd tea.Cmd
	*p, cmd = p.Update(msg)
	var pk picker.PickedMsg
	var picked bool
	pk, picked = p.TakePick()
	switch {
	case picked && pk.Item != nil:
		d.ReplaceQuery(pk.Item.Insert)
		return cmd, &pk
	case picked:
		label := pk.Candidate.Label
		d.Pick(sessionref.Reference{SessionID: pk.Candidate.SessionID, Label: &label})
	case wasOpen && !p.IsOpen():
		d.Dismiss()
	case p.Accepting():
		d.AwaitPick()
	case d.Waiting():
		d.NoPick()
	}
	return cmd, nil
}

// Show opens, follows or closes p for d's @query. While a pick waits for
// its answer the picker is left as it is.
func Show(p *picker.Model, d *mention.Model) tea.Cmd {
	q, _, ok := d.Query()
	var cmd tea.Cmd
	switch {
	case !ok:
		if p.IsOpen() {
			p.Close()
		}
	case d.Waiting():
	case p.IsOpen():
		cmd = p.SetQuery(q)
	default:
		cmd = p.Open(q)
	}
	return cmd
}

// EndsQuery tells d of text about to be typed: a space after a query
// whose answers are all in and hold nothing to pick ends it as prose
// (see mention.Model.EndsQuery), and p closes.
func EndsQuery(p *picker.Model, d *mention.Model, text string) {
	nothing := p.IsOpen() && p.Settled() && p.Err() == nil && p.Len() == 0
	if d.EndsQuery(text, nothing) && p.IsOpen() {
		p.Close()
	}
}

// SpaceAfterPick reports whether text is a space typed right after a
// pick, which the pick's own space already wrote: the editor drops it.
func SpaceAfterPick(d *mention.Model, msg tea.KeyPressMsg) bool {
	return d.JustPicked() && msg.Text == " " && msg.Mod == 0
}

// Disable marks the candidates a pick may not take: a session d
// mentions already, and any once d references limit sessions. Both
// editors apply it, so a picker shows the same rows beside either.
func Disable(p *picker.Model, d *mention.Model, limit int) {
	var ids []string
	for _, r := range d.References() {
		if !slices.Contains(ids, r.SessionID) {
			ids = append(ids, r.SessionID)
		}
	}
	p.SetDisable(func(c sessionref.Candidate) (string, bool) {
		if slices.Contains(ids, c.SessionID) {
			return "already mentioned", true
		}
		if len(ids) >= limit {
			return fmt.Sprintf("limit %d/%d reached", len(ids), limit), true
		}
		return "", false
	})
}
