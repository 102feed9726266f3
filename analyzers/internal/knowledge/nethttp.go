package knowledge

// netHTTP: net/http, net/smtp and net.Dial.
// Rows to come.
var netHTTP = library{name: "nethttp"}
