package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dshkit/mentions/demo"
	"github.com/dshkit/mentions/dshlog"
	"github.com/dshkit/mentions/internal/textutil"
)

// layout is where a sessions root keeps its logs, as the help and the
// messages about a root name it.
const layout = "<root>/<project>/<session>/session.jsonl"

// addLogs offers real DeepSeek Harness sessions for reference besides the
// embedded ones: --sessions DIR, or --dsh for the default root. A root
// that cannot be used is a *FlagError naming the flag. generated is the
// count of embedded sessions, for the header.
func addLogs(o *demo.Options, root string, dsh bool, generated int) error {
	if root == "" && !dsh {
		return nil
	}
	flag := "--sessions"
	if root == "" {
		flag = "--dsh"
		var err error
		if root, err = dshlog.DefaultRoot(); err != nil {
			return &FlagError{Flag: flag, Reason: "cannot find the default sessions root ($DSH_HOME/sessions or ~/.dsh/sessions): " + err.Error()}
		}
	}
	store, err := dshlog.Open(root)
	if err != nil {
		return rootError(flag, root, err)
	}
	infos, err := store.Sessions(context.Background())
	if err != nil {
		return rootError(flag, root, err)
	}
	listed := 0
	for _, in := range infos {
		if in.Err == nil {
			listed++
		}
	}
	o.Others = store
	// The counts first: a narrow header cuts the end.
	o.StoreName = fmt.Sprintf("%d generated + %s in %s", generated, plural(listed, "DeepSeek Harness session"), shown(root))
	o.Notice = rootNotice(root, listed, infos, looseLogs(root))
	return nil
}

// rootNotice says why a root offers fewer sessions than it seems to
// hold, or is empty when nothing is amiss: logs skipped (counted by what
// was wrong with them), or logs lying directly in the root where a
// sessions root keeps them two levels down.
func rootNotice(root string, listed int, infos []dshlog.Info, loose int) string {
	skipped := map[string]int{}
	var reasons []string
	first := map[string]string{} // each reason's first log, as its error says it
	for _, in := range infos {
		if in.Err == nil {
			continue
		}
		r := in.Err.Error()
		var le *dshlog.LogError
		if errors.As(in.Err, &le) && le.Err != nil {
			r = le.Err.Error() // the sentinel: "invalid session header", …
		}
		if errors.Is(in.Err, dshlog.ErrNotRegular) {
			r += " (links are not followed)" // a symbolic link is the usual one
		}
		if skipped[r] == 0 {
			reasons = append(reasons, r)
			first[r] = strings.TrimPrefix(in.Err.Error(), strings.TrimSuffix(root, string(os.PathSeparator))+string(os.PathSeparator))
		}
		skipped[r]++
	}
	var parts []string
	if n := len(infos) - listed; n > 0 {
		slices.SortStableFunc(reasons, func(a, b string) int { return skipped[b] - skipped[a] })
		var why []string
		for _, r := range reasons {
			why = append(why, fmt.Sprintf("%d %s", skipped[r], r))
		}
		s := fmt.Sprintf("%s skipped: %s", plural(n, "log"), strings.Join(why, ", "))
		if listed == 0 {
			// Nothing usable: the first log's own error, so the user can
			// act on it (which file, which line, what was expected).
			s += "; the first: " + first[reasons[0]]
		}
		parts = append(parts, s)
	}
	if loose > 0 {
		parts = append(parts, fmt.Sprintf("%s directly in it, not read", plural(loose, "log")))
	}
	if len(parts) == 0 && listed > 0 {
		return ""
	}
	if len(parts) == 0 {
		parts = append(parts, "no logs found")
	}
	return fmt.Sprintf("%s in %s (%s; expected %s)", plural(listed, "DeepSeek Harness session"), shown(root), strings.Join(parts, "; "), layout)
}

// shown is a path as the demo echoes it: as it is when the terminal
// sanitiser would leave it alone, else quoted with Go's escapes, so a
// path holding ESC, BEL or an invisible character is seen for what it is.
func shown(path string) string {
	if textutil.Inline(path) == path {
		return path
	}
	return strconv.Quote(path)
}

// looseLogs counts the regular *.jsonl and *.jsonl.zstd files directly
// in root, which a sessions root does not hold: a flat folder of logs
// given as a root. It reads the one directory, O(entries).
func looseLogs(root string) int {
	entries, err := os.ReadDir(root)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && (strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.zstd")) {
			n++
		}
	}
	return n
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// rootError says in plain words why root cannot be read as a sessions
// root, naming the flag that gave it.
func rootError(flag, root string, err error) *FlagError {
	var reason string
	root = shown(root)
	switch {
	case errors.Is(err, fs.ErrNotExist) && flag == "--dsh":
		reason = fmt.Sprintf("no DeepSeek Harness sessions at %s (it does not exist); set DSH_HOME or give --sessions DIR", root)
	case errors.Is(err, fs.ErrNotExist):
		reason = fmt.Sprintf("%s does not exist; want a DeepSeek Harness sessions root (%s)", root, layout)
	case errors.Is(err, dshlog.ErrNotRegular):
		reason = fmt.Sprintf("%s is not a directory; want a DeepSeek Harness sessions root (%s)", root, layout)
	case errors.Is(err, fs.ErrPermission):
		reason = fmt.Sprintf("cannot read %s: permission denied", root)
	default:
		reason = fmt.Sprintf("cannot read %s: %v", root, err)
	}
	return &FlagError{Flag: flag, Reason: reason}
}
