// Package apperr is the service's error type: a code and the error it
// wraps, which errors.Is and errors.As (and ent.IsNotFound) see through.
package apperr

import "fmt"

// Error is an error with a code.
type Error struct {
	Code    string
	Message string
	Wrap    error
}

// New returns the error of code wrapping err.
func New(code string, err error) *Error {
	return &Error{Code: code, Message: "failed: " + code, Wrap: err}
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v", e.Message, e.Wrap) }

// Unwrap returns the wrapped error.
func (e *Error) Unwrap() error { return e.Wrap }

// Opaque is an error that keeps only the text of the error it replaces:
// errors.As does not see through it.
type Opaque struct{ Text string }

func (o *Opaque) Error() string { return o.Text }
