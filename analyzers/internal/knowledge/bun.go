package knowledge

// bun: bun query builders.
// Rows to come.
var bun = library{name: "bun"}
