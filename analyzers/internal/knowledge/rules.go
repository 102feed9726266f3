package knowledge

import "sync"

// rules recognise library calls too many to list as rows, by Func alone.
// Lookup and Resolve consult them, in order, only for a Func the table
// does not have. A rule returns nil for a Func it does not know, cheaply:
// it is called for every unknown callee. Its rows are not in Rows(), so
// the coverage test does not ask a fixture for each.
var rules = []func(Func) *Call{
	stripeCall, // stripe.go: stripe-go's service methods and resource functions
	awsCall,    // aws.go: aws-sdk-go-v2's service client operations
}

// ruleRows caches what the rules made, so that a Func has one *Call.
var ruleRows sync.Map // Func -> *Call

// lookup returns the row for f from the table, or else from a rule.
func lookup(f Func) *Call {
	if c := table[f]; c != nil {
		return c
	}
	if c, ok := ruleRows.Load(f); ok {
		return c.(*Call)
	}
	for _, rule := range rules {
		if c := rule(f); c != nil {
			if c.Lib == "" {
				c.Lib = "rule"
			}
			actual, _ := ruleRows.LoadOrStore(f, c)
			return actual.(*Call)
		}
	}
	return nil
}
