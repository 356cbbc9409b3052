// Package demo is the standalone chat screen of cmd/mentions-demo: a
// transcript of the current session rebuilt from its store, a reference
// card above each message that referenced sessions, the composer with its
// @-picker, an inspector showing exactly what a model would receive, and
// help rendered from every component's KeyMap.
//
// It is a host of the components, not a part of them: it shows how
// picker, composer and card fit together, and owns only the glue. Each
// file has one job:
//
//   - options.go: Options and their defaults
//   - keys.go: the demo's own KeyMap
//   - model.go: the Model, New, Init and Update (message routing)
//   - routing.go: where a key or a mouse event goes
//   - transcript.go: the transcript and its cards
//   - inspector.go: the inspector screen
//   - standin.go: the stand-in reply (no model runs here)
//   - help.go: the short hint line and the F1 screen
//   - layout.go: sizes, and View
//   - build.go: filling the store in the background behind a progress line
//   - discover.go: the full-text index, synced in the background behind a
//     progress line, feeding the picker's "in messages" section
//   - styles.go: styles, from internal/theme
//   - store.go: the Store a demo appends to, and the union with real logs
//
// Nothing in Update does IO: the store is read and written in Cmds, and
// the transcript is rebuilt from what the store hands back, so what the
// screen shows is what a replay shows.
package demo
