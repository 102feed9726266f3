package ops

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// What a request's method and URL are: constants, parameters and the
// format strings that build them, for messages and summaries.

// requestMethodOf returns the method a request root was built with: the
// method argument of the NewRequest call it comes from, or a constant
// stored in its Method field (resty's Send), or what the function of the
// program that made and returned it says (reqbuild.go).
func (e *extractor) requestMethodOf(fn *ssa.Function, root ssa.Value) (string, *ssa.Parameter) {
	if call, ok := root.(*ssa.Call); ok {
		site, ok := knowledge.Resolve(call.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.NewRequest {
			// A request a function of the program made and returned.
			b := e.builds(call.Common().StaticCallee())
			switch {
			case b == nil:
				return "", nil
			case b.Method != "":
				return b.Method, nil
			case b.MethodParam >= 0 && b.MethodParam < len(call.Common().Args):
				return constOrParam(fn, call.Common().Args[b.MethodParam])
			}
			return "", nil
		}
		if m := site.RoleArg(knowledge.HTTPMethod); m != nil {
			return constOrParam(fn, m)
		}
		// resty's R(): a constant stored in the Method field.
		method := ""
		for _, ref := range storesTo(call, "Method") {
			m, ok := ssaval.ConstString(ref)
			if !ok || (method != "" && m != method) {
				return "", nil
			}
			method = m
		}
		return method, nil
	}
	return "", nil
}

// requestURLOf returns the URL argument of the NewRequest call a request
// root comes from, or the argument a builder makes it from.
func (e *extractor) requestURLOf(root ssa.Value) ssa.Value {
	if call, ok := root.(*ssa.Call); ok {
		if site, ok := knowledge.Resolve(call.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.NewRequest {
			return site.RoleArg(knowledge.URL)
		}
		if b := e.builds(call.Common().StaticCallee()); b != nil && b.URLParam >= 0 && b.URLParam < len(call.Common().Args) {
			return call.Common().Args[b.URLParam]
		}
	}
	return nil
}

// storesTo returns the values stored in field name of the struct v points
// to, in v's function.
func storesTo(v ssa.Value, name string) []ssa.Value {
	var out []ssa.Value
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != v || ssaval.FieldOf(fa) == nil || ssaval.FieldOf(fa).Name() != name {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// urlText renders a URL value for messages: a constant as it is, a
// concatenation or fmt.Sprintf with "..." for what is not constant; ""
// when nothing is constant.
func urlText(v ssa.Value) string {
	parts := urlParts(v, 0)
	text := strings.Join(parts, "")
	for strings.Contains(text, "......") {
		text = strings.ReplaceAll(text, "......", "...")
	}
	if strings.Trim(text, ".") == "" {
		return ""
	}
	return text
}

func urlParts(v ssa.Value, depth int) []string {
	if depth > 8 {
		return []string{"..."}
	}
	if s, ok := ssaval.ConstString(v); ok {
		return []string{s}
	}
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return append(urlParts(x.X, depth+1), urlParts(x.Y, depth+1)...)
		}
	case *ssa.Call:
		if callee := x.Common().StaticCallee(); callee != nil && ssaval.PkgPath(callee) == "fmt" && callee.Name() == "Sprintf" && len(x.Common().Args) > 0 {
			if format, ok := ssaval.ConstString(x.Common().Args[0]); ok {
				return []string{formatText(format)}
			}
		}
	}
	return []string{"..."}
}

// formatText replaces the verbs of a fmt format with "...".
func formatText(format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		// Skip flags, width and precision up to the verb letter.
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.[]*", format[j]) >= 0 {
			j++
		}
		b.WriteString("...")
		i = j
	}
	return b.String()
}

// constOrParam returns the string constant v is, or the parameter of fn
// it is.
func constOrParam(fn *ssa.Function, v ssa.Value) (string, *ssa.Parameter) {
	if v == nil {
		return "", nil
	}
	if s, ok := ssaval.ConstString(v); ok {
		return s, nil
	}
	if p, ok := ssaval.Unwrap(v).(*ssa.Parameter); ok && p.Parent() == fn {
		return "", p
	}
	return "", nil
}

// urlParam returns the parameter of fn a URL is made from (base+path
// makes it the path's), or nil.
func urlParam(fn *ssa.Function, v ssa.Value) *ssa.Parameter {
	for i := 0; i < 8 && v != nil; i++ {
		switch x := ssaval.Unwrap(v).(type) {
		case *ssa.Parameter:
			if x.Parent() == fn {
				return x
			}
			return nil
		case *ssa.BinOp:
			if x.Op != token.ADD {
				return nil
			}
			if p := urlParam(fn, x.Y); p != nil {
				return p
			}
			v = x.X
			continue
		}
		return nil
	}
	return nil
}
