package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/driver"
)

// stdinName is how messages name the program read from standard input ("-").
const stdinName = "<stdin>"

// displayName is how messages name an input: the path, or <stdin> for "-".
func displayName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// errTooLarge is the error of an input longer than driver.MaxSource.
var errTooLarge = errors.New("too large")

// sourceError is an input that could not be read: limit says whether a limit
// stopped it (time, exit status 3) rather than an error or the size (status 2).
type sourceError struct {
	err   error
	limit bool
}

func (e *sourceError) Error() string { return e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }

// readSource reads a program: the file at path, or stdin for "-". It reads at most
// driver.MaxSource bytes and one more, so that a longer input (/dev/zero, a sparse
// file of gigabytes) is refused without being read whole; and, when timeout is
// positive, it gives up once timeout has passed, opening included (a named pipe with
// no writer blocks in open). A reader that gives up leaves its goroutine blocked
// until the input ends; the command exits soon after.
func readSource(path string, stdin io.Reader, timeout time.Duration) ([]byte, error) {
	type result struct {
		src []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		src, err := readLimited(path, stdin)
		done <- result{src, err}
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case r := <-done:
		if errors.Is(r.err, errTooLarge) {
			return nil, &sourceError{err: fmt.Errorf("%s: longer than %d bytes, the limit (driver.MaxSource): not read", interderive.Escape(displayName(path)), driver.MaxSource())}
		}
		if r.err != nil {
			return nil, &sourceError{err: r.err}
		}
		return r.src, nil
	case <-expired:
		return nil, &sourceError{err: fmt.Errorf("%s: reading the input timed out after %s", interderive.Escape(displayName(path)), timeout), limit: true}
	}
}

// readLimited reads at most driver.MaxSource bytes of path (stdin for "-"), and
// errTooLarge if there is more.
func readLimited(path string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if info, err := f.Stat(); err == nil && info.IsDir() {
			return nil, fmt.Errorf("%s is a directory", interderive.Escape(path))
		}
		r = f
	}
	src, err := io.ReadAll(io.LimitReader(r, int64(driver.MaxSource())+1))
	if err != nil {
		return nil, err
	}
	if len(src) > driver.MaxSource() {
		return nil, errTooLarge
	}
	return src, nil
}
