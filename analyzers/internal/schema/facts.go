package schema

import (
	"go/ast"
	"go/constant"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/origin"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// factsAnalyzer exports, for every package, what the package and
// everything it imports declare in Go: the tables of generated packages
// (TableReader), the models that carry their library's evidence
// (ModelReader), and the TableName constants of model types. Every driver runs it on every dependency and keys its
// caches on the Go source, so these sources need no help from -V=full.
//
// A package fact is re-exported by each importer (the union of its imports'
// facts and its own): go vet, gopls and golangci-lint hand a package only
// the facts of its direct imports, and a program imports a library's
// generated client, which imports the generated package that declares
// the tables.
var factsAnalyzer = &analysis.Analyzer{
	Name:     "idemlintschemafacts",
	Doc:      "export the tables of generated packages and the models a package and its imports declare, for idemlint's schema layer",
	Run:      report.Guard(runFacts),
	Requires: []*analysis.Analyzer{origin.Analyzer},
	// Importers of a package that does not compile still get the tables
	// of its imports (report.IllTyped).
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(tablesFact)},
	ResultType:       reflect.TypeFor[*factSet](),
}

// FactsAnalyzer is factsAnalyzer, for the layers whose library hooks
// name models as the schema layer does: they read the naming settings a
// package sees through Naming.
var FactsAnalyzer = factsAnalyzer

// Naming returns the settings of library lib's naming of its models that
// the package of pass and its imports make (ModelReader.Naming), sorted;
// nil when none. pass's analyzer must require FactsAnalyzer.
func Naming(pass *analysis.Pass, lib string) []string {
	fs, _ := pass.ResultOf[factsAnalyzer].(*factSet)
	return namingOf(fs.naming(), lib)
}

// tablesFact is the package fact. Its slices are sorted, so that the
// encoded fact, and the vet caches keyed on it, are deterministic.
type tablesFact struct {
	Tables     []*desc     // tables of generated code
	Models     []*Model    // models with evidence
	TableNames []tableName // types with a TableName method
	// Namings are the settings of the libraries' naming of their models
	// that the package and its imports make (ModelReader.Naming), each
	// prefixed with its library: "xorm:column=gonic".
	Namings []string
	// SqlcConfigs are the sqlc configurations of the packages of
	// sqlc-generated code the package is or imports: each importer
	// loads their tables itself (cached per process), so the fact stays
	// small however large the schema.
	SqlcConfigs []string
}

// tableName is what a type's TableName method returns: Known is false
// when it is not a constant (or takes a Namer).
type tableName struct {
	Type, Name string
	Known      bool
}

func (*tablesFact) AFact() {}

func (f *tablesFact) String() string {
	var items []string
	for _, t := range f.Tables {
		items = append(items, t.Source.Lib+":"+qualify(t.Schema, t.Name))
	}
	for _, m := range f.Models {
		items = append(items, m.Lib+":"+m.Type+"="+m.Table)
	}
	for _, tn := range f.TableNames {
		name := tn.Name
		if !tn.Known {
			name = "?"
		}
		items = append(items, "tablename:"+tn.Type+"="+name)
	}
	for _, sc := range f.SqlcConfigs {
		items = append(items, "sqlc:"+filepath.Base(filepath.Dir(sc))+"/"+filepath.Base(sc))
	}
	for _, n := range f.Namings {
		items = append(items, "naming:"+n)
	}
	return strings.Join(items, " ")
}

func qualify(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// factSet is the union of the facts a package sees and its own.
type factSet struct {
	code        map[string]*desc  // by source package and table name
	models      map[string]*Model // by type
	tableNames  map[string]tableName
	sqlcConfigs map[string]bool
	namings     map[string]bool
}

func newFactSet() *factSet {
	return &factSet{code: map[string]*desc{}, models: map[string]*Model{}, tableNames: map[string]tableName{}, sqlcConfigs: map[string]bool{},
		namings: map[string]bool{}}
}

func (fs *factSet) add(f *tablesFact) {
	for _, t := range f.Tables {
		fs.code[t.Source.Name+" "+qualify(t.Schema, t.Name)] = t
	}
	for _, m := range f.Models {
		fs.models[m.Type] = m
	}
	for _, tn := range f.TableNames {
		fs.tableNames[tn.Type] = tn
	}
	for _, sc := range f.SqlcConfigs {
		fs.sqlcConfigs[sc] = true
	}
	for _, n := range f.Namings {
		fs.namings[n] = true
	}
}

func (fs *factSet) empty() bool {
	return len(fs.code) == 0 && len(fs.models) == 0 && len(fs.tableNames) == 0 && len(fs.sqlcConfigs) == 0 && len(fs.namings) == 0
}

// naming returns the naming settings the package sees, sorted; nil when
// none.
func (fs *factSet) naming() []string {
	if fs == nil || len(fs.namings) == 0 {
		return nil
	}
	return sortedKeys(fs.namings)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (fs *factSet) fact() *tablesFact {
	f := new(tablesFact)
	for _, k := range sortedKeys(fs.code) {
		f.Tables = append(f.Tables, fs.code[k])
	}
	for _, k := range sortedKeys(fs.models) {
		f.Models = append(f.Models, fs.models[k])
	}
	for _, k := range sortedKeys(fs.tableNames) {
		f.TableNames = append(f.TableNames, fs.tableNames[k])
	}
	f.SqlcConfigs = sortedKeys(fs.sqlcConfigs)
	f.Namings = fs.naming()
	return f
}

// tables returns the descriptions the facts give: the tables of generated
// code and those of models with evidence, in a fixed order.
func (fs *factSet) tables() []*desc {
	if fs == nil {
		return nil
	}
	var out []*desc
	for _, k := range sortedKeys(fs.code) {
		out = append(out, fs.code[k])
	}
	for _, k := range sortedKeys(fs.models) {
		out = append(out, modelTable(fs.models[k]))
	}
	return out
}

// model returns the model of a type the facts know: found is true also
// for a type whose table is not known (m is then nil).
func (fs *factSet) model(key string) (m *Model, found bool) {
	if fs == nil {
		return nil, false
	}
	if m, ok := fs.models[key]; ok {
		return m, true
	}
	if tn, ok := fs.tableNames[key]; ok && !tn.Known {
		return nil, true
	}
	return nil, false
}

func (fs *factSet) tableName(key string) (string, bool, bool) {
	if fs == nil {
		return "", false, false
	}
	tn, ok := fs.tableNames[key]
	return tn.Name, tn.Known, ok
}

func runFacts(pass *analysis.Pass) (any, error) {
	fs := newFactSet()
	if pass.ResultOf[origin.Analyzer].(*origin.Packages).Std(pass.Pkg.Path()) {
		return fs, nil // imports only the standard library: no facts to see, none to declare
	}
	for _, pf := range pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*tablesFact); ok && pf.Package != pass.Pkg {
			fs.add(f)
		}
	}
	if report.IllTyped(pass) {
		// Its own declarations are not to be trusted, but its importers
		// still need what its imports declare.
		if !fs.empty() {
			pass.ExportPackageFact(fs.fact())
		}
		return fs, nil
	}
	own := &tablesFact{Tables: readTables(pass), SqlcConfigs: readSqlcGenerated(pass)}
	if !libraryOwn(pass.Pkg.Path()) && !knowledge.Covered(pass.Pkg.Path()) {
		// A library's own calls of its setters (xorm's SetMapper calling
		// SetTableMapper with its parameter) are not the program's.
		own.Namings = readNamings(pass)
	}
	if !libraryOwn(pass.Pkg.Path()) {
		own.TableNames = readTableNames(pass)
		fs.add(own) // the models below may use the TableName constants and the naming
		own.Models = readModels(pass.Pkg, fs.tableName, fs.naming())
	}
	fs.add(own)
	if !fs.empty() {
		pass.ExportPackageFact(fs.fact())
	}
	return fs, nil
}

// readSqlcGenerated returns, for a package of sqlc-generated code, the
// sqlc configurations from its directory up to its module root, which is
// where sqlc.yaml sits next to the code it generates. The code that calls
// the queries usually lives elsewhere (a repository package beside or
// above it) and finds no sqlc.yaml on its own way up: it loads their
// tables through this package's fact.
// A package is sqlc's when a package-level constant holds a query with
// sqlc's header ("-- name: <Name> :<cmd>").
func readSqlcGenerated(pass *analysis.Pass) []string {
	if len(pass.Files) == 0 || !hasSqlcQuery(pass.Pkg) {
		return nil
	}
	dir := filepath.Dir(pass.Fset.Position(pass.Files[0].Package).Filename)
	cfg, err := config.For(dir)
	if err != nil || dependencyModule(cfg.ModuleRoot) {
		return nil
	}
	return sqlcConfigsFrom(dir, cfg.ModuleRoot)
}

// hasSqlcQuery reports whether a package-level string constant of pkg is
// a query with sqlc's header.
func hasSqlcQuery(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		if _, _, ok := knowledge.ParseSQLCHeader(constant.StringVal(c.Val())); ok {
			return true
		}
	}
	return false
}

// readModels reads the package's models with evidence: those a library's
// reader claims, and those the default reader finds its evidence on.
func readModels(pkg *types.Package, tableNames tableNameLookup, naming []string) []*Model {
	var out []*Model
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || obj.IsAlias() || modelTypeName(obj.Type()) != obj {
			continue
		}
		if !mayBeModel(obj) {
			continue
		}
		if m := readModel(obj, tableNames, naming); m != nil && m.Evidence {
			out = append(out, m)
		}
	}
	return out
}

// readTableNames finds the TableName methods declared in the package and
// the constant each returns (TableName() string, the method by which
// libraries let a model name its table).
func readTableNames(pass *analysis.Pass) []tableName {
	var out []tableName
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "TableName" {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			recv := recvTypeName(fn)
			if recv == nil {
				continue
			}
			tn := tableName{Type: typeKey(recv)}
			tn.Name, tn.Known = constantTableName(pass, fd)
			out = append(out, tn)
		}
	}
	return out
}

// constantTableName returns the constant a TableName() string method
// returns when its body is one return of a constant.
func constantTableName(pass *analysis.Pass, fd *ast.FuncDecl) (string, bool) {
	sig := pass.TypesInfo.Defs[fd.Name].Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || fd.Body == nil || len(fd.Body.List) != 1 {
		return "", false
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
		return "", false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return "", false
	}
	v := pass.TypesInfo.Types[ret.Results[0]].Value
	if v == nil || v.Kind() != constant.String || constant.StringVal(v) == "" {
		return "", false
	}
	return constant.StringVal(v), true
}

// readNamings finds the package's calls that set how a library names its
// models (a knowledge.Naming row: xorm's engine.SetMapper) and returns
// what the library's reader says each sets, prefixed with the library.
// The callee is resolved from the types (a method of the library's
// type, of an interface of it, or promoted from an embedded one); a
// call through a func value is not seen.
func readNamings(pass *analysis.Pass) []string {
	seen := map[string]bool{}
	covered := map[*types.Package]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() == nil {
				return true
			}
			c, ok := covered[fn.Pkg()]
			if !ok {
				c = knowledge.Covered(fn.Pkg().Path())
				covered[fn.Pkg()] = c
			}
			if !c {
				return true
			}
			row := knowledge.Lookup(knowledge.FuncOf(fn))
			if row == nil || row.Kind != knowledge.Naming {
				return true
			}
			r := readerOf(row.Lib)
			if r == nil || r.Naming == nil {
				return true
			}
			var value types.Type
			if i, ok := row.Param(knowledge.Value); ok && i < len(call.Args) {
				value = pass.TypesInfo.TypeOf(call.Args[i])
			}
			for _, s := range r.Naming(row, value) {
				seen[row.Lib+":"+s] = true
			}
			return true
		})
	}
	if len(seen) == 0 {
		return nil
	}
	return sortedKeys(seen)
}
