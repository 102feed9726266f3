package store

import "testing"

// The internal test makes a test variant of the package, which analyses
// users.go and accounts.go again.
func TestUsersZero(t *testing.T) {
	var u Users
	if u.db != nil {
		t.Fatal("zero Users has a database")
	}
}
