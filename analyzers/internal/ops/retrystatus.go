package ops

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// This file follows a response's status code out of the helper that
// sends the request: a helper returning resp.StatusCode, or its decimal
// text (fmt.Sprintf("%d", resp.StatusCode), strconv.Itoa), lets its
// caller's loop test the status (code >= 300, strings.HasPrefix(status,
// "2")) as the failure test of the request. Without it a loop that
// breaks only on `err == nil && 2xx` looks like one that sends again
// after a success (polling), and is not taken for a retry.

// StatusResult says which result of a function carries the status code
// of a response it received: Index is 1+the result's index (0: none);
// Text is set when it is the code's decimal text.
type StatusResult struct {
	Index int
	Text  bool
}

// statusResult returns the result of fn that every return gives a
// response's status code in (or a constant, on the paths where no
// response came back; with a defer, the values stored in its slot).
func statusResult(fn *ssa.Function) StatusResult {
	res := fn.Signature.Results()
	if res.Len() < 2 {
		return StatusResult{}
	}
	for i := 0; i < res.Len()-1; i++ {
		found, text, mixed := false, false, false
		for _, v := range returnedValues(fn, i) {
			if _, isConst := v.(*ssa.Const); isConst {
				continue
			}
			code, isText := statusCodeOf(v)
			if code == nil || (found && isText != text) {
				mixed = true
				break
			}
			found, text = true, isText
		}
		if found && !mixed {
			return StatusResult{Index: i + 1, Text: text}
		}
	}
	return StatusResult{}
}

// statusCodeOf returns the load of a response's StatusCode that v is, or
// whose decimal text v is (text true); nil when v is neither.
func statusCodeOf(v ssa.Value) (code ssa.Value, text bool) {
	if isStatusLoad(v) {
		return v, false
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	args := call.Common().Args
	switch {
	case isFunc(call, "strconv", "Itoa") && len(args) == 1:
		if isStatusLoad(args[0]) {
			return args[0], true
		}
	case isFunc(call, "strconv", "FormatInt") && len(args) == 2 && isConstInt(args[1], 10):
		if conv, ok := args[0].(*ssa.Convert); ok && isStatusLoad(conv.X) {
			return conv.X, true
		}
	case isFunc(call, "fmt", "Sprint") || isFunc(call, "fmt", "Sprintf"):
		operands := SliceValues(args[len(args)-1])
		if len(operands) != 1 {
			return nil, false
		}
		if isFunc(call, "fmt", "Sprintf") {
			if f, ok := args[0].(*ssa.Const); !ok || f.Value == nil || f.Value.Kind() != constant.String ||
				(constant.StringVal(f.Value) != "%d" && constant.StringVal(f.Value) != "%v") {
				return nil, false
			}
		}
		if mi, ok := operands[0].(*ssa.MakeInterface); ok && isStatusLoad(mi.X) {
			return mi.X, true
		}
	}
	return nil, false
}

// isStatusLoad reports whether v loads the StatusCode of an
// *http.Response.
func isStatusLoad(v ssa.Value) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	return ok && selects(fa, knowledge.HTTPResponse, "StatusCode")
}

func isConstInt(v ssa.Value, n int64) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	got, exact := constant.Int64Val(c.Value)
	return exact && got == n
}

// statusValues returns the values of call's results that carry a
// response's status code: the StatusCode loads of its *http.Response
// result (codes), and the results its callee's summary says hold the code
// or its text.
func (e *extractor) statusValues(call ssa.CallInstruction, resps []ssa.Value) (codes, texts []ssa.Value) {
	for _, r := range carriers(resps) {
		for _, ref := range *r.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || !selects(fa, knowledge.HTTPResponse, "StatusCode") {
				continue
			}
			for _, use := range *fa.Referrers() {
				if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL {
					codes = append(codes, load)
				}
			}
		}
	}
	v := call.Value()
	callee := call.Common().StaticCallee()
	if v == nil || callee == nil {
		return codes, nil
	}
	s := e.summary(callee)
	if s == nil || s.Status.Index == 0 {
		return codes, nil
	}
	for _, ref := range *v.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == s.Status.Index-1 {
			if s.Status.Text {
				texts = append(texts, ex)
			} else {
				codes = append(codes, ex)
			}
		}
	}
	return codes, texts
}

// textStatusFailure says which outcome of a test of a status code's
// decimal text is a failure: strings.HasPrefix(status, "2") is false for
// one, status == "200" too, strings.HasPrefix(status, "5") true. ok is
// false for any other use.
func textStatusFailure(use ssa.Instruction, text ssa.Value) (cond ssa.Value, onTrue bool, ok bool) {
	digits := func(v ssa.Value) (string, bool) {
		c, isConst := v.(*ssa.Const)
		if !isConst || c.Value == nil || c.Value.Kind() != constant.String {
			return "", false
		}
		s := constant.StringVal(c.Value)
		return s, s != "" && len(s) <= 3 && strings.Trim(s, "0123456789") == ""
	}
	switch x := use.(type) {
	case *ssa.Call:
		args := x.Common().Args
		if !isFunc(x, "strings", "HasPrefix") || len(args) != 2 || args[0] != text {
			return nil, false, false
		}
		p, isDigits := digits(args[1])
		if !isDigits {
			return nil, false, false
		}
		switch p[0] {
		case '2':
			return x, false, true
		case '4', '5':
			return x, true, true
		}
	case *ssa.BinOp:
		other := x.Y
		if x.Y == text {
			other = x.X
		}
		s, isDigits := digits(other)
		if !isDigits || len(s) != 3 || (x.Op != token.EQL && x.Op != token.NEQ) {
			return nil, false, false
		}
		success := s[0] == '2'
		// status == "200": a failure when false; status != "200" when true.
		return x, (x.Op == token.EQL) != success, true
	}
	return nil, false, false
}
