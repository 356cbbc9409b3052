package textutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWidthsAgreeWithTmux draws sanitised titles in a real terminal
// (tmux) and checks that it gives each the width [Width] does: each line
// is the title, dots up to the 40th cell as Width counts, and a "Z" that
// must wrap to the next row alone. A terminal that draws the title
// narrower keeps the Z on the row; wider pushes dots after it.
func TestWidthsAgreeWithTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("starts tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	const cols = 40
	titles := []string{
		"a\uFE0F", "❤\uFE0F", "1\uFE0F\u20E3", "☺\uFE0F", "↔\uFE0F", "🎉\uFE0F", "🎉\uFE0E", "🎉",
		"界\uFE00", "x" + strings.Repeat("\u0301", 200000), "e\u0301", "🇯🇵", "👩\u200D💻", "Zalgo x\u0334\u0335", "🏳\uFE0F\u200D🌈",
	}
	var b strings.Builder
	for _, title := range titles {
		s := Inline(title)
		if len(s) > 4*MaxClusterRunes*Width(s)+8 {
			t.Fatalf("Inline(%.20q…) is %d bytes for %d cells", title, len(s), Width(s))
		}
		fmt.Fprintf(&b, "%s%sZ\n", s, strings.Repeat(".", cols-Width(s)))
	}
	b.WriteString("END\n")
	dir := t.TempDir()
	file := filepath.Join(dir, "lines.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("widths-%d", os.Getpid())
	cmd := exec.Command("tmux", "-f", "/dev/null", "-L", name, "new-session", "-d", "-s", name,
		"-x", fmt.Sprint(cols), "-y", fmt.Sprint(2*len(titles)+4), "cat "+file+"; sleep 60")
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "LC_ALL=C.UTF-8")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("tmux: %v %s", err, out)
	}
	defer exec.Command("tmux", "-L", name, "kill-server").Run()
	var screen string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out, err := exec.Command("tmux", "-L", name, "capture-pane", "-p", "-t", name).Output()
		if err == nil && strings.Contains(string(out), "END") {
			screen = string(out)
			break
		}
	}
	if screen == "" {
		t.Fatal("tmux never drew the lines")
	}
	rows := strings.Split(screen, "\n")
	for i, title := range titles {
		if 2*i+1 >= len(rows) || strings.TrimRight(rows[2*i+1], " ") != "Z" || !strings.HasSuffix(rows[2*i], ".") {
			t.Errorf("%.24q drawn as %q / %q: tmux's width is not Width's %d", title, rows[min(2*i, len(rows)-1)], rows[min(2*i+1, len(rows)-1)], Width(Inline(title)))
		}
	}
}
