package report

import (
	"go/ast"
	"go/token"
	"strings"
)

// scope works out what each directive of the file f covers, from the
// syntax tree: whether code precedes the directive on its line (it then
// trails that code), and otherwise which statement or declaration starts
// on the next line. Lines, not columns, are compared, since findings are
// matched to directives by line.
func scope(fset *token.FileSet, f *ast.File, ds []*Directive) {
	line := func(p token.Pos) int { return fset.Position(p).Line }

	// The directives by line, and by the line below them.
	onLine := map[int][]*Directive{}
	below := map[int][]*Directive{}
	for _, d := range ds {
		if d.Scope == ScopeFile {
			d.coverPos, d.coverEnd = f.FileStart, f.FileEnd
			continue
		}
		onLine[d.Line] = append(onLine[d.Line], d)
		below[d.Line+1] = append(below[d.Line+1], d)
	}
	trailing := map[*Directive]bool{}
	// The innermost statement or declaration starting on each line that
	// is below a directive, and its depth in the tree.
	type candidate struct {
		node  ast.Node
		depth int
	}
	innermost := map[int]candidate{}
	// A body opening on a candidate's line is the candidate's own: the
	// statements of a one-line func or loop do not displace it.
	frozen := map[int]bool{}
	depth := 0
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			depth--
			return true
		}
		switch n.(type) {
		case *ast.CommentGroup, *ast.Comment:
			return false
		}
		depth++
		start, end := line(n.Pos()), line(n.End())
		for _, d := range onLine[start] {
			if n.Pos() < d.Pos {
				trailing[d] = true
			}
		}
		for _, d := range onLine[end] {
			if n.End() <= d.Pos {
				trailing[d] = true
			}
		}
		if _, isBlock := n.(*ast.BlockStmt); isBlock {
			if _, ok := innermost[start]; ok {
				frozen[start] = true
			}
		}
		if len(below[start]) > 0 && coverable(n) && !frozen[start] {
			if c, ok := innermost[start]; !ok || depth > c.depth {
				innermost[start] = candidate{n, depth}
			}
		}
		return true
	})

	for _, d := range ds {
		if d.Scope == ScopeFile {
			continue
		}
		d.FromLine, d.ToLine = d.Line, d.Line+1
		d.coverPos, d.coverEnd = d.Pos, d.End
		if trailing[d] {
			d.Scope, d.Subject = ScopeTrailing, "on this line or the next"
			continue
		}
		c, ok := innermost[d.Line+1]
		if !ok {
			d.Scope, d.Subject = ScopeNextLine, "on the next line"
			continue
		}
		d.ToLine = max(d.ToLine, line(c.node.End()))
		d.coverEnd = c.node.End()
		if _, isStmt := c.node.(ast.Stmt); isStmt {
			d.Scope, d.Subject = ScopeStatement, "in the statement below"
		} else {
			d.Scope, d.Subject = ScopeDeclaration, "in the declaration below"
			if name := declName(c.node); name != "" {
				d.Subject = "in the declaration of " + name + " below"
			}
		}
	}
}

// coverable reports whether a directive above n covers all of n: a
// statement (but not a bare block, whose statements are each their own),
// a declaration, or one spec of a grouped declaration.
func coverable(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt:
		return false
	case ast.Stmt, ast.Decl, *ast.ValueSpec, *ast.TypeSpec:
		return true
	}
	return false
}

// declName names a declaration for a message: "Save", "(*Store).Save",
// "ordersTable", "a, b".
func declName(n ast.Node) string {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Recv != nil && len(n.Recv.List) == 1 {
			if recv := recvName(n.Recv.List[0].Type); recv != "" {
				return "(" + recv + ")." + n.Name.Name
			}
		}
		return n.Name.Name
	case *ast.TypeSpec:
		return n.Name.Name
	case *ast.ValueSpec:
		var names []string
		for _, id := range n.Names {
			names = append(names, id.Name)
		}
		return strings.Join(names, ", ")
	case *ast.GenDecl:
		if len(n.Specs) == 1 && !n.Lparen.IsValid() {
			return declName(n.Specs[0])
		}
	}
	return ""
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		if name := recvName(e.X); name != "" {
			return "*" + name
		}
	case *ast.Ident:
		return e.Name
	case *ast.IndexExpr: // a generic receiver, Store[T]
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	}
	return ""
}
