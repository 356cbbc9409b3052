package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func noEnv(string) string { return "" }

func TestParseFlagsRejects(t *testing.T) {
	for _, tc := range []struct {
		args []string
		flag string // the flag the error names ("" for a stray argument)
		want string // a part of the reason
	}{
		{[]string{"--count", "-5"}, "--count", "from 0 to 100000"},
		{[]string{"--count=100001"}, "--count", "from 0 to 100000"},
		{[]string{"--count", "many"}, "--count", `got "many"`},
		{[]string{"--budget", "-1"}, "--budget", "from 1 to 9007199254740991"},
		{[]string{"--budget", "0"}, "--budget", "from 1"},
		{[]string{"--budget", "9007199254740993"}, "--budget", "from 1 to 9007199254740991"},
		{[]string{"--latency", "-1s"}, "--latency", "from 0s to 1m0s"},
		{[]string{"--latency", "2h"}, "--latency", "from 0s"},
		{[]string{"--latency", "soon"}, "--latency", `got "soon"`},
		{[]string{"--seed", "-1"}, "--seed", "whole number"},
		{[]string{"--cwd", ""}, "--cwd", "empty"},
		{[]string{"--sessions="}, "--sessions", "empty"},
		{[]string{"--sessions", "/tmp", "--dsh"}, "--sessions", "not both"},
		{[]string{"--nope"}, "--nope", "no such flag"},
		{[]string{"--from", "claude,cursor"}, "--from", `unknown agent "cursor"`},
		{[]string{"--from", "codex,codex"}, "--from", "named twice"},
		{[]string{"--from", ""}, "--from", "comma-separated list"},
		{[]string{"--from", "dsh,"}, "--from", "comma-separated list"},
		{[]string{"--count"}, "--count", "needs a value"},
		{[]string{"--plain=maybe"}, "--plain", "true or false"},
		{[]string{"extra"}, "", `unexpected argument "extra"`},
		{[]string{"--count", "5", "more", "args"}, "", `unexpected argument "more"`},
	} {
		_, err := parseFlags(tc.args, noEnv)
		var fe *FlagError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error %v (%T), want a *FlagError", tc.args, err, err)
			continue
		}
		if fe.Flag != tc.flag || !strings.Contains(fe.Reason, tc.want) {
			t.Errorf("%q: got flag %q reason %q, want flag %q reason containing %q", tc.args, fe.Flag, fe.Reason, tc.flag, tc.want)
		}
		if msg := err.Error(); strings.Contains(msg, "maxReferenceBytes") || strings.Contains(msg, "\n") {
			t.Errorf("%q: message %q names an internal field or spans lines", tc.args, msg)
		}
	}
}

func TestParseFlagsAccepts(t *testing.T) {
	f, err := parseFlags([]string{"--count", "0", "--seed", "7", "--latency", "800ms", "--budget", "9007199254740991", "--plain", "--inline", "--no-mouse", "--cwd", "/x"}, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	want := flags{count: 0, seed: 7, latency: 800 * time.Millisecond, budget: 1<<53 - 1, plain: true, inline: true, noMouse: true, cwd: "/x"}
	if f != want {
		t.Fatalf("got %+v, want %+v", f, want)
	}
	f, err = parseFlags(nil, func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	})
	if err != nil || !f.plain || f.count != defaultCount || f.seed != 1 || f.budget != 0 {
		t.Fatalf("defaults with NO_COLOR: %+v, %v", f, err)
	}
	if f, err := parseFlags([]string{"--help"}, noEnv); err != nil || !f.help {
		t.Fatalf("--help: %+v, %v", f, err)
	}
}

// TestRunBadFlags runs the command as main does: one line naming the
// flag, the usage hint, exit 1, and nothing started.
func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--count", "-5"}, {"--budget", "-1"}, {"--budget", "9007199254740993"}, {"--latency", "-1s"}, {"extra"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 1 {
			t.Errorf("%q: exit %d, want 1", args, code)
		}
		lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "mentions-demo: ") || lines[1] != usageHint {
			t.Errorf("%q: stderr %q", args, errOut.String())
		}
		if len(args) > 1 && !strings.Contains(lines[0], args[0]) {
			t.Errorf("%q: %q does not name %s", args, lines[0], args[0])
		}
		if out.Len() != 0 {
			t.Errorf("%q: stdout %q", args, out.String())
		}
	}
}

func TestRunHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "-budget") || !strings.Contains(out.String(), "root/<project>/<session>/session.jsonl") ||
		!strings.Contains(out.String(), "keyboard only (no mouse)") || errOut.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestRunBadSessionsRoot: a sessions root that cannot be used is refused
// like a bad flag: one line naming the flag and what is wrong in plain
// words, the usage hint, exit 1.
func TestRunBadSessionsRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "passwd")
	if err := os.WriteFile(file, []byte("root:x:0:0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nonexist")
	t.Setenv("DSH_HOME", filepath.Join(dir, "nohome"))
	for _, tc := range []struct {
		args []string
		want []string // parts of the first line
		not  []string // what it must not say
	}{
		{[]string{"--sessions", missing}, []string{"--sessions: ", missing + " does not exist", layout}, []string{"session not found"}},
		{[]string{"--sessions", file}, []string{"--sessions: ", file + " is not a directory", layout}, []string{"not a regular file"}},
		{[]string{"--dsh"}, []string{"--dsh: ", filepath.Join(dir, "nohome", "sessions"), "does not exist", "DSH_HOME is " + filepath.Join(dir, "nohome"), "--sessions DIR"}, []string{"session not found", "set DSH_HOME"}},
		{[]string{"--dsh", "(DSH_HOME unset)"}, []string{"--dsh: ", filepath.Join(dir, ".dsh", "sessions"), "does not exist", "set DSH_HOME or give --sessions DIR"}, []string{"DSH_HOME is"}},
	} {
		if len(tc.args) == 2 && tc.args[1] == "(DSH_HOME unset)" {
			t.Setenv("DSH_HOME", "")
			t.Setenv("HOME", dir)
			tc.args = tc.args[:1]
		}
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != 1 {
			t.Errorf("%q: exit %d, want 1", tc.args, code)
		}
		lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "mentions-demo: ") || lines[1] != usageHint {
			t.Errorf("%q: stderr %q", tc.args, errOut.String())
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(lines[0], w) {
				t.Errorf("%q: %q does not say %q", tc.args, lines[0], w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(lines[0], n) {
				t.Errorf("%q: %q says %q", tc.args, lines[0], n)
			}
		}
	}
}

// TestRunErrorSaysItOnce: without a terminal the error names the need
// once, not Bubble Tea at every level of wrapping.
func TestRunErrorSaysItOnce(t *testing.T) {
	err := errors.New("bubbletea: error opening TTY: bubbletea: could not open TTY: open /dev/tty: no such device or address")
	got := runError(err)
	if want := "needs a terminal: could not open TTY: open /dev/tty: no such device or address"; got != want {
		t.Fatalf("runError = %q, want %q", got, want)
	}
	if got := runError(errors.New("disk full")); got != "disk full" {
		t.Fatalf("another error changed: %q", got)
	}
}

// TestRunEchoesNoControlBytes: a path given on the command line or in
// DSH_HOME that holds escapes (an OSC 52 clipboard write, BEL, a bidi
// override) is echoed quoted, never as the bytes a terminal would act on.
func TestRunEchoesNoControlBytes(t *testing.T) {
	dir := t.TempDir()
	hostile := "/no/such\x1b]52;c;aGVsbG8=\a\u202e\x9b31m"
	for _, tc := range []struct {
		args []string
		home string
	}{
		{[]string{"--sessions", hostile}, ""},
		{[]string{"--dsh"}, filepath.Join(dir, "x\x1b[2J\x07")},
		{[]string{"--cwd", "\x1b[31m", "--count", "\x1b]0;t\a"}, ""},
		{[]string{"\x1b[6n"}, ""},
	} {
		t.Setenv("DSH_HOME", tc.home)
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != 1 {
			t.Errorf("%q: exit %d, want 1", tc.args, code)
		}
		for _, r := range errOut.String() {
			if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e') {
				t.Errorf("%q: stderr holds %U: %q", tc.args, r, errOut.String())
				break
			}
		}
		if errOut.Len() == 0 {
			t.Errorf("%q: nothing said", tc.args)
		}
	}
}
