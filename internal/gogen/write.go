package gogen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Write writes the generated files into dir, creating it if need be. An existing
// dir must be empty or hold a previous generation (every .go file in it starts with
// Header, and it holds nothing but the files a generation writes): a directory of
// anything else is an error, not overwritten.
func Write(dir string, files map[string][]byte) error {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		if err := previous(dir, entries); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// previous reports whether the entries of dir are a previous generation's.
func previous(dir string, entries []os.DirEntry) error {
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			return fmt.Errorf("%s is not empty and holds a directory, %s: it is not a previous derive --go output; give an empty or a new directory", dir, name)
		}
		switch {
		case name == "go.mod" || name == "go.sum" || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".go") && !strings.Contains(name, "."):
			continue // the module file; a binary go build left
		case strings.HasSuffix(name, ".go"):
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				return err
			}
			if !bytes.HasPrefix(b, []byte(Header)) {
				return fmt.Errorf("%s holds %s, which derive --go did not write (it does not start with %q): give an empty or a new directory", dir, name, Header)
			}
		default:
			return fmt.Errorf("%s holds %s, which derive --go did not write: give an empty or a new directory", dir, name)
		}
	}
	return nil
}
