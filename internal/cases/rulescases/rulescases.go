// Package rulescases is what the tests of the stages derived from a rule file share:
// loading a rule file of testdata/rules, running a derived stage while recording its
// contraction events, the lockstep comparison of two runs, the suites of programs
// with hand-derived expectations on the rule files that use answers, context rules
// and inner layers (CheckSuites), and the checks each stage's tests make, on the
// stage given (checks.go): the λ-calculus against its hand-derived stages
// (LockstepCorpus, LockstepRandom), the budgets (OutOfFuel, TimesOut), the stuck
// programs (Stuck), the deep ones (Deep), answers (Answers) and an observer's lines
// (Observe).
package rulescases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Load reads a rule file of testdata/rules, from any package's directory.
func Load(t testing.TB, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(Testdata(t, "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	return LoadSource(t, name, string(src))
}

// Testdata is the path of the module's testdata/ELEM..., found from the working
// directory of a test (its package's directory) by going up to the module's go.mod.
func Testdata(t testing.TB, elem ...string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(append([]string{dir, "testdata"}, elem...)...)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}

// TB is what the lockstep needs of a test: *testing.T or *rapid.T.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// A Run is a run of a stage: its contraction events, and its answer or error.
type Run struct {
	Events []string
	Value  *sem.Term
	Err    error
}

func (r Run) String() string {
	if r.Err != nil {
		return fmt.Sprintf("%v after %d contractions", r.Err, len(r.Events))
	}
	return sem.Format(r.Value)
}

// Options are a run's options with a fuel budget, recording its events in r.
func Options(r *Run, fuel int) interderive.Options {
	return interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.Events = append(r.Events, rule) }}
}

// RunDerived runs a closed term on a derived stage.
func RunDerived(s sem.Stage, l *sem.Language, e *sem.Term, fuel int) Run {
	var r Run
	a, err := s.Eval(l, e, Options(&r, fuel))
	r.Value, r.Err = a.Value, err
	return r
}

// Observe runs the program src of l on the stage s with the observer obs, and checks
// that it ends with the answer want and that the lines obs kept, *lines, are then
// wantLines, each derived by hand.
func Observe(t *testing.T, s sem.Stage, l *sem.Language, src, want string, obs interderive.Observer, lines *[]string, wantLines []string) {
	t.Helper()
	a, err := s.Eval(l, Read(t, l, src), interderive.Options{Observer: obs})
	if err != nil || sem.Format(a.Value) != want {
		t.Errorf("%s: %v (%v), want %s", src, a, err, want)
	}
	if !slices.Equal(*lines, wantLines) {
		t.Errorf("%s: lines:\n%s\nwant\n%s", src, strings.Join(*lines, "\n"), strings.Join(wantLines, "\n"))
	}
}

// Agree checks that two runs made the same contractions and ended alike: the same
// answer up to α-equivalence, both out of fuel, or the same run-time error (reason and
// position).
func Agree(t TB, what string, a, b Run) {
	t.Helper()
	if !slices.Equal(a.Events, b.Events) {
		t.Fatalf("%s: the contraction events differ:\n%v\n%v", what, a.Events, b.Events)
	}
	var ra, rb *interderive.RuntimeError
	switch {
	case a.Err == nil && b.Err == nil:
		if !sem.AlphaEqual(a.Value, b.Value) {
			t.Fatalf("%s: answers differ: %s, %s", what, a, b)
		}
	case errors.Is(a.Err, interderive.ErrOutOfFuel) && errors.Is(b.Err, interderive.ErrOutOfFuel):
	case errors.As(a.Err, &ra) && errors.As(b.Err, &rb) && ra.Reason == rb.Reason && ra.Pos == rb.Pos:
	default:
		t.Fatalf("%s: %v, %v", what, a, b)
	}
}

// Outcome is a run's outcome as the corpora's expectations write it: the answer, or
// "run-time error: REASON", or the error.
func (r Run) Outcome() string {
	var rt *interderive.RuntimeError
	switch {
	case errors.As(r.Err, &rt):
		return "run-time error: " + rt.Reason
	case r.Err != nil:
		return r.Err.Error()
	}
	return sem.Format(r.Value)
}

// A Case is a program of a rule file with its expectation, derived by hand: its
// answer (or "run-time error: REASON") and its whole contraction sequence, in order.
type Case struct {
	Name   string
	Src    string
	Answer string
	Rules  []string
}

// A Suite is a rule file and its cases.
type Suite struct {
	Name  string
	Lang  *sem.Language
	Cases []Case
}

// Suites are rule files of testdata/rules with their corpora, whose ; rules: lines
// give the whole contraction sequence (each program's expectation read from its
// comments, ; expect: and ; rules:): call by name, cbn-strict with two context kinds,
// and exceptions (answers, context rules); and AbortSem and CoinsSem (inner layers)
// with AbortCases and CoinsCases. (testdata/rules/cbv's ; rules: lines name the rules
// that must fire; its programs run against the λ-calculus's hand-derived stages.)
func Suites(t testing.TB) []Suite {
	t.Helper()
	return []Suite{
		{Name: "cbn", Lang: Load(t, "cbn.sem"), Cases: Corpus(t, "cbn")},
		{Name: "cbn-strict", Lang: Load(t, "cbn-strict.sem"), Cases: Corpus(t, "cbn-strict")},
		{Name: "exceptions", Lang: Load(t, "exceptions.sem"), Cases: Corpus(t, "exceptions")},
		{Name: "abort", Lang: LoadSource(t, "abort.sem", AbortSem), Cases: AbortCases},
		{Name: "coins", Lang: LoadSource(t, "coins.sem", CoinsSem), Cases: CoinsCases},
	}
}

// LoadSource reads a rule file given as its text.
func LoadSource(t testing.TB, name, src string) *sem.Language {
	t.Helper()
	l, err := sem.Load([]byte(src))
	if err != nil {
		t.Fatal(interderive.Describe(name, []byte(src), err))
	}
	return l
}

// A File is a file of testdata: its base name and its text.
type File struct {
	Name string
	Src  []byte
}

// Files reads the files of testdata/ELEM... (a pattern of filepath.Match in its last
// element), at least one.
func Files(t testing.TB, elem ...string) []File {
	t.Helper()
	pattern := Testdata(t, elem...)
	names, err := filepath.Glob(pattern)
	if err != nil || len(names) == 0 {
		t.Fatalf("no files %s (%v)", pattern, err)
	}
	files := make([]File, len(names))
	for i, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = File{Name: filepath.Base(name), Src: src}
	}
	return files
}

// Corpus reads the programs of testdata/rules/DIR/*.term and their expectations (the
// last ; expect: line, the ; rules: lines in order); a program without either is
// an error.
func Corpus(t testing.TB, dir string) []Case {
	t.Helper()
	var cases []Case
	for _, f := range Files(t, "rules", dir, "*.term") {
		c := Case{Name: f.Name, Src: string(f.Src)}
		for _, line := range strings.Split(c.Src, "\n") {
			if a, ok := strings.CutPrefix(line, "; expect: "); ok {
				c.Answer = a
			}
			if r, ok := strings.CutPrefix(line, "; rules: "); ok {
				for _, name := range strings.Split(r, ",") {
					c.Rules = append(c.Rules, strings.TrimSpace(name))
				}
			}
		}
		if c.Answer == "" || len(c.Rules) == 0 {
			t.Fatalf("%s/%s: no ; expect: or ; rules: line", dir, f.Name)
		}
		cases = append(cases, c)
	}
	return cases
}

// CheckSuites runs every case of Suites on the stage s and on the reference ref (the
// derived reduction semantics): s gives the answer and exactly the contractions the
// case derives by hand, and agrees with ref event by event (Agree); fewer than
// enough programs passing so is an error.
func CheckSuites(t *testing.T, s, ref sem.Stage, enough int) {
	t.Helper()
	n := 0
	for _, suite := range Suites(t) {
		for _, c := range suite.Cases {
			what := suite.Name + "/" + c.Name
			e, err := suite.Lang.ReadTerm([]byte(c.Src))
			if err != nil {
				t.Fatal(interderive.Describe(what, []byte(c.Src), err))
			}
			got := RunDerived(s, suite.Lang, e, 1000)
			if got.Outcome() != c.Answer || !slices.Equal(got.Events, c.Rules) {
				t.Errorf("%s: got %s %v, want %s %v", what, got.Outcome(), got.Events, c.Answer, c.Rules)
				continue
			}
			Agree(t, what, got, RunDerived(ref, suite.Lang, e, 1000))
			n++
		}
	}
	if n < enough {
		t.Errorf("%d programs, want at least %d", n, enough)
	}
}

// Own is one of a rule file's own programs (testdata/rules/NAME/*.term beside
// NAME.sem): its path, and the term it reads as in the file's language (or why not).
type Own struct {
	Path string
	Term *sem.Term
	Err  error
}

// OwnPrograms reads the programs beside the rule file file in l, its language.
func OwnPrograms(t testing.TB, l *sem.Language, file string) []Own {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(file, ".sem"), "*.term"))
	out := make([]Own, len(paths))
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[i].Path = p
		out[i].Term, out[i].Err = l.ReadTerm(src)
	}
	return out
}
