package schema_test

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	// The libraries' readers (GORM's models, ent's migrate package),
	// registered with the schema layer.
	_ "github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// probe reports the schema layer's answers to "//probe VERB ARGS" comments,
// so that fixtures can state them with // want:
//
//	//probe unique TABLE COL,COL      TABLE(COL,COL): ANSWER [by KEY from SOURCE]
//	//probe version TABLE             version TABLE: COLUMN (KIND, SOURCE) | none
//	//probe describes TABLE           describes TABLE: BOOL
//	//probe keys TABLE                keys TABLE: KEY KEY …
//	//probe columns TABLE             columns TABLE: COL, COL
//	//probe sources TABLE             sources TABLE: SOURCE; SOURCE
//	//probe table TYPE                table TYPE: NAME | unknown
//	//probe column TYPE FIELD         column TYPE.FIELD: COL | unknown
//	//probe modelunique TYPE COL,COL  model TYPE(COL,COL): ANSWER
//	//probe fact                      fact: the package fact, as exported
//
// TYPE is a type of the package or pkgname.Type of an import.
var probe = &analysis.Analyzer{
	Name:     "schemaprobe",
	Doc:      "report the schema layer's answers to //probe comments",
	Requires: []*analysis.Analyzer{schema.Analyzer},
	Run:      runProbe,
}

func runProbe(pass *analysis.Pass) (any, error) {
	s, _ := pass.ResultOf[schema.Analyzer].(*schema.Schema)
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, ok := strings.CutPrefix(c.Text, "//probe ")
				if !ok {
					continue
				}
				text, _, _ = strings.Cut(text, "// want")
				if msg := answerProbe(pass, s, strings.Fields(text)); msg != "" {
					pass.Reportf(c.Pos(), "%s", msg)
				}
			}
		}
	}
	return nil, nil
}

func describeKey(k schema.Key) string {
	var b strings.Builder
	if k.Primary {
		b.WriteString("pk")
	} else {
		b.WriteString("unique")
		if k.Name != "" {
			b.WriteString(" " + k.Name)
		}
	}
	if k.Expression {
		b.WriteString("(expr " + strings.Join(k.Parts, " | ") + ")")
	} else {
		b.WriteString("(" + strings.Join(k.Columns, ",") + ")")
	}
	if k.Where != "" {
		b.WriteString(" where " + k.Where)
	}
	return b.String()
}

func describeVersion(table string, v schema.Version, ok bool) string {
	if !ok {
		return "version " + table + ": none"
	}
	return fmt.Sprintf("version %s: %s (%s, %s)", table, v.Column, v.Kind, v.Source)
}

func lookupType(pass *analysis.Pass, name string) types.Type {
	scope := pass.Pkg.Scope()
	if pkgName, typeName, ok := strings.Cut(name, "."); ok {
		for _, imp := range pass.Pkg.Imports() {
			if imp.Name() == pkgName {
				scope, name = imp.Scope(), typeName
			}
		}
	}
	if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
		return tn.Type()
	}
	return nil
}

func answerProbe(pass *analysis.Pass, s *schema.Schema, args []string) string {
	if len(args) == 0 {
		return "probe: no verb"
	}
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch args[0] {
	case "unique":
		cols := strings.Split(arg(2), ",")
		k, a := s.UniqueKey(arg(1), cols...)
		msg := fmt.Sprintf("%s(%s): %s", arg(1), arg(2), a)
		if a == schema.Yes || a == schema.Partial {
			msg += " by " + describeKey(k) + " from " + k.Source.String()
		}
		return msg
	case "version":
		v, ok := s.Version(arg(1))
		return describeVersion(arg(1), v, ok)
	case "describes":
		return fmt.Sprintf("describes %s: %v", arg(1), s.Describes(arg(1)))
	case "keys":
		var keys []string
		for _, k := range s.Keys(arg(1)) {
			keys = append(keys, describeKey(k))
		}
		return "keys " + arg(1) + ": " + strings.Join(keys, " ")
	case "columns":
		return "columns " + arg(1) + ": " + strings.Join(s.Columns(arg(1)), ", ")
	case "sources":
		var srcs []string
		for _, src := range s.Sources(arg(1)) {
			srcs = append(srcs, src.String())
		}
		return "sources " + arg(1) + ": " + strings.Join(srcs, "; ")
	case "table":
		t := lookupType(pass, arg(1))
		if t == nil {
			return "probe: no type " + arg(1)
		}
		name, ok := s.Table(t)
		if !ok {
			name = "unknown"
		}
		return "table " + arg(1) + ": " + name
	case "column":
		t := lookupType(pass, arg(1))
		if t == nil {
			return "probe: no type " + arg(1)
		}
		col, ok := s.Column(t, arg(2))
		if !ok {
			col = "unknown"
		}
		return "column " + arg(1) + "." + arg(2) + ": " + col
	case "modelunique":
		t := lookupType(pass, arg(1))
		if t == nil {
			return "probe: no type " + arg(1)
		}
		return fmt.Sprintf("model %s(%s): %s", arg(1), arg(2), s.ModelUnique(t, strings.Split(arg(2), ",")...))
	case "fact":
		fact := schema.FactString(s)
		if fact == "" {
			return "fact: none"
		}
		return "fact: " + fact
	}
	return "probe: unknown verb " + args[0]
}
