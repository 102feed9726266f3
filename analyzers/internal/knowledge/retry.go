package knowledge

// retryLibs: backoff v4 and v5, retry-go v4, sethvargo/go-retry, failsafe-go.
// Rows to come.
var retryLibs = library{name: "retry"}
