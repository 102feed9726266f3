package knowledge

// grpc: gRPC client connections.
// Rows to come.
var grpc = library{name: "grpc"}
