package textutil

import "testing"

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
