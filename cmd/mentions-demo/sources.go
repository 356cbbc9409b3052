package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dshkit/mentions/agentlog"
	"github.com/dshkit/mentions/agentlog/claudecode"
	"github.com/dshkit/mentions/agentlog/codex"
	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/dshlog"
	"github.com/dshkit/mentions/sessionref"
)

// agentSource is one agent --from can read besides DeepSeek Harness.
type agentSource struct {
	name    string // as --from spells it
	agent   string // for people
	root    func() (string, error)
	open    func(root string) (*agentlog.Store, error)
	looked  func(root string) string // what was looked for, for a root with no history
	envHint string
}

var agentSources = []agentSource{
	{
		name: "claude", agent: "Claude Code", root: claudecode.DefaultRoot,
		open:    func(root string) (*agentlog.Store, error) { return claudecode.Open(root) },
		looked:  func(root string) string { return "looked in " + shown(root) },
		envHint: "CLAUDE_CONFIG_DIR",
	},
	{
		name: "codex", agent: "Codex", root: codex.DefaultRoot,
		open: func(root string) (*agentlog.Store, error) { return codex.Open(root) },
		looked: func(root string) string {
			return "looked for " + shown(filepath.Join(root, "sessions")) + " and " + shown(filepath.Join(root, "archived_sessions"))
		},
		envHint: "CODEX_HOME",
	},
}

// addSources offers the sessions of every source the command line names:
// --sessions DIR or --dsh (a DeepSeek Harness root that must be there),
// and --from's agents, each from its usual root. An agent of --from with
// no history there says what was looked for in one line (in F1, and
// above the composer until the first key) and the demo starts without
// it. generated is the count of embedded sessions, for the header.
func addSources(ctx context.Context, o *demo.Options, f flags, generated int) error {
	fromDSH := f.uses("dsh")
	var host sessionref.SessionQuery
	var absent []string // agents of --from with no history
	absentNotice := ""
	counts := []string{}
	var scan *dshScan
	switch {
	case f.sessions != "" || f.dsh:
		var err error
		if scan, err = scanLogs(o, f.sessions, f.dsh, generated); err != nil {
			return err
		}
	case fromDSH:
		// Beside other agents, the root's skips are told in F1, in the
		// words the others' are (dshSourceLine), not above the composer.
		notice := o.Notice
		defer func() { o.Notice = joinNotices(notice, absentNotice) }()
		var err error
		if scan, err = scanLogs(o, "", true, generated); err != nil {
			var bad *FlagError
			if !errors.As(err, &bad) {
				return err
			}
			o.Sources = append(o.Sources, "DeepSeek Harness: no history ("+strings.TrimSuffix(bad.Reason, ".")+")")
			absent = append(absent, "DeepSeek Harness")
		}
	}
	if st, ok := o.Others.(*dshlog.Store); ok && st != nil && scan != nil {
		host = st
		line, n := dshSourceLine(scan)
		o.Sources = append(o.Sources, line)
		counts = append(counts, fmt.Sprintf("%d dsh", n))
	}
	var agents []*agentlog.Store
	for _, a := range agentSources {
		if !f.uses(a.name) {
			continue
		}
		st, line := openAgent(ctx, a)
		o.Sources = append(o.Sources, line)
		if st == nil {
			absent = append(absent, a.agent)
			continue
		}
		agents = append(agents, st)
		counts = append(counts, fmt.Sprintf("%d %s", st.Stats().Sessions, a.name))
	}
	if len(agents) > 0 {
		// Mixed with other agents, DeepSeek Harness sessions say so too.
		o.Others = agentlog.JoinBadged(host, "dsh", agents...)
	}
	if len(absent) > 0 {
		// One line above the composer; F1 says where each was looked for.
		absentNotice = "No history of " + strings.Join(absent, " or ") + " was found (F1 says where it was looked for)"
		o.Notice = joinNotices(o.Notice, absentNotice)
	}
	if f.from != "" {
		o.StoreName = fmt.Sprintf("%d generated + %s", generated, strings.Join(counts, " + "))
	}
	return nil
}

// openAgent opens one agent's default root and lists it once (which also
// warms its index cache): the store, or nil when there is no history,
// and the line F1 shows for it.
func openAgent(ctx context.Context, a agentSource) (*agentlog.Store, string) {
	root, err := a.root()
	if err != nil {
		return nil, fmt.Sprintf("%s: no history: cannot find its root (%v)", a.agent, err)
	}
	absent := func(err error) string {
		return fmt.Sprintf("%s: no history (%s; set %s to read another): %s", a.agent, a.looked(root), a.envHint, cause(err))
	}
	st, err := a.open(root)
	if err != nil {
		return nil, absent(err)
	}
	if _, err := st.ListSessions(ctx); err != nil {
		return nil, absent(err)
	}
	return st, sourceLine(st.Stats())
}

// cause is an error as a source line ends: "it does not exist" for a
// missing root.
func cause(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "it does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// sourceLine is an agent's F1 line: its sessions and root, what was
// passed over and why (most common first), and the lines skipped.
func sourceLine(st agentlog.Stats) string {
	s := fmt.Sprintf("%s: %s in %s", st.Agent, plural(st.Sessions, "session"), shown(st.Root))
	reasons := slices.SortedFunc(maps.Keys(st.Skipped), func(a, b string) int {
		return cmp.Or(st.Skipped[b]-st.Skipped[a], strings.Compare(a, b))
	})
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%d × %s", st.Skipped[r], r))
	}
	if len(parts) > 0 {
		s += "; passed over: " + strings.Join(parts, ", ")
	}
	if st.Bad > 0 || st.Unknown > 0 {
		s += fmt.Sprintf("; lines skipped: %d unreadable, %d of types this reader does not know", st.Bad, st.Unknown)
	}
	return s
}

// dshSourceLine is the DeepSeek Harness root's F1 line, in the words of
// the agents' (sourceLine): its sessions and root, and the logs passed
// over by reason; and how many sessions it lists.
func dshSourceLine(scan *dshScan) (string, int) {
	stats := agentlog.Stats{Agent: "DeepSeek Harness", Root: scan.root, Skipped: map[string]int{}}
	for _, in := range scan.infos {
		if in.Err == nil {
			stats.Sessions++
		} else {
			stats.Skipped[dshReason(in.Err)]++
		}
	}
	if scan.loose > 0 {
		stats.Skipped["lying directly in the root (logs belong two folders down)"] += scan.loose
	}
	return sourceLine(stats), stats.Sessions
}

// dshReason is the phrase a DeepSeek Harness log that is not listed is
// counted under in F1, as the agent stores count theirs: the cause
// skipCause tells, in the agents' words where they have one.
func dshReason(err error) string {
	var le *dshlog.LogError
	switch {
	case errors.Is(err, dshlog.ErrNotRegular) && errors.As(err, &le) && strings.Contains(le.Detail, "symbolic link"):
		return agentlog.SkipLink
	case errors.Is(err, fs.ErrPermission):
		return agentlog.SkipPermission
	}
	key, _, _ := skipCause(err)
	if r, ok := dshReasons[key]; ok {
		return r
	}
	return agentlog.SkipUnreadable
}

// dshReasons are F1's phrases for skipCause's keys.
var dshReasons = map[string]string{
	"irregular": agentlog.SkipNotRegular,
	"large":     agentlog.SkipTooLarge,
	"header":    "a header that does not match its folder",
	"badheader": "no valid session header",
	"duplicate": "the same session id in another project folder",
	"pair":      "a zstd log beside a raw one (the raw one is read)",
	"version":   "an unsupported version",
	"corrupt":   "corrupt",
	"event":     "an event type this reader does not know",
}

// joinNotices adds b to the notice a.
func joinNotices(a, b string) string {
	if a == "" {
		return b
	}
	return strings.TrimRight(a, ".") + ". " + b
}
