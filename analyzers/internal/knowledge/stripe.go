package knowledge

// stripe: stripe-go v82.
// Rows to come.
var stripe = library{name: "stripe"}
