package knowledge

const ginPkg = "github.com/gin-gonic/gin"

// gin: the request context of gin handlers and its routes. gin does no
// database or network I/O of its own; its rows say how a value a
// middleware stores in the request context reaches the handlers after
// it, so that a transaction a middleware begins, stores with Set and
// commits after Next is known to be the one the handlers read back with
// Get or MustGet (and a type assertion) and write through.
//
// Set's and Get's key is a string up to gin v1.11 and any from v1.12;
// either way a constant names it. Next runs the handlers after the
// calling one, so what a middleware does after Next (its Commit) happens
// after the handler returns. A route's handlers run in the order given;
// the Handle of a *gin.Engine is RouterGroup's, promoted.
var gin = library{
	name: "gin",
	pkgs: []string{ginPkg},
	calls: append([]Call{
		{Func: method(ginPkg, "Context", "Set"), Kind: CtxStore, Params: []Param{p(0, Key), p(1, Value)}},
		{Func: method(ginPkg, "Context", "Get"), Kind: CtxLoad, Params: []Param{p(0, Key)}},
		{Func: method(ginPkg, "Context", "MustGet"), Kind: CtxLoad, Params: []Param{p(0, Key)}},
		{Func: method(ginPkg, "Context", "Next"), Kind: NextHandler},
	}, ginRoutes()...),
}

// ginRoutes are the route registrations of RouterGroup and of the
// IRoutes and IRouter interfaces a service may hold instead: each runs
// its handlers, from the Handlers parameter on, in order.
func ginRoutes() []Call {
	var calls []Call
	for _, recv := range []string{"RouterGroup", "IRoutes"} {
		calls = append(calls, Call{Func: method(ginPkg, recv, "Handle"), Kind: Route, Params: []Param{p(2, Handlers)}})
		for _, verb := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "Any"} {
			calls = append(calls, Call{Func: method(ginPkg, recv, verb), Kind: Route, Params: []Param{p(1, Handlers)}})
		}
	}
	return calls
}
