package plugin_test

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/plugin"
)

func build(t *testing.T, settings any) ([]string, error) {
	t.Helper()
	t.Cleanup(func() { require.NoError(t, config.SetDriver(config.Settings{})) })
	newPlugin, err := register.GetPlugin(plugin.Name)
	require.NoError(t, err)
	p, err := newPlugin(settings)
	if err != nil {
		return nil, err
	}
	assert.Equal(t, register.LoadModeTypesInfo, p.GetLoadMode())
	as, err := p.BuildAnalyzers()
	require.NoError(t, err)
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	return names, nil
}

func TestDefaults(t *testing.T) {
	names, err := build(t, nil)
	require.NoError(t, err)
	var want []string
	for _, a := range analyzers.Default() {
		want = append(want, a.Name)
	}
	assert.Equal(t, want, names)
}

func TestSettingsReachConfig(t *testing.T) {
	_, err := build(t, map[string]any{
		"version-column":      "rev",
		"idempotency-headers": []any{"X-Request-Key"},
		"schema-discover":     false,
	})
	require.NoError(t, err)
	c, err := config.For("")
	require.NoError(t, err)
	assert.Equal(t, "rev", c.VersionColumn)
	assert.False(t, c.SchemaDiscover)
	assert.Contains(t, c.IdempotencyHeaders, "X-Request-Key")
}

func TestDisableKeepsIgnoreDirective(t *testing.T) {
	names, err := build(t, map[string]any{"disable": []any{"ignoredirective"}})
	require.NoError(t, err)
	assert.NotContains(t, names, "ignoredirective")
}

func TestBadSettingsNameTheSetting(t *testing.T) {
	for _, tc := range []struct {
		settings map[string]any
		want     string
	}{
		{map[string]any{"version-colum": "rev"}, "unknown setting version-colum (known: enable, disable, schema, schema-discover, version-column"},
		{map[string]any{"schema-discover": "no"}, "idemlint settings: schema-discover: want true or false, got a string"},
		{map[string]any{"version-column": 3}, "idemlint settings: version-column: want a string, got a number"},
		{map[string]any{"version-column": []any{"rev"}}, "version-column: want a string, got a list"},
		{map[string]any{"schema": []any{"db/missing.sql"}}, "idemlint setting schema: "},
		{map[string]any{"enable": 3}, "enable: want a list of analyzer names"},
		{map[string]any{"version-column": "1rev"}, `version-column: "1rev" is not a SQL column name`},
		{map[string]any{"disable": []any{"nosuch"}}, `no analyzer "nosuch"`},
	} {
		_, err := build(t, tc.settings)
		require.Error(t, err, tc.settings)
		assert.Contains(t, err.Error(), tc.want)
		assert.NotContains(t, err.Error(), "config.Settings", "no Go struct names")
		assert.NotContains(t, err.Error(), "plugin.Settings", "no Go struct names")
	}
}
