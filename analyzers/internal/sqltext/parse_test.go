package sqltext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseRealisticStatements(t *testing.T) {
	for _, tc := range realisticStatements {
		t.Run(tc.source, func(t *testing.T) {
			st := Parse(tc.sql)
			assert.Equal(t, tc.want, describe(st), "SQL: %s", tc.sql)
			wantUnknown := strings.Contains(tc.want, "unknown=")
			assert.Equal(t, !wantUnknown, st.Understood(), "Understood() for SQL: %s", tc.sql)
		})
	}
}
