// Package ops is the operations layer: what each function does to the
// database and to other services, within and across packages.
//
// Two analyzers, as nilaway separates inference from reporting:
//
//   - FactsAnalyzer exports, per function, a Summary of what it does to its
//     parameters and to the world (takes a row lock on the handle in
//     parameter j, performs network I/O, runs func parameter k inside a
//     transaction). It does not require buildssa: every driver runs a fact
//     analyzer, and all it requires, on every dependency, std included. It
//     returns at once for the standard library, for the libraries the
//     knowledge tables describe, and for packages that import neither a
//     database or network library nor a package with summaries; for the
//     rest it builds SSA for that one package itself.
//   - Analyzer (the result) gives the hazard analyzers, per function of the
//     package under analysis, its operations attached to SSA instructions,
//     which transaction each runs on, and CFG queries over them. It
//     exports no facts.
//
// Both classify calls the same way (extract.go): the knowledge tables for
// library calls, the hooks each library's dialect registers for what the
// rows alone do not say (a Library: builder chains, model naming, generated
// clients, SQL a query builder made), sqltext for the SQL text, the
// schema-free summaries of
// same-package callees computed on demand, and imported facts for callees
// in other packages. An unknown callee (a function value, an interface
// whose implementation is not visible) is no operation. Summaries carry
// evidence as text for messages ("the SELECT ... FOR UPDATE in
// store.lockOrder"), never a token.Pos.
package ops
