package knowledge

import "strings"

const awsPkg = "github.com/aws/aws-sdk-go-v2"

// aws: aws-sdk-go-v2's service clients.
//
// Every operation of a service is a method of that service package's
// *Client (s3.(*Client).PutObject, sqs.(*Client).SendMessage): a static
// call whose request then goes through the SDK's middleware stack of
// interface and func values, where no summary can follow it. awsCall
// recognises the operations by shape, as the rule for stripe does: an
// exported method of Client in github.com/aws/aws-sdk-go-v2/service/<svc>
// (not in its types or internal packages), Options (a getter) excepted.
// They are network round trips with no HTTP method: lockacrosscall counts
// them; retrypost leaves them alone, since the SDK retries with its own
// tokens (an operation's ClientToken or idempotency field, filled once per
// call).
var aws = library{
	name: "aws",
	pkgs: []string{awsPkg},
}

func awsCall(f Func) *Call {
	svc, ok := strings.CutPrefix(f.Pkg, awsPkg+"/service/")
	if !ok || svc == "" || strings.Contains(svc, "/") || f.Recv != "Client" || f.Name == "Options" ||
		f.Name == "" || f.Name[0] < 'A' || f.Name[0] > 'Z' {
		return nil
	}
	return &Call{Func: f, Kind: Request, Lib: "aws"}
}
