package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/interderive/interderive"
)

// checkOutput refuses an output file that would destroy data: one of the inputs
// (whatever --force says), a directory, or, unless force, any existing file. It is
// what createOutput checks, for a command to call before it runs anything.
func checkOutput(path string, inputs []string, force bool) error {
	shown := interderive.Escape(path)
	out, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		if info, err := os.Stat(in); err == nil && os.SameFile(out, info) || samePath(path, in) {
			return fmt.Errorf("%s is an input of this command: it is not overwritten, even with --force", shown)
		}
	}
	switch {
	case out.IsDir():
		return fmt.Errorf("%s is a directory", shown)
	case !force:
		return fmt.Errorf("%s exists: give --force to overwrite it", shown)
	}
	return nil
}

// samePath reports whether two paths name the same file by their absolute forms.
func samePath(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && a == b
}

// createOutput creates an output file for writing, after checkOutput: never one of
// the inputs, and an existing file only with force (and then truncated). Without
// force the file is created exclusively, so that a file that appeared since the
// check is not overwritten either.
func createOutput(path string, inputs []string, force bool) (*os.File, error) {
	if err := checkOutput(path, inputs, force); err != nil {
		return nil, err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%s exists: give --force to overwrite it", interderive.Escape(path))
	}
	return f, err
}
