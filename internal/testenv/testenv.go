// Package testenv configures test binaries the same way in every package.
package testenv

import (
	"flag"
	"os"
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
