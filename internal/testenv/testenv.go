// Package testenv configures test binaries the same way in every package.
package testenv

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// PropertyChecks is the number of cases every rapid property runs by default: the
// floor the project's CI promises. -rapid.checks on the command line overrides it.
const PropertyChecks = 1000

// Main is a TestMain: it raises rapid's default number of checks to PropertyChecks
// unless the command line set it, then runs the tests.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set && flag.Lookup("rapid.checks") != nil {
		_ = flag.Set("rapid.checks", "1000")
	}
	os.Exit(m.Run())
}

// AddFiles adds the contents of the files matching each glob pattern to a fuzz target's
// seed corpus (the corpus programs, for the fuzz targets of parsers and stages).
func AddFiles(f *testing.F, patterns ...string) {
	for _, pattern := range patterns {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if src, err := os.ReadFile(file); err == nil {
				f.Add(src)
			}
		}
	}
}
