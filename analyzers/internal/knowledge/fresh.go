package knowledge

// freshValues: fresh values (uuid, crypto/rand, math/rand, time.Now) and waits (time.Sleep, time.After).
// Rows to come.
var freshValues = library{name: "fresh"}
