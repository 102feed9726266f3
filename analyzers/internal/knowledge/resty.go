package knowledge

// resty: resty v2.
// Rows to come.
var resty = library{name: "resty"}
