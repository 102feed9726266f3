package config

import (
	"errors"
	"testing"
)

// FuzzParse: any bytes as .idemlint.yml are settings or one *Error, never
// a panic; settings Parse accepts pass Validate, and an error names the
// line of the setting when it has one.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"schema: [db/schema.sql]\nversion-column: version\n",
		"schema-discover: false\nidempotency-headers: [X-Request-Key]\n",
		"network-funcs: [\"(*example.com/notify.Client).Send\"]\nretry-funcs: [example.com/internal/retry.Do]\n",
		"enable: [retrypost/unknown-effect]\n",
		"disable:\n  - path: internal/legacy/...\n    analyzers: [lostupdate, retrypost/nokey]\n",
		"disable:\n  - path: ../outside\n    analyzers: [nosuch]\n",
		"version-colum: version\n",
		"schema: 3\n",
		"- a\n- b\n",
		"{",
		"",
		"version-field: \"\"\n",
		"&a [*a]\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v is not a *config.Error", err, err)
			}
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse accepted what Validate rejects: %v", err)
		}
	})
}
