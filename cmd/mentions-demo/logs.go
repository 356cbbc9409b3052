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
	_, err := scanLogs(o, root, dsh, generated)
	return err
}

// dshScan is what addLogs found in a DeepSeek Harness root.
type dshScan struct {
	root  string
	infos []dshlog.Info
	loose int // logs lying directly in the root
}

// scanLogs is addLogs, telling what it found (nil when it offers none).
func scanLogs(o *demo.Options, root string, dsh bool, generated int) (*dshScan, error) {
	if root == "" && !dsh {
		return nil, nil
	}
	flag := "--sessions"
	if root == "" {
		flag = "--dsh"
		var err error
		if root, err = dshlog.DefaultRoot(); err != nil {
			return nil, &FlagError{Flag: flag, Reason: "cannot find the default sessions root ($DSH_HOME/sessions or ~/.dsh/sessions): " + err.Error()}
		}
	}
	store, err := dshlog.Open(root)
	if err != nil {
		return nil, rootError(flag, root, err)
	}
	infos, err := store.Sessions(context.Background())
	if err != nil {
		return nil, rootError(flag, root, err)
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
	scan := &dshScan{root: root, infos: infos, loose: looseLogs(root)}
	o.Notice = rootNotice(root, listed, infos, scan.loose)
	return scan, nil
}

// rootNotice says why a root offers fewer sessions than it seems to
// hold, or is empty when nothing is amiss: logs skipped, one sentence
// per cause and counted, or logs lying directly in the root where a
// sessions root keeps them two levels down. The layout a root expects
// is named only when a cause is about where logs lie.
func rootNotice(root string, listed int, infos []dshlog.Info, loose int) string {
	type cause struct {
		n      int
		first  string // the first log's own error, its path from the root
		layout bool   // about where the logs lie
		say    func(n int) string
	}
	var causes []*cause
	byKey := map[string]*cause{}
	for _, in := range infos {
		if in.Err == nil {
			continue
		}
		key, say, layout := skipCause(in.Err)
		c := byKey[key]
		if c == nil {
			c = &cause{say: say, layout: layout,
				first: strings.TrimPrefix(in.Err.Error(), strings.TrimSuffix(root, string(os.PathSeparator))+string(os.PathSeparator))}
			byKey[key] = c
			causes = append(causes, c)
		}
		c.n++
	}
	skipped := len(infos) - listed
	if skipped <= 0 && loose == 0 && listed > 0 {
		return ""
	}
	slices.SortStableFunc(causes, func(a, b *cause) int { return b.n - a.n })
	sentences := []string{fmt.Sprintf("%s in %s", plural(listed, "DeepSeek Harness session"), shown(root))}
	layoutHint := false
	if skipped > 0 {
		sentences[0] += fmt.Sprintf("; %s skipped", plural(skipped, "log"))
		for _, c := range causes {
			sentences = append(sentences, c.say(c.n))
			layoutHint = layoutHint || c.layout
		}
		if listed == 0 {
			// Nothing usable: the first log's own error, so the user can
			// act on it (which file, which line, what was expected).
			sentences = append(sentences, "The first: "+causes[0].first)
		}
	}
	if loose > 0 {
		sentences = append(sentences, fmt.Sprintf("%s directly in it %s not read", plural(loose, "log"), were(loose)))
		layoutHint = true
	}
	if len(infos) == 0 && loose == 0 {
		sentences = append(sentences, "No logs found")
		layoutHint = true
	}
	if layoutHint {
		sentences = append(sentences, "A sessions root keeps each log at "+layout)
	}
	for i, t := range sentences {
		sentences[i] = strings.TrimRight(t, ".")
	}
	return strings.Join(sentences, ". ") + "."
}

// skipCause is what was wrong with a skipped log: a key to count it
// under, the sentence for n such logs, and whether it is about where the
// log lies (its folder does not match its header).
func skipCause(err error) (key string, say func(n int) string, layout bool) {
	are := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	var le *dshlog.LogError
	detail := ""
	if errors.As(err, &le) {
		detail = le.Detail
	}
	switch {
	case errors.Is(err, dshlog.ErrHeader) && detail != "" && !strings.Contains(detail, "belongs in"):
		return "badheader", func(n int) string {
			return are(n, "log has no valid session header", "logs have no valid session header")
		}, false
	case errors.Is(err, dshlog.ErrDuplicate) && strings.Contains(detail, "session directory also holds"):
		return "pair", func(n int) string {
			return are(n, "session directory holds both a raw and a zstd log (the raw one is read)", "session directories hold both a raw and a zstd log (the raw ones are read)")
		}, false
	case errors.Is(err, dshlog.ErrHeader):
		return "header", func(n int) string {
			return are(n, "log's header does not match the folder it lies in", "logs' headers do not match the folders they lie in")
		}, true
	case errors.Is(err, dshlog.ErrDuplicate):
		return "duplicate", func(n int) string {
			return are(n, "session id is under two project folders (neither is listed)", "session ids are each under two project folders (none of them is listed)")
		}, false
	case errors.Is(err, dshlog.ErrVersion):
		return "version", func(n int) string {
			return are(n, "log is of an unsupported version", "logs are of an unsupported version")
		}, false
	case errors.Is(err, dshlog.ErrNotRegular):
		return "irregular", func(n int) string {
			return are(n, "log is not a regular file (links are not followed)", "logs are not regular files (links are not followed)")
		}, false
	case errors.Is(err, dshlog.ErrTooLarge):
		return "large", func(n int) string { return are(n, "log is too large", "logs are too large") }, false
	case errors.Is(err, dshlog.ErrCorrupt):
		return "corrupt", func(n int) string { return are(n, "log is corrupt", "logs are corrupt") }, false
	case errors.Is(err, dshlog.ErrUnknownEvent):
		return "event", func(n int) string {
			return are(n, "log holds an event type this reader does not know", "logs hold event types this reader does not know")
		}, false
	case errors.Is(err, dshlog.ErrUnreadable), errors.Is(err, fs.ErrPermission):
		return "unreadable", func(n int) string { return are(n, "log cannot be read", "logs cannot be read") }, false
	}
	r := err.Error()
	if le != nil && le.Err != nil {
		r = le.Err.Error()
	}
	return "other: " + r, func(n int) string { return are(n, "log: ", "logs: ") + r }, false
}

func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
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
	case errors.Is(err, fs.ErrNotExist) && flag == "--dsh" && strings.TrimSpace(os.Getenv("DSH_HOME")) != "":
		reason = fmt.Sprintf("no DeepSeek Harness sessions at %s (it does not exist; DSH_HOME is %s); point DSH_HOME at the harness's home or give --sessions DIR", root, shown(strings.TrimSpace(os.Getenv("DSH_HOME"))))
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
