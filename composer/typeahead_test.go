package composer

import (
	"math/rand/v2"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestTypingAcrossAPickKeepsEveryKey delivers the results of Cmds (the
// picker's answers) at random points among the keystrokes, as a real
// program may: Tab may come before the answer it picks from. The
// composer holds no keys back: every key lands at once, in order, and
// the pick replaces only the "@query" it was asked for.
func TestTypingAcrossAPickKeepsEveryKey(t *testing.T) {
	e := newEnv(t)
	for _, tail := range []string{" please", "please"} {
		typeAcrossPick(t, e, tail)
	}
}

func typeAcrossPick(t *testing.T, e *env, tail string) {
	var keys []tea.Msg
	for _, r := range "compare @emoji" {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	keys = append(keys, tea.KeyPressMsg{Code: tea.KeyTab})
	for _, r := range tail {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	waited := 0
	for seed := uint64(0); seed < 150; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		m := e.composer()
		var inflight []tea.Msg
		deliver := func(msg tea.Msg) {
			var cmd tea.Cmd
			m, cmd = m.Update(msg)
			inflight = append(inflight, run(cmd)...)
		}
		for i, k := range keys {
			for len(inflight) > 0 && rng.IntN(3) == 0 {
				j := rng.IntN(len(inflight))
				msg := inflight[j]
				inflight = append(inflight[:j], inflight[j+1:]...)
				deliver(msg)
			}
			deliver(k)
			if i == len("compare @emoji") && m.draft.Waiting() {
				waited++ // Tab came before its answer
			}
		}
		for len(inflight) > 0 {
			msg := inflight[0]
			inflight = inflight[1:]
			deliver(msg)
		}
		if got := m.Readable(); got != "compare @Emoji picker 🎉 polish please" {
			t.Fatalf("tail %q seed %d: %q", tail, seed, got)
		}
		if m.cursor != len(m.atoms) {
			t.Fatalf("seed %d: cursor %d of %d", seed, m.cursor, len(m.atoms))
		}
	}
	if waited == 0 {
		t.Fatal("no order had Tab before its answer")
	}
}
