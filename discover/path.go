package discover

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// DefaultPath returns where the index of the sessions root should live:
// a file under the user's cache directory ([os.UserCacheDir]) named by a
// hash of the root's absolute path, so each root has its own index and
// the next start syncs only what changed. The path is never inside root.
// Pass root to [RefuseInside] as well when opening.
func DefaultPath(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("discover: sessions root: %w", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("discover: no cache directory: %w", err)
	}
	sum := sha256.Sum256([]byte(filepath.Clean(abs)))
	p := filepath.Join(cache, "dshkit-mentions", "discover", hex.EncodeToString(sum[:12])+".sqlite")
	if inside(p, abs) {
		return "", fmt.Errorf("%w: the cache directory %s is in %s", ErrInsideRoot, cache, abs)
	}
	return p, nil
}
