package schema

import (
	"path/filepath"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// Analyzer builds the *Schema of a package. It is not in the registry:
// analyzers that need unique keys or version columns require it. It
// exports no facts itself; the Go sources (generated tables, models)
// reach it through factsAnalyzer, which every driver runs on every
// dependency.
//
// Its Run fails, naming the file, when a DDL file the configuration names
// cannot be read.
var Analyzer = &analysis.Analyzer{
	Name:       "idemlintschema",
	Doc:        "collect the unique keys and version columns idemlint's analyzers use, from DDL files, sqlc schemas, generated packages and models",
	Requires:   []*analysis.Analyzer{config.Analyzer, factsAnalyzer},
	Run:        report.Guard(run),
	ResultType: reflect.TypeFor[*Schema](),
	// It reads files, not the package's code (report.IllTyped).
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	cfg := pass.ResultOf[config.Analyzer].(*config.Config)
	if cfg.Err != nil {
		return newSchema(cfg, nil, nil), nil // nothing is analysed (config.Config.Err)
	}
	facts, _ := pass.ResultOf[factsAnalyzer].(*factSet)
	dir := ""
	if len(pass.Files) > 0 {
		if name := pass.Fset.Position(pass.Files[0].Package).Filename; name != "" {
			dir = filepath.Dir(name)
		}
	}
	files, err := loadFiles(cfg, dir)
	if err != nil {
		return nil, err
	}
	// The sqlc configurations of the generated packages it imports, its
	// own way up excepted (loadFiles read those).
	if facts != nil && len(facts.sqlcConfigs) > 0 {
		own := map[string]bool{}
		for _, sc := range sqlcConfigsFrom(dir, cfg.ModuleRoot) {
			own[sc] = true
		}
		var more []string
		for _, sc := range sortedKeys(facts.sqlcConfigs) {
			if !own[sc] {
				more = append(more, sc)
			}
		}
		files = append(files, loadSqlc(more)...)
	}
	return newSchema(cfg, facts, files), nil
}
