// Package retry runs an operation again when it fails with a temporary
// error.
package retry

import (
	"context"
	"errors"
	"time"
)

type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying: Do returns it at once.
func Permanent(err error) error {
	return permanentError{err: err}
}

// Do calls fn until it returns nil, returns a Permanent error, has been
// called attempts times, or ctx is done. It waits between calls, doubling
// the wait each time.
func Do(ctx context.Context, attempts int, fn func(context.Context) error) error {
	wait := 250 * time.Millisecond
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		var perm permanentError
		if errors.As(err, &perm) {
			return perm.err
		}
		if i == attempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
	return err
}
