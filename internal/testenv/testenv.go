// Package testenv configures test binaries the same way in every package.
package testenv

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// PropertyChecks is the number of cases every rapid property runs by default in
// go test ./... (rapid itself runs a fifth of them under -short). It keeps the suite
// within the README's bound (go test ./... under 4 minutes on 2 cores); the long runs
// are asked for on purpose: interderive fuzz --count N, or -rapid.checks=N on the
// command line, which overrides it. CI runs both (.ci/run).
const PropertyChecks = 250

// Main is a TestMain: it raises rapid's default number of checks to PropertyChecks
// unless the command line set it, then runs the tests.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set && flag.Lookup("rapid.checks") != nil {
		_ = flag.Set("rapid.checks", strconv.Itoa(PropertyChecks))
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

// ShortSample is how sparsely Sample takes a corpus under -short: every ShortSample-th
// file, starting from the first.
const ShortSample = 4

// Sample returns the files a corpus test runs: all of them, or under -short every
// ShortSample-th (in their given, sorted order, so that the sample is the same from one
// run to the next and covers every directory of a sorted list). The whole corpus runs
// in go test ./... and in interderive check testdata; -short is the everyday loop.
func Sample[T any](files []T) []T {
	if !testing.Short() {
		return files
	}
	var out []T
	for i := 0; i < len(files); i += ShortSample {
		out = append(out, files[i])
	}
	return out
}

// LongEnv names the environment variable that runs the long sweeps (programs nested as
// deep as the parsers accept, on every stage): go test ./... leaves them out to stay
// within the README's bound, and CI runs them on purpose (.ci/run):
//
//	INTERDERIVE_LONG=1 go test -run 'NestingLimit|RulesDeep' ./...
const LongEnv = "INTERDERIVE_LONG"

// Long skips t unless LongEnv is set, saying what it would run and how to run it.
func Long(t testing.TB, what string) {
	t.Helper()
	if os.Getenv(LongEnv) == "" {
		t.Skipf("%s: a long sweep, run on purpose with %s=1 (CI does)", what, LongEnv)
	}
}

// TopUp runs body on the cases drawn at seeds 0, 1, ... (rapid's Example) until done
// reports true or max seeds are spent. A test that needs its generator to reach every
// corner (a rule fired, a shadowing made) calls it after its random run, which draws as
// many cases as -rapid.checks asks (a fifth under -short): the corners are then reached
// whatever the count, by the same cases on every run.
func TopUp(body func(*rapid.T), done func() bool, max int) {
	gen := rapid.Custom(func(t *rapid.T) struct{} { body(t); return struct{}{} })
	for seed := 0; !done() && seed < max; seed++ {
		gen.Example(seed)
	}
}

// Reached reports whether every key has a positive count in seen: TopUp's done, for a
// test that counts what its cases reached.
func Reached(seen map[string]int, keys []string) bool {
	for _, k := range keys {
		if seen[k] == 0 {
			return false
		}
	}
	return true
}

// InTurn reports whether the i-th case of a corpus runs under the j-th of n
// configurations (semantics, strategies, stages): always in go test ./..., and under
// -short only when j is i's turn, i mod n, so that each case runs under one
// configuration and every configuration still runs.
func InTurn(i, j, n int) bool {
	return !testing.Short() || i%n == j
}

// NeedCompiledEngine skips t where the compiled engine (internal/compiled) cannot be:
// Go's plugins need cgo.
func NeedCompiledEngine(t testing.TB) {
	t.Helper()
	if !CompiledEngine(t) {
		t.Skip("the compiled engine needs cgo (go env CGO_ENABLED is not 1): not tested here")
	}
}

// CompiledEngine reports whether the compiled engine can be here (go env CGO_ENABLED
// is 1), for a test that checks it along with other things.
func CompiledEngine(t testing.TB) bool {
	t.Helper()
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	return strings.TrimSpace(string(out)) == "1"
}
