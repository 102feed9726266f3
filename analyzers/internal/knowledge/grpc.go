package knowledge

const grpcPkg = "google.golang.org/grpc"

// grpc: gRPC client connections. (*grpc.ClientConn) calls are static;
// generated stubs hold a grpc.ClientConnInterface, so their Invoke and
// NewStream are invokes, and user code calls the generated XxxClient
// interface, which design.md's one-implementation rule resolves to the
// stub. The RPC's full method name ("/pkg.Svc/Method") is the URL. Once a
// stream is open, its sends and receives are round trips too: the
// ClientStream methods and the generic stream interfaces generated clients
// return (invokes; Send and Recv are declared by each generic interface).
var grpc = library{
	name: "grpc",
	pkgs: []string{grpcPkg},
	calls: []Call{
		{Func: method(grpcPkg, "ClientConn", "Invoke"), Kind: Request, Params: []Param{p(1, URL), p(2, Body)}},
		{Func: method(grpcPkg, "ClientConn", "NewStream"), Kind: Request, Params: []Param{p(2, URL)}},
		{Func: method(grpcPkg, "ClientConnInterface", "Invoke"), Kind: Request, Params: []Param{p(1, URL), p(2, Body)}},
		{Func: method(grpcPkg, "ClientConnInterface", "NewStream"), Kind: Request, Params: []Param{p(2, URL)}},
		{Func: fn(grpcPkg, "Invoke"), Kind: Request, Params: []Param{p(1, URL), p(2, Body)}},
		{Func: fn(grpcPkg, "NewClientStream"), Kind: Request, Params: []Param{p(3, URL)}},

		// Streams.
		{Func: method(grpcPkg, "ClientStream", "SendMsg"), Kind: Request, Params: []Param{p(0, Body)}},
		{Func: method(grpcPkg, "ClientStream", "RecvMsg"), Kind: Request},
		{Func: method(grpcPkg, "ClientStream", "CloseSend"), Kind: Request},
		{Func: method(grpcPkg, "ServerStreamingClient", "Recv"), Kind: Request},
		{Func: method(grpcPkg, "ClientStreamingClient", "Send"), Kind: Request, Params: []Param{p(0, Body)}},
		{Func: method(grpcPkg, "ClientStreamingClient", "CloseAndRecv"), Kind: Request},
		{Func: method(grpcPkg, "BidiStreamingClient", "Send"), Kind: Request, Params: []Param{p(0, Body)}},
		{Func: method(grpcPkg, "BidiStreamingClient", "Recv"), Kind: Request},

		// Connections: NewClient connects lazily, on the first RPC; Dial
		// and DialContext (deprecated) too unless given WithBlock.
		{Func: fn(grpcPkg, "NewClient"), Kind: Dial, Params: []Param{p(0, URL)}, Result: ClientResult},
		{Func: fn(grpcPkg, "Dial"), Kind: Dial, Params: []Param{p(0, URL)}, Result: ClientResult},
		{Func: fn(grpcPkg, "DialContext"), Kind: Dial, Params: []Param{p(1, URL)}, Result: ClientResult},
	},
}
