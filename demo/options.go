package demo

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dshkit/mentions/discover"
	"github.com/dshkit/mentions/sessionref"
)

// Options configure the demo.
type Options struct {
	// Store holds the current session; the demo appends to it.
	Store Store
	// Others, when set, holds the sessions that can be referenced besides
	// those of Store (real DeepSeek Harness logs, say).
	Others sessionref.SessionQuery
	// Current is the session being written in.
	Current sessionref.Target
	// Title is shown in the header.
	Title string
	// StoreName says where sessions come from, for the header. When the
	// header is too wide its end is cut last: put the counts first.
	StoreName string
	// Notice, when set, is shown above the composer whenever nothing
	// more pressing is, until the first key or click, and at the top of
	// F1 always: why a source offers fewer sessions than expected, say.
	// It wraps; it is never cut.
	Notice string
	// Sources, when set, are shown at the top of F1, one line each: where
	// the referenceable sessions come from (each agent's root, how many
	// sessions it offers, what was passed over and why), or what was
	// looked for when an agent has no history.
	Sources []string
	// Config is the resolver's configuration (budget, limits).
	Config sessionref.Config
	// Build, when set, fills Store after the screen is shown: it runs in
	// the background while a progress line shows how far it got, and
	// reports through progress (sessions done, sessions in all). The
	// picker searches what is there so far.
	Build func(ctx context.Context, progress func(done, total int)) error
	// NoMouse turns mouse reporting off.
	NoMouse bool
	// Inline draws below the shell prompt instead of on the alternate
	// screen, in at most InlineHeight lines. It turns the mouse off too:
	// the terminal reports rows of the whole screen, and where the demo's
	// first row is cannot be known for sure (the shell's lines above it
	// scroll), so a click could pick a session other than the one under
	// the pointer. Inline is keyboard only; F1 says so.
	Inline bool
	// InlineHeight is the most lines an inline screen takes (default 16).
	InlineHeight int
	// Now and Home make ages and ~ paths reproducible in tests.
	Now  func() time.Time
	Home string
	// Plain draws without colour: every component gets its PlainStyles.
	Plain bool
	// Discover turns on full-text discovery: the demo indexes its
	// sessions (Store and Others) in the background, after Build, behind
	// a progress line, and the picker lists the sessions found by what
	// was said in them under the candidates ("in messages").
	Discover bool
	// DiscoverPath is the index file (see discover.DefaultPath); "" keeps
	// the index in memory.
	DiscoverPath string
	// DiscoverRefuse lists sessions roots the index file must not be in.
	DiscoverRefuse []string
	// DiscoverOptions are more options of the index (discover.WithLimits
	// to bound what a session puts in it, for one).
	DiscoverOptions []discover.Option
	// Preview shows, in the picker, what the model would receive of the
	// highlighted session (picker.WithPreview through the demo's own
	// resolver): beside the rows from 100 columns, in their place with
	// alt+p or F2 below. cmd/mentions-demo turns it on (--no-preview
	// turns it off).
	Preview bool
	// Resync is how long after a Sync ends the next one starts, so the
	// index follows sessions that change while the demo runs (a live
	// sessions root, the demo's own messages). These later Syncs show no
	// progress line; they re-index only what changed. Zero means
	// DefaultResync; below zero, the index is synced once, at start.
	Resync time.Duration

	// tick is how the demo and its picker wait (tea.Tick); tests give
	// one that does not wait on the wall clock.
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

// DefaultResync is how often the full-text index follows the store.
const DefaultResync = 15 * time.Second

// DefaultInlineHeight is the most lines an inline demo takes.
const DefaultInlineHeight = 16

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Inline {
		o.NoMouse = true // see Inline: no wrong pick from a misplaced row
	}
	if o.InlineHeight <= 0 {
		o.InlineHeight = DefaultInlineHeight
	}
	if o.Resync == 0 {
		o.Resync = DefaultResync
	}
	if o.tick == nil {
		o.tick = tea.Tick
	}
	return o
}
