package plain

import "testing"

func TestBytes(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 512: "512 B", 1024: "1 KiB", 1536: "1.5 KiB", 64 << 10: "64 KiB", 2 << 20: "2 MiB", 3 << 30: "3 GiB", -2048: "-2 KiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestIsUUID(t *testing.T) {
	for s, want := range map[string]bool{
		"3f2a9c1e-1111-4111-8111-111111111111": true, "3F2A9C1E-1111-4111-8111-111111111111": true,
		"3f2a9c1e-1111-4111-8111-11111111111": false, "3f2a9c1e_1111-4111-8111-111111111111": false,
		"3f2a9c1e-1111-4111-8111-11111111111g": false, "": false,
	} {
		if IsUUID(s) != want {
			t.Errorf("IsUUID(%q) != %v", s, want)
		}
	}
}
