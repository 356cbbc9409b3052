package composer

import (
	"math/rand/v2"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestTypeAheadAnyInterleaving delivers the results of Cmds at random
// points among the keystrokes, as a real program may, and checks that no
// keystroke is lost and the pick lands where it was asked for.
func TestTypeAheadAnyInterleaving(t *testing.T) {
	e := newEnv(t)
	var keys []tea.Msg
	for _, r := range "compare @emoji" {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	keys = append(keys, tea.KeyPressMsg{Code: tea.KeyTab})
	for _, r := range "please" {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	for seed := uint64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		m := e.composer()
		var inflight []tea.Msg
		deliver := func(msg tea.Msg) {
			var cmd tea.Cmd
			m, cmd = m.Update(msg)
			inflight = append(inflight, run(cmd)...)
		}
		for _, k := range keys {
			for len(inflight) > 0 && rng.IntN(3) == 0 {
				i := rng.IntN(len(inflight))
				msg := inflight[i]
				inflight = append(inflight[:i], inflight[i+1:]...)
				deliver(msg)
			}
			deliver(k)
		}
		for len(inflight) > 0 {
			msg := inflight[0]
			inflight = inflight[1:]
			deliver(msg)
		}
		if got := m.Readable(); got != "compare @Emoji picker 🎉 polish please" {
			t.Fatalf("seed %d: %q", seed, got)
		}
	}
}
