package workbench

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/interderive/interderive"
)

// MaxSource bounds the size of a program file in bytes, so that a program too large
// to load is refused with a message before anything runs. It is derived from memory:
// loading a program — lexing, parsing, checking and elaborating it — allocates at most
// SourceBytes of heap per byte of source, and a program may take the memory the
// command gives a run by default, interderive.DefaultMemory() (half of the host's
// memory or the control group's). On a host with 16 GiB that is 2^33 / 512 = 16 MiB of
// source. It is at most math.MaxInt32, so that a position's line and column (int32)
// cannot overflow. It is worked out once.
func MaxSource() int { return maxSource() }

var maxSource = sync.OnceValue(func() int {
	return int(min(interderive.DefaultMemory()/SourceBytes, math.MaxInt32))
})

// SourceBytes bounds the heap, in bytes, that loading a program allocates per byte of
// its source (see MaxSource): a calculus's Load must keep to it.
const SourceBytes = 512

// CheckSize refuses a source longer than MaxSource(), with a *LoadError positioned at
// the first byte past the limit: what a calculus's Load calls first.
func CheckSize(src []byte) error { return checkSizeAt(src, MaxSource()) }

// checkSizeAt refuses a source longer than limit bytes, positioned at the first byte
// past the limit.
func checkSizeAt(src []byte, limit int) error {
	if len(src) <= limit {
		return nil
	}
	pos := interderive.Pos{Line: 1, Col: 1}
	for _, b := range src[:limit] {
		if b == '\n' {
			pos.Line, pos.Col = pos.Line+1, 1
		} else {
			pos.Col++
		}
	}
	return &LoadError{Phase: "syntax", Err: interderive.ErrorList{
		interderive.Errorf(pos, "the program is %d bytes long; the limit is %d (workbench.MaxSource, derived from the memory of this host)", len(src), limit)}}
}

// StdinName is how messages name the program read from standard input ("-").
const StdinName = "<stdin>"

// DisplayName is how messages name an input: the path, or <stdin> for "-".
func DisplayName(path string) string {
	if path == "-" {
		return StdinName
	}
	return path
}

// errTooLarge is the error of an input longer than MaxSource.
var errTooLarge = errors.New("too large")

// SourceError is an input that could not be read: Limit says whether a limit stopped
// it (time: exit status 3) rather than an error or its size (status 2).
type SourceError struct {
	Err   error
	Limit bool
}

// Error is the message of the error that stopped the reading.
func (e *SourceError) Error() string { return e.Err.Error() }

// Unwrap gives the error that stopped the reading.
func (e *SourceError) Unwrap() error { return e.Err }

// ReadSource reads a program: the file at path, or stdin for "-". It reads at most
// MaxSource bytes and one more, so that a longer input (/dev/zero, a sparse file of
// gigabytes) is refused without being read whole; and, when timeout is positive, it
// gives up once timeout has passed, opening included (a named pipe with no writer
// blocks in open). A reader that gives up leaves its goroutine blocked until the
// input ends; the command exits soon after. Its errors are *SourceError.
func ReadSource(path string, stdin io.Reader, timeout time.Duration) ([]byte, error) {
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
			return nil, &SourceError{Err: fmt.Errorf("%s: longer than %d bytes, the limit (workbench.MaxSource): not read", interderive.Escape(DisplayName(path)), MaxSource())}
		}
		if r.err != nil {
			return nil, &SourceError{Err: r.err}
		}
		return r.src, nil
	case <-expired:
		return nil, &SourceError{Err: fmt.Errorf("%s: reading the input timed out after %s", interderive.Escape(DisplayName(path)), timeout), Limit: true}
	}
}

// readLimited reads at most MaxSource bytes of path (stdin for "-"), and errTooLarge
// if there is more.
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
	src, err := io.ReadAll(io.LimitReader(r, int64(MaxSource())+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxSource() {
		return nil, errTooLarge
	}
	return src, nil
}

// SourceFiles expands paths (files, and directories searched recursively) into the
// program files they hold: a file named is kept whatever its extension (the caller
// tells its language), a directory gives its files with a registered language's
// extension, sorted, and a directory with none is an error (it would check nothing).
// "-" (standard input) is kept as it is.
func (w *Workbench) SourceFiles(paths []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(path string) {
		if !seen[path] {
			seen[path] = true
			files = append(files, path)
		}
	}
	for _, p := range paths {
		if p == "-" {
			add(p)
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// A named pipe, a device or a socket found in a directory is not read:
			// opening a pipe with no writer would wait for ever. (A path named on
			// the command line is read whatever it is.)
			if (d.Type().IsRegular() || d.Type()&os.ModeSymlink != 0) && w.IsSource(path) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no program files here (%s)", p, w.sourcePatterns())
		}
		sort.Strings(found)
		for _, f := range found {
			add(f)
		}
	}
	return files, nil
}

// sourcePatterns lists the extensions of the languages' files: *.EXT, ...
func (w *Workbench) sourcePatterns() string {
	var pats []string
	for _, ext := range w.LanguageNames() {
		pats = append(pats, "*."+ext)
	}
	return strings.Join(pats, ", ")
}
