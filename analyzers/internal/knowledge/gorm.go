package knowledge

// gorm: GORM classic chains, the generics API, clause types and gorm.Expr.
// Rows to come.
var gorm = library{name: "gorm"}
