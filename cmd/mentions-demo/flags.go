package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dshkit/mentions/sessionref"
)

// Limits of the numeric flags. The embedded store holds every generated
// session in memory (about 12 KB each: the generator's long messages
// among them), so maxCount keeps it near a gigabyte; a latency above
// maxLatency is a typo.
const (
	defaultCount   = 300
	maxCount       = 100_000
	maxLatency     = time.Minute
	maxSafeInteger = 1<<53 - 1 // the largest budget the core accepts
)

// flags is the parsed command line.
type flags struct {
	count    int
	seed     uint64
	cwd      string
	latency  time.Duration
	budget   int
	noMouse  bool
	inline   bool
	plain    bool
	sessions string
	dsh      bool
	from     string // --from: the agents whose sessions are offered, comma-separated in sourceNames order
	noIndex  bool
	noPrev   bool
	help     bool // --help: print the usage and exit 0
}

// FlagError is a command line the demo cannot run with: Flag names the
// flag as the user writes it ("--count"), or is empty for a stray
// argument; Reason says what is wrong.
type FlagError struct {
	Flag   string
	Reason string
}

func (e *FlagError) Error() string {
	if e.Flag == "" {
		return e.Reason
	}
	return e.Flag + ": " + e.Reason
}

// usageHint is the line printed under a FlagError.
const usageHint = "usage: mentions-demo [flags]  (mentions-demo --help lists them)"

// newFlagSet declares the flags over f. Numbers are parsed by the demo's
// own functions, so every rejection is a FlagError naming the flag.
func newFlagSet(f *flags, bad **FlagError) *flag.FlagSet {
	fs := flag.NewFlagSet("mentions-demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fail := func(name, format string, a ...any) error {
		*bad = &FlagError{Flag: "--" + name, Reason: fmt.Sprintf(format, a...)}
		return *bad
	}
	intFlag := func(name string, v *int, lo, hi int, usage string) {
		fs.Func(name, usage, func(s string) error {
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || n < int64(lo) || n > int64(hi) {
				return fail(name, "want a whole number from %d to %d, got %q", lo, hi, s)
			}
			*v = int(n)
			return nil
		})
	}
	intFlag("count", &f.count, 0, maxCount, fmt.Sprintf("`N` generated sessions in the embedded store, 0 to %d (default %d)", maxCount, defaultCount))
	fs.Func("seed", "`seed` of the generated sessions, a whole number ≥ 0 (default 1)", func(s string) error {
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return fail("seed", "want a whole number from 0 to %d, got %q", uint64(1<<64-1), s)
		}
		f.seed = n
		return nil
	})
	fs.Func("cwd", "working `directory` of the current session (default: the busiest generated one)", func(s string) error {
		if strings.TrimSpace(s) == "" {
			return fail("cwd", "want a directory, got an empty value")
		}
		f.cwd = s
		return nil
	})
	fs.Func("latency", "delay every store read by this `duration`, e.g. 800ms, to watch the async picker (0 to 1m)", func(s string) error {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d < 0 || d > maxLatency {
			return fail("latency", "want a duration from 0s to %s such as 800ms, got %q", maxLatency, s)
		}
		f.latency = d
		return nil
	})
	intFlag("budget", &f.budget, 1, maxSafeInteger, fmt.Sprintf("snapshot budget in `bytes` of each referenced session, 1 to %d (default %d)", maxSafeInteger, sessionref.DefaultMaxReferenceBytes))
	fs.BoolVar(&f.noMouse, "no-mouse", false, "do not enable mouse reporting")
	fs.BoolVar(&f.inline, "inline", false, "draw below the shell prompt instead of on the alternate screen; keyboard only (no mouse)")
	fs.BoolVar(&f.plain, "plain", f.plain, "draw without colour (default when NO_COLOR is set)")
	fs.Func("sessions", "also offer the DeepSeek Harness sessions under this `root`, laid out as root/<project>/<session>/session.jsonl (or .jsonl.zstd)", func(s string) error {
		if strings.TrimSpace(s) == "" {
			return fail("sessions", "want a directory, got an empty value")
		}
		f.sessions = s
		return nil
	})
	fs.BoolVar(&f.noIndex, "no-index", false, "turn full-text discovery off: the picker searches titles, ids and folders only")
	fs.BoolVar(&f.noPrev, "no-preview", false, "no preview of the highlighted session in the picker")
	fs.Func("from", "also offer the sessions of these agents, a comma-separated `LIST` of dsh (DeepSeek Harness, $DSH_HOME/sessions), claude (Claude Code, $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects) and codex (Codex CLI, $CODEX_HOME/sessions and archived_sessions or ~/.codex/...); an agent with no history is named in F1 and skipped", func(s string) error {
		names, err := parseFrom(s)
		if err != nil {
			return fail("from", "%s", err.Error())
		}
		f.from = strings.Join(names, ",")
		return nil
	})
	fs.BoolVar(&f.dsh, "dsh", false, "also offer the DeepSeek Harness sessions of the default root ($DSH_HOME/sessions or ~/.dsh/sessions)")
	return fs
}

// parseFlags reads the command line. getenv is os.Getenv (NO_COLOR turns
// --plain on). Every failure is a *FlagError; --help sets help.
func parseFlags(args []string, getenv func(string) string) (flags, error) {
	f := flags{count: defaultCount, seed: 1, plain: getenv("NO_COLOR") != ""}
	var bad *FlagError
	fs := newFlagSet(&f, &bad)
	if err := fs.Parse(args); err != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			return flags{help: true}, nil
		case bad != nil:
			return flags{}, bad
		default:
			return flags{}, fromFlagPackage(err)
		}
	}
	if fs.NArg() > 0 {
		return flags{}, &FlagError{Reason: fmt.Sprintf("unexpected argument %q: the demo takes only flags", fs.Arg(0))}
	}
	if f.sessions != "" && f.dsh {
		return flags{}, &FlagError{Flag: "--sessions", Reason: "give either --sessions DIR or --dsh, not both"}
	}
	return f, nil
}

// uses reports whether --from names the agent name.
func (f flags) uses(name string) bool {
	return f.from != "" && slices.Contains(strings.Split(f.from, ","), name)
}

// sourceNames are the agents --from knows, in the order they are read.
var sourceNames = []string{"dsh", "claude", "codex"}

// parseFrom reads --from's list: names of sourceNames, comma-separated,
// in any order, each at most once.
func parseFrom(s string) ([]string, error) {
	seen := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		switch {
		case n == "":
			return nil, fmt.Errorf("want a comma-separated list of %s, got %q", strings.Join(sourceNames, ", "), s)
		case !slices.Contains(sourceNames, n):
			return nil, fmt.Errorf("unknown agent %q: want %s", n, strings.Join(sourceNames, ", "))
		case seen[n]:
			return nil, fmt.Errorf("%q is named twice", n)
		}
		seen[n] = true
	}
	var out []string
	for _, n := range sourceNames {
		if seen[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// fromFlagPackage turns the flag package's own errors (unknown flag,
// missing value, bad boolean) into a FlagError naming the flag.
func fromFlagPackage(err error) *FlagError {
	msg := err.Error()
	name := ""
	if i := strings.LastIndex(msg, " -"); i >= 0 {
		name = strings.TrimLeft(msg[i+1:], "-")
		if j := strings.IndexAny(name, ": "); j >= 0 {
			name = name[:j]
		}
	}
	switch {
	case strings.HasPrefix(msg, "flag provided but not defined"):
		return &FlagError{Flag: "--" + name, Reason: "no such flag"}
	case strings.HasPrefix(msg, "flag needs an argument"):
		return &FlagError{Flag: "--" + name, Reason: "needs a value"}
	case strings.HasPrefix(msg, "invalid boolean value"):
		return &FlagError{Flag: "--" + name, Reason: "want true or false"}
	case strings.HasPrefix(msg, "bad flag syntax"):
		return &FlagError{Reason: msg}
	}
	if name != "" {
		return &FlagError{Flag: "--" + name, Reason: msg}
	}
	return &FlagError{Reason: msg}
}

// printUsage writes the --help text.
func printUsage(w io.Writer) {
	var f flags
	var bad *FlagError
	fs := newFlagSet(&f, &bad)
	fs.SetOutput(w)
	fmt.Fprintf(w, "Usage: mentions-demo [flags]\n\nA chat screen on an embedded session store: type @ to mention another session.\n\nFlags:\n")
	fs.PrintDefaults()
}
