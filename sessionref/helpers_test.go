package sessionref

import (
	"encoding/base64"
	"encoding/json"
)

func b64(raw string) string { return base64.RawURLEncoding.EncodeToString([]byte(raw)) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
