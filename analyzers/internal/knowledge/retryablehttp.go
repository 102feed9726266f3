package knowledge

// retryableHTTP: hashicorp/go-retryablehttp.
// Rows to come.
var retryableHTTP = library{name: "retryablehttp"}
