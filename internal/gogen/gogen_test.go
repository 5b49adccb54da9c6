package gogen

import (
	"bufio"
	"bytes"
	ctxpkg "context"
	"errors"
	"fmt"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/cps2"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The lockstep test: the package generated for each rule file of the repository is
// built with the Go toolchain and runs the file's corpus on every stage; each run's
// events, answer or error must be those of the in-process derived stage of that name
// (an independent implementation: sem's engine and the stages' rules.go).

// root is the repository's root, from this package's directory.
const root = "../.."

// testFuel bounds every run of the lockstep test (both sides).
const testFuel = 20_000

// inProcess are the in-process derived stages, by the generated stages' names.
var inProcess = map[string]interderive.Stage{
	"reduction": reduction.Stage{},
	"closures":  closures.Stage{},
	"machine":   machine.Stage{},
	"cps2":      cps2.Stage{},
	"interp":    interp.Stage{},
	"compile":   compile.Stage{},
}

// ruleFiles are the rule files of the repository, relative to root; short, two.
func ruleFiles(t *testing.T) []string {
	if testing.Short() {
		return []string{"testdata/rules/cbv.sem", "gradual/rules/ed.sem", "testdata/rules/exceptions.sem", "internal/gogen/testdata/closures.sem"}
	}
	var out []string
	for _, pat := range []string{"testdata/rules/*.sem", "gradual/rules/*.sem", "testdata/gradual/rules/*.sem", "sem/testdata/*/*.sem", "internal/calculi/rules/testdata/*/*.sem", "internal/gogen/testdata/*.sem"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			out = append(out, rel)
		}
	}
	return out
}

// program is a program of the corpus: its name and its source, one s-expression.
type program struct{ name, src string }

// corpus is the programs of a rule file: the .term files in the directory named
// like it, and for the cast semantics (a file with the constructors the gradual front
// end translates to), the gradual programs translated.
func corpus(t testing.TB, file string) []program {
	var out []program
	dir := strings.TrimSuffix(filepath.Join(root, file), ".sem")
	terms, _ := filepath.Glob(filepath.Join(dir, "*.term"))
	for _, f := range terms {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, program{filepath.Base(f), string(b)})
	}
	rs, err := gradual.LoadRuleSemantics(filepath.Join(root, file))
	if err != nil {
		return out // not a cast semantics
	}
	srcs, _ := filepath.Glob(filepath.Join(root, "testdata/gradual/*.*"))
	for _, f := range srcs {
		var lang g.Lang
		switch filepath.Ext(f) {
		case ".gtlc":
			lang = g.GTLC
		case ".cast":
			lang = g.CastCalculus
		default:
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e, err := g.Parse(b, lang)
		if err != nil {
			continue // a syntax error is the program's expectation
		}
		if lang == g.GTLC {
			if e, _, err = g.InsertCasts(e); err != nil {
				continue
			}
		} else if _, err := g.TypeOf(e); err != nil {
			continue
		}
		var labels gradual.Labels
		term, err := rs.Term(e, &labels)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, program{filepath.Base(f), sem.Format(term) + "\n"})
	}
	return out
}

// outcome is a run's events and its answer, or its error: a kind and a text.
type outcome struct {
	events []string
	answer string
	kind   string // "" for an answer; runtime, stuck, fuel, depth, function, syntax, other
	text   string
}

// runInProcess runs a program on an in-process stage.
func runInProcess(l *sem.Language, stage, src string, fuel int) outcome {
	var o outcome
	t, err := l.ReadTerm([]byte(src))
	if err != nil {
		return outcome{kind: "syntax", text: err.Error()}
	}
	ds, _ := sem.StageOf(inProcess[stage])
	a, err := ds.Eval(l, t, interderive.Options{Fuel: fuel, OnContract: func(ev string) { o.events = append(o.events, ev) }})
	if err == nil {
		o.answer = sem.Format(a.Value)
		return o
	}
	var re *interderive.RuntimeError
	var se *interderive.StuckError
	var fe *interderive.FuelError
	var de *interderive.DepthError
	var fn *sem.FunctionError
	switch {
	case errors.As(err, &re):
		o.kind, o.text = "runtime", re.Error()
	case errors.As(err, &se):
		o.kind, o.text = "stuck", se.Reason
	case errors.As(err, &fe):
		o.kind, o.text = "fuel", fe.Error()
	case errors.As(err, &fn):
		o.kind, o.text = "function", fn.Message()
		if fn.Limit > 0 {
			o.kind = "depth"
		}
	case errors.As(err, &de):
		o.kind, o.text = "depth", de.Error()
	default:
		o.kind, o.text = "other", err.Error()
	}
	return o
}

// build generates the package of a rule file into a new directory and builds it; it
// returns the binary.
func build(t testing.TB, file string) string {
	t.Helper()
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, file)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatalf("%s does not load: %v", file, err)
	}
	files, err := Generate(l, file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "prog")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of the package of %s: %v\n%s", file, err, out)
	}
	if !testing.Short() {
		// The generated code is read as well as run: go vet finds what gofmt does not.
		vet := exec.Command("go", "vet", ".")
		vet.Dir, vet.Env = dir, cmd.Env
		if out, err := vet.CombinedOutput(); err != nil {
			t.Fatalf("go vet of the package of %s: %v\n%s", file, err, out)
		}
	}
	return bin
}

// runBatch runs the programs through the binary on a stage, in one invocation, under
// -check-stack if asked.
func runBatch(t *testing.T, bin, stage string, progs []program, fuel int, checkStack bool) []outcome {
	t.Helper()
	var in bytes.Buffer
	for _, p := range progs {
		in.WriteString(p.src + "\n\f\n")
	}
	ctx, cancel := ctxpkg.WithTimeout(ctxpkg.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-batch", "-events", "-check-stack="+strconv.FormatBool(checkStack), "-stage", stage, "-fuel", strconv.Itoa(fuel))
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s -stage %s -batch: %v\n%s", bin, stage, err, stderr.String())
	}
	var res []outcome
	var cur outcome
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		line := sc.Text()
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "event":
			cur.events = append(cur.events, rest)
		case "answer":
			cur.answer = rest
		case "error":
			kind, text, _ := strings.Cut(rest, " ")
			q, err := strconv.Unquote(text)
			if err != nil {
				t.Fatalf("unquoted error in the batch output: %s", line)
			}
			cur.kind, cur.text = kind, q
		case "end":
			res = append(res, cur)
			cur = outcome{}
		default:
			t.Fatalf("unexpected line in the batch output: %q", line)
		}
	}
	if len(res) != len(progs) {
		t.Fatalf("%d outcomes for %d programs", len(res), len(progs))
	}
	return res
}

// agree reports how the generated outcome differs from the in-process one ("" if
// it does not).
func agree(want, got outcome) string {
	if n := min(len(want.events), len(got.events)); !slices.Equal(want.events, got.events) {
		i := 0
		for i < n && want.events[i] == got.events[i] {
			i++
		}
		at := func(evs []string) string {
			if i < len(evs) {
				return evs[i]
			}
			return "(none)"
		}
		return fmt.Sprintf("event %d: in-process %s, generated %s (%d and %d events)", i+1, at(want.events), at(got.events), len(want.events), len(got.events))
	}
	if want.kind != got.kind {
		return fmt.Sprintf("in-process %s %q %s, generated %s %q %s", want.kind, want.text, want.answer, got.kind, got.text, got.answer)
	}
	switch want.kind {
	case "":
		if want.answer != got.answer {
			return fmt.Sprintf("answer: in-process %s, generated %s", want.answer, got.answer)
		}
	case "stuck":
		if !strings.Contains(got.text, want.text) {
			return fmt.Sprintf("stuck: in-process %q, generated %q", want.text, got.text)
		}
	case "syntax": // the first error, LINE:COL: message, as sem reads it
		if !strings.HasPrefix(want.text, got.text) {
			return fmt.Sprintf("syntax error: in-process %q, generated %q", want.text, got.text)
		}
	case "runtime", "function", "fuel":
		if want.text != got.text {
			return fmt.Sprintf("%s error: in-process %q, generated %q", want.kind, want.text, got.text)
		}
	}
	return ""
}

// TestLockstep generates, builds and runs the package of every rule file, and
// compares every stage's outcome on the corpus with the in-process stage's.
func TestLockstep(t *testing.T) {
	for _, file := range ruleFiles(t) {
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		l, err := sem.Load(src)
		if err != nil {
			continue // a file that does not load with the default hooks (an error example, a hook's)
		}
		if len(l.Ambiguity) > 0 {
			if _, err := Generate(l, file); err == nil || !strings.Contains(err.Error(), "non-deterministic") {
				t.Errorf("%s: derive --go of a non-deterministic file: %v, want a refusal", file, err)
			}
			continue
		}
		t.Run(strings.ReplaceAll(file, "/", "_"), func(t *testing.T) {
			progs := append(corpus(t, file), extra[file]...)
			if len(progs) == 0 {
				progs = []program{{"(none)", "0"}} // no corpus: the package must build and read
			}
			lockstep(t, l, file, progs)
		})
	}
	if testing.Short() {
		return
	}
	for _, f := range inline {
		t.Run(f.name, func(t *testing.T) {
			l, path := writeRules(t, f.name+".sem", f.src)
			lockstep(t, l, path, f.progs)
		})
	}
}

// loadRules reads and loads the rule file at file, a path from the module's root.
func loadRules(t testing.TB, file string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	return rulescases.LoadSource(t, file, string(src))
}

// writeRules writes the rule file src, named name, into a directory of the test's
// and loads it: its language, and its path, which build takes.
func writeRules(t *testing.T, name, src string) (*sem.Language, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return rulescases.LoadSource(t, name, src), path
}

// lockstep builds the package of a rule file and runs the programs on every stage,
// comparing each outcome with the in-process stage's.
func lockstep(t *testing.T, l *sem.Language, file string, progs []program) {
	lockstepFuel(t, l, file, progs, testFuel)
}

// lockstepFuel is lockstep with each run's fuel.
func lockstepFuel(t *testing.T, l *sem.Language, file string, progs []program, fuel int) {
	bin := build(t, file)
	runs, answers := 0, 0
	for _, stage := range Stages {
		// Every stage runs under -check-stack; the machine and the interpreter, whose
		// environment entries are on a stack (env.go's envStack), run without it too:
		// its stack of two entries, poisoned once given back, makes a use after
		// release fail and sends the entries of the third call on to the heap; the
		// stack in full is the stage as it runs.
		checks := []bool{true}
		if stage == "machine" || stage == "interp" || stage == "compile" {
			checks = []bool{true, false}
		}
		want := make([]outcome, len(progs))
		for i, p := range progs {
			want[i] = runInProcess(l, stage, p.src, fuel)
		}
		for _, check := range checks {
			got := runBatch(t, bin, stage, progs, fuel, check)
			for i, p := range progs {
				if d := agree(want[i], got[i]); d != "" {
					t.Errorf("%s on %s (-check-stack %v): %s", p.name, stage, check, d)
				}
				runs++
				if want[i].kind == "" {
					answers++
				}
			}
		}
	}
	t.Logf("%d programs, %d runs in lockstep (%d answers)", len(progs), runs, answers)
}

// extra are programs that the corpus lacks, by rule file: fresh names (the Letrec
// erratum's x_2, named x primed) and the renaming of a binder that would capture
// (subst e_1 x x_2), both printed in the answers.
var extra = map[string][]program{
	"testdata/rules/stlc.sem": { // constructors written by shapes of their own
		{"beta", "((λ (x num) (+ x 1)) 41)"},
		{"if0", "(if0 0 1 2)"},
		{"higher-order", "((λ (f (num -> num)) (f 3)) (λ (y num) (+ y y)))"},
		{"a-function", "((λ (x num) (λ (y (num -> num)) x)) 5)"},
		{"stuck", "(1 2)"},
		{"literal-not-variable", "(λ (num num) 1)"},
		{"no-shape", "(+ 1)"},
		{"not-by-name", "(plus 1 2)"},
	},
	"testdata/rules/cbv.sem": { // typed: (lam x T e), (letrec f T x S e b)
		{"letrec-fresh", "(letrec f (Int -> (Int -> Int)) f Int (lam y Int f) f)"},
		{"letrec-capture", "(letrec f ((Int -> Int) -> (Int -> Int)) f (Int -> Int) (lam f' Int (app f f')) f)"},
		{"beta-under-lam", "(app (lam x (Int -> Int) (lam y Int (app x y))) (lam z Int z))"},
		{"stuck", "(add 1 (lam x Int x))"},
		{"untyped-lam", "(lam x x)"},
		{"unclosed", "(add 1"},
		{"unknown-constructor", "(ad 1 2)"},
		{"unbound", "(add x 2)"},
		{"arity", "(add 1 2 3)"},
	},
}

// inline are rule files whose functions fail (cmd/interderive's rulefile_test.go's
// coinFunctions and layeredFlip): a function with no clause for its argument, one
// that recurses past the limit, in a rule's right-hand side and in an inner layer.
var inline = []struct {
	name, src string
	progs     []program
}{
	{"coins", rulescases.FailingCoinsSem, []program{
		{"worth", "(tally (join (coin 1) (coin 2)))"},
		{"no-clause", "(tally (join (coin 1) 5))"},
		{"too-deep", "(spin 1)"},
	}},
	{"conditions", `(language conds)
(sort t (integer n) (atom bool b) (con test t) (con pick t))
(kind E v)
(value E n)
(value E b)
(frame E (test (hole)))
(frame E (pick (hole)))
(function one (t) t ((one 1) 1))
(function big (t) t ((big 2) true) ((big 3) false))
(rule test E (test n) n_2 (where (match n_2 (one n))))
(rule test E (test n) 0)
(rule pick E (pick n) 0 (where (big n)))
(rule pick E (pick n) 1)
(stuck E (test b) "a test of a boolean")
(stuck E (pick b) "a pick of a boolean")
`, []program{
		{"match", "(test 1)"},
		{"match-no-clause", "(test 5)"},
		{"call-true", "(pick 2)"},
		{"call-false", "(pick 3)"},
		{"call-no-clause", "(pick 7)"},
		{"stuck", "(pick (pick 3))"},
		{"declared-stuck", "(test true)"},
	}},
	{"layered", rulescases.LayeredFlipSem, []program{
		{"flip-h", "(pay (pair (tl) (h)) 1)"},
		{"flip-tl", "(pay (pair (h) (tl)) 1)"},
		{"paid", "(pay (h) 7)"},
	}},
}

// TestHooksRefused: a rule file that uses a hook written in Go (a meta-function, a
// prim of its own) cannot be written as Go source; the error names the hook.
func TestHooksRefused(t *testing.T) {
	const base = "(language h)\n(sort t (integer n) (con dbl t))\n(kind E v)\n(value E n)\n(frame E (dbl (hole)))\n"
	tests := []struct {
		name, src, want string
		add             func(h *sem.Hooks) error
	}{
		{"a meta-function", base + "(hook twice (n) n)\n(rule dbl E (dbl n) (twice n))\n", "twice",
			func(h *sem.Hooks) error {
				return h.Add(&sem.GoFunc{Name: "twice", Arity: 1, Call: func(l *sem.Language, a []*sem.Term) (*sem.Term, error) { return a[0], nil }})
			}},
		{"a prim", base + "(rule dbl E (dbl n) (prim shl n 1))\n", "prim shl",
			func(h *sem.Hooks) error {
				return h.AddPrim(&sem.Prim{Name: "shl", Arity: 2, Int: func(a []int64) (int64, bool) { return a[0] << a[1], true }})
			}},
		{"an atom type", base + "(sort c (atom char ch))\n(rule dbl E (dbl n) (prim add n n))\n", "atom type char",
			func(h *sem.Hooks) error {
				return h.AddAtom(&sem.AtomType{Name: "char", Read: func(s string, quoted bool) (any, bool) { return s, quoted },
					Format: func(v any) string { return v.(string) }, Equal: func(a, b any) bool { return a == b }, Samples: []any{"a"}})
			}},
		// A default hook, written, but into a sort that holds no numbers: sem checks
		// the result at run time, the generated code would not.
		{"a number hook into a sort without numbers", base + "(hook number-add (t t) t)\n(rule dbl E (dbl n) (number-add n n))\n", "gives a number",
			func(h *sem.Hooks) error { return nil }},
	}
	for _, tt := range tests {
		h := sem.DefaultHooks()
		if err := tt.add(h); err != nil {
			t.Fatal(err)
		}
		l, err := sem.LoadWith([]byte(tt.src), h)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if _, err := Generate(l, "h.sem"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error naming %s", tt.name, err, tt.want)
		}
		l2, err := sem.Load([]byte(base + "(rule dbl E (dbl n) (prim add n n))\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Generate(l2, "h.sem"); err != nil {
			t.Errorf("the default hooks only: %v", err)
		}
	}
}
