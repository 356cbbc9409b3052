package sessionref

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// Limits and defaults of the service.
const (
	// MaxReferences is the most distinct sessions one message may reference.
	MaxReferences = 3
	// DefaultCandidateLimit is how many candidates the remote listing returns.
	DefaultCandidateLimit = 50
	// DefaultMaxReferenceBytes is the budget of one referenced session's
	// serialized snapshot.
	DefaultMaxReferenceBytes = 65536
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// Config sets the resolver's limits. A zero field takes its default.
type Config struct {
	// MaxReferences is the most distinct sessions a message may reference
	// (1 to 3; default 3).
	MaxReferences int
	// CandidateLimit is the number of candidates of
	// [Resolver.ListMentionCandidates] (default 50).
	CandidateLimit int
	// MaxReferenceBytes is the byte budget of each referenced session's
	// serialized snapshot (default 65536).
	MaxReferenceBytes int
}

// withDefaults validates c and fills in defaults.
func (c Config) withDefaults() (Config, error) {
	fields := []struct {
		name string
		v    *int
		def  int
	}{
		{"maxReferences", &c.MaxReferences, MaxReferences},
		{"candidateLimit", &c.CandidateLimit, DefaultCandidateLimit},
		{"maxReferenceBytes", &c.MaxReferenceBytes, DefaultMaxReferenceBytes},
	}
	for _, f := range fields {
		if *f.v == 0 {
			*f.v = f.def
		}
		if *f.v < 0 || *f.v > maxSafeInteger {
			return Config{}, configError(f.name + " must be a positive safe integer")
		}
	}
	if c.MaxReferences > MaxReferences {
		return Config{}, configError(fmt.Sprintf("maxReferences must not exceed %d", MaxReferences))
	}
	return c, nil
}

func configError(msg string) *Error {
	return newError(CodeInvalidConfig, "session-reference: "+msg, nil)
}

// ConfigFromJSON reads a configuration object the way the reference
// validates it: a key that is absent or null takes its default, while an
// explicit 0, a fraction, a non-number or a value above 2^53−1 is
// [CodeInvalidConfig]. Keys: maxReferences, candidateLimit,
// maxReferenceBytes.
func ConfigFromJSON(data []byte) (Config, error) {
	var raw map[string]json.RawMessage
	if len(bytes.TrimSpace(data)) > 0 && !bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		if err := json.Unmarshal(data, &raw); err != nil {
			return Config{}, newError(CodeInvalidConfig, "session-reference: config must be a JSON object", err)
		}
	}
	var c Config
	for _, f := range []struct {
		name string
		v    *int
	}{{"maxReferences", &c.MaxReferences}, {"candidateLimit", &c.CandidateLimit}, {"maxReferenceBytes", &c.MaxReferenceBytes}} {
		r, ok := raw[f.name]
		if !ok || bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
			continue
		}
		var x float64
		if err := json.Unmarshal(r, &x); err != nil || x != math.Trunc(x) || x < 1 || x > maxSafeInteger {
			return Config{}, configError(f.name + " must be a positive safe integer")
		}
		*f.v = int(x)
	}
	return c.withDefaults()
}
