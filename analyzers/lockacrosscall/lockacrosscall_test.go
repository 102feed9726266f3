package lockacrosscall_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/testutil"
	"github.com/idemlint/idemlint/analyzers/lockacrosscall"
)

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(lockacrosscall.Analyzer),
		"./lockacrosscall/checkout", "./lockacrosscall/orm", "./lockacrosscall/devices", "./lockacrosscall/outbox",
		"./lockacrosscall/sqorders", "./lockacrosscall/gormv1pay", "./lockacrosscall/gorporders", "./lockacrosscall/xormorders",
		"./lockacrosscall/gopgsvc", "./lockacrosscall/goquorders", "./lockacrosscall/gin/api")
}

// TestRelated checks what // want cannot: each finding points at its lock.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(lockacrosscall.Analyzer), "./lockacrosscall/checkout")
	found := 0
	for _, res := range results {
		for _, d := range res.Diagnostics {
			d.Related = testutil.Evidence(t, d)
			found++
			require.Len(t, d.Related, 1, d.Message)
			lock := res.Pass.Fset.Position(d.Related[0].Pos)
			call := res.Pass.Fset.Position(d.Pos)
			assert.Equal(t, call.Filename, lock.Filename)
			assert.Less(t, lock.Line, call.Line, "the lock comes before the call: %s", d.Message)
			assert.Contains(t, d.Related[0].Message, "the lock: ")
			assert.Equal(t, "lockacrosscall/call", d.Category)
		}
	}
	assert.Equal(t, 4, found)
}
