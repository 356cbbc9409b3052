package textutil

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{0, "0 B"}, {512, "512 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {6246, "6.1 KiB"},
		{64 << 10, "64 KiB"}, {1 << 20, "1 MiB"}, {3<<20 + 1<<19, "3.5 MiB"}, {2 << 30, "2 GiB"},
	} {
		if got := Bytes(c.n); got != c.want {
			t.Errorf("Bytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestShortID(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "0f8e2c4a"},
		{"short", "short"},
		{"persisted-session-2", "persi…sion-2"},
		{"{{sessionId}}", "{{ses…onId}}"},
		{"a\x1b[2Jb", `a\x1B[2Jb`},
		{"会话会话会话会话会话", "会话…话会话"},
	} {
		got := ShortID(c.id)
		if got != c.want {
			t.Errorf("ShortID(%q) = %q, want %q", c.id, got, c.want)
		}
		if w := Width(got); w > ShortIDWidth {
			t.Errorf("ShortID(%q) is %d cells", c.id, w)
		}
	}
}

func TestShortenHome(t *testing.T) {
	for _, c := range []struct{ p, home, want string }{
		{"/home/dev", "/home/dev", "~"},
		{"/home/dev/src/x", "/home/dev", "~/src/x"},
		{"/home/dev/src/x", "/home/dev/", "~/src/x"},
		{"/home/dev2/x", "/home/dev", "/home/dev2/x"},
		{"/srv/x", "", "/srv/x"},
		{`C:\Users\dev\src`, `C:\Users\dev`, `~\src`},
		{"/", "/", "/"},
	} {
		if got := ShortenHome(c.p, c.home); got != c.want {
			t.Errorf("ShortenHome(%q, %q) = %q, want %q", c.p, c.home, got, c.want)
		}
	}
}

func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	epoch2000 := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	for _, c := range []struct {
		name string
		ms   int64
		want string
	}{
		{"zero", 0, "—"},
		{"negative", -5, "—"},
		{"2 ms after the epoch", 2, "—"},
		{"12 ms after the epoch", 12, "—"},
		{"a day after the epoch", 86_400_000, "—"},
		{"1 ms before 2000", epoch2000 - 1, "—"},
		{"2000-01-01", epoch2000, "26y ago"},
		{"a second ago", now.Add(-time.Second).UnixMilli(), "just now"},
		{"5 minutes ago", now.Add(-5 * time.Minute).UnixMilli(), "5m ago"},
		{"3 hours ago", now.Add(-3 * time.Hour).UnixMilli(), "3h ago"},
		{"50 hours ago", now.Add(-50 * time.Hour).UnixMilli(), "2d ago"},
		{"70 days ago", now.Add(-70 * 24 * time.Hour).UnixMilli(), "2mo ago"},
		{"800 days ago", now.Add(-800 * 24 * time.Hour).UnixMilli(), "2y ago"},
		{"an hour ahead", now.Add(time.Hour).UnixMilli(), "just now"},
		{"a day ahead", now.Add(24 * time.Hour).UnixMilli(), "just now"},
		{"a day and 1 ms ahead", now.Add(24*time.Hour + time.Millisecond).UnixMilli(), "—"},
		{"far ahead", math.MaxInt64, "—"},
	} {
		if got := Age(now, c.ms); got != c.want {
			t.Errorf("%s: Age(%d) = %q, want %q", c.name, c.ms, got, c.want)
		}
	}
}

func TestShortIDs(t *testing.T) {
	ids := []string{"acp-session-4f1c2a-child1", "acp-session-9e2d7b-child1", "short", "0f8e2c4a-1b2c-4d3e-8f90-123456789abc"}
	for _, c := range []struct {
		w     int
		want  []string
		apart bool
	}{
		// The middle cut reads the same for the two long ids; a cut
		// further left tells them apart in the same 12 cells.
		{12, []string{"acp…a-child1", "acp…b-child1", "short", "0f8e2c4a"}, true},
		{5, []string{"ac…d1", "ac…d1", "short", "0f8e2c4a"}, false},
		{40, []string{"acp-session-4f1c2a-child1", "acp-session-9e2d7b-child1", "short", "0f8e2c4a"}, true},
	} {
		got, ok := ShortIDs(ids, c.w)
		if ok != c.apart || strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("ShortIDs(w=%d) = %q, %v; want %q, %v", c.w, got, ok, c.want, c.apart)
		}
		for i, f := range got {
			if i < 3 && Width(f) > c.w {
				t.Errorf("ShortIDs(w=%d): %q is %d cells", c.w, f, Width(f))
			}
		}
	}
	// Two UUIDs that share their first 8 characters keep them: no cut
	// tells them apart, and they are not what makes a set collide.
	uuids := []string{"0f8e2c4a-1b2c-4d3e-8f90-123456789abc", "0f8e2c4a-ffff-4d3e-8f90-123456789abc", "x"}
	if got, ok := ShortIDs(uuids, 12); !ok || got[0] != "0f8e2c4a" || got[1] != "0f8e2c4a" {
		t.Errorf("UUIDs: %q, %v", got, ok)
	}
}
