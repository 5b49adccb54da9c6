package machine_test

import (
	"fmt"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// TestRulesMachineBudgets: a divergent program stops at its fuel, cleanly.
func TestRulesMachineBudgets(t *testing.T) {
	rulescases.OutOfFuel(t, machine.Stage{}.Rules())
}

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda on the machine
// derived from cbv.sem, on the derived reduction semantics, and on lambda's
// hand-derived machine (the independent check, with environments): all three make
// the same contractions and give the same answer.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LockstepCorpus(t, machine.Stage{}.Rules(), machine.Stage{}.Lambda(), reduction.Stage{}.Rules())
}

// TestRulesLambdaRandom: random well-typed λ-programs in lockstep.
func TestRulesLambdaRandom(t *testing.T) {
	rulescases.LockstepRandom(t, 0, machine.Stage{}.Rules(), machine.Stage{}.Lambda(), reduction.Stage{}.Rules())
}

// recorder is an observer that keeps the machine's states.
type recorder struct{ steps []string }

func (r *recorder) Step(line string)                { r.steps = append(r.steps, line) }
func (r *recorder) About(int, string)               {}
func (r *recorder) Report(int, string, any, string) {}

// TestRulesMachineStates: the states of a run of (1 + 2) + 3, derived by hand from
// the transitions (machine/rules.go) and cbv.sem's frames (add [] t), then (add v []):
// the left operand, not a value, is entered; in it, both holes hold values, so no
// frame is entered and 1 + 2 is contracted in place (delta); 3 is returned to the
// frame (add [] 3), the search resumes after it, and the frame after, (add v []),
// is passed over (3 is a value): 3 + 3 is contracted, and 6 returned to the empty
// stack. cbv.sem qualifies for environments: every closure is shown as the machine
// holds it, t[ρ], here in the empty environment ε (the program's, and its left
// operand's expanded from it); the literals 3 and the contracta 3 and 6 are closed, their
// own closures (sem.Leaf), shown as they are.
func TestRulesMachineStates(t *testing.T) {
	var r recorder
	rulescases.Observe(t, machine.Stage{}.Rules(), rulescases.Load(t, "cbv.sem"), "(add (add 1 2) 3)", "6", &r, &r.steps, []string{
		"eval       (add (add 1 2) 3)[ε]  in E\n           K=[]",
		"eval       (add 1 2)[ε]  in E\n           K=[(add [] 3)]",
		"eval       3  in E\n           K=[(add [] 3)]",
		"continue   3\n           K=[(add [] 3)]",
		"eval       6  in E\n           K=[]",
		"continue   6\n           K=[]",
	})
}

// TestRulesMachineDeep: a term nested as deep as the reader allows runs without
// exhausting the Go stack.
func TestRulesMachineDeep(t *testing.T) {
	rulescases.Deep(t, machine.Stage{}.Rules(), sem.MaxNesting)
}

// sumProgram is sum n = n + (n - 1) + ... + 0 by a non-tail recursion, in cbv.sem
// (s : Int -> Int, its parameter k : Int): its terms grow with n, so that the naive reduction semantics, which decomposes
// from the root at every contraction, takes time quadratic in n where the refocused
// machine takes linear time.
func sumProgram(n int) string {
	return fmt.Sprintf("(letrec s (Int -> Int) k Int (if0 k 0 (add k (app s (sub k 1)))) (app s %d))", n)
}

// TestRulesDocExample: the program docs/rules.md gives as testdata/lambda/fib.lam in
// cbv.sem's syntax computes fib 10 = 55 (that file's hand derivation), on both
// derived stages.
func TestRulesDocExample(t *testing.T) {
	rulescases.Answers(t, rulescases.Load(t, "cbv.sem"), `(letrec fib (Int -> Int) n Int
  (if0 n 0 (if0 (sub n 1) 1 (add (app fib (sub n 1)) (app fib (sub n 2)))))
  (app fib 10))`, "55", reduction.Stage{}.Rules(), machine.Stage{}.Rules())
}

// TestRulesSumProgram: the benchmark's program computes its sum (10 + 9 + ... + 0 =
// 55) on both derived stages.
func TestRulesSumProgram(t *testing.T) {
	rulescases.Answers(t, rulescases.Load(t, "cbv.sem"), sumProgram(10), "55", reduction.Stage{}.Rules(), machine.Stage{}.Rules())
}

// BenchmarkRulesGrowing compares the derived machine with the derived reduction
// semantics on a growing program (not a timed test: go test -bench RulesGrowing).
func BenchmarkRulesGrowing(b *testing.B) {
	l := rulescases.Load(b, "cbv.sem")
	stages := []struct {
		name  string
		stage sem.Stage
	}{{"reduction", reduction.Stage{}.Rules()}, {"machine", machine.Stage{}.Rules()}}
	for _, n := range []int{100, 200, 400, 800} {
		e := rulescases.Read(b, l, sumProgram(n))
		for _, s := range stages {
			b.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(b *testing.B) {
				for b.Loop() {
					a, err := s.stage.Eval(l, e, interderive.Options{})
					if err != nil || a.Value.N != int64(n*(n+1)/2) {
						b.Fatalf("%v %v", a, err)
					}
				}
			})
		}
	}
}

// FuzzRules runs every program the fuzzer finds, in every rule file of
// testdata/rules and the test suites' (rulescases.AbortSem, CoinsSem), on the derived reduction semantics and the derived machine with a
// small fuel: both must make the same contractions and end alike (an answer, out of
// fuel, or stuck for one reason) — never a panic.
func FuzzRules(f *testing.F) {
	for _, src := range []string{
		"(app (lam x (add x 1)) 2)",
		"(letrec f x (if0 x 0 (add x (app f (sub x 1)))) (app f 3))",
		"(letrec f f (if0 f 0 (add f 100)) (add (app f 1) (app f 0)))",
		"(app (lam x Int (add x 1)) 2)",
		"(letrec f (Int -> Int) x Int (if0 x 0 (add x (app f (sub x 1)))) (app f 3))",
		"(letrec f (Int -> Int) f Int (if0 f 0 (add f 100)) (add (app f 1) (app f 0)))",
		"(bang (app (lam x 7) (app (lam y y) 2)))",
		"(let x (lam y y) (app x (app 1 2)))",
		"(handle (add 1 (raise 2)) (lam x (raise (add x 1))))",
		"(add 1 (restart (halt (add 2 3))))",
		"(add (cash (join (coin 1) (purse (fake)))) 1)",
	} {
		f.Add(src)
	}
	var langs []*sem.Language
	for _, name := range []string{"cbv.sem", "cbn.sem", "cbn-strict.sem", "exceptions.sem"} {
		langs = append(langs, rulescases.Load(f, name))
	}
	langs = append(langs, rulescases.LoadSource(f, "abort.sem", rulescases.AbortSem), rulescases.LoadSource(f, "coins.sem", rulescases.CoinsSem))
	f.Fuzz(func(t *testing.T, src string) {
		for _, l := range langs {
			e, err := l.ReadTerm([]byte(src))
			if err != nil {
				continue
			}
			m := rulescases.RunDerived(machine.Stage{}.Rules(), l, e, 2000)
			r := rulescases.RunDerived(reduction.Stage{}.Rules(), l, e, 2000)
			rulescases.Agree(t, l.Name, m, r)
		}
	})
}

// chainProgram builds, by a non-tail recursion, a function wrapped n times: f 0 is
// \y:Int. y, f k is \z:Int. (f (k - 1)) z — a closure over a closure over ... n deep,
// whose read-back nests n lambdas around the identity. f : Int -> (Int -> Int): both
// branches of its if0 are Int -> Int (t-lam; t-let with g : Int -> Int, t-app).
func chainProgram(n int) string {
	return fmt.Sprintf("(letrec f (Int -> (Int -> Int)) x Int (if0 x (lam y Int y) (let g (app f (sub x 1)) (lam z Int (app g z)))) (app f %d))", n)
}

// lambdaDepth counts the lambdas along t's chain of bodies and function positions,
// without recursion.
func lambdaDepth(t *sem.Term) int {
	n := 0
	for t.Op == sem.TermCon {
		switch t.Con.Name {
		case "lam":
			n++
			t = t.Args[2] // (lam x T t): the body after the parameter's type
		case "app":
			t = t.Args[0]
		default:
			return n
		}
	}
	return n
}

// TestRulesDeepClosures: an answer that is a closure nested as deep as the run made
// it reads back without exhausting the Go stack, and is the derived reduction
// semantics' answer (compared on a smaller n, the reduction semantics being
// quadratic here).
func TestRulesDeepClosures(t *testing.T) {
	l := rulescases.Load(t, "cbv.sem")
	e := rulescases.Read(t, l, chainProgram(300))
	m := rulescases.RunDerived(machine.Stage{}.Rules(), l, e, 0)
	rulescases.Agree(t, "machine / reduction", m, rulescases.RunDerived(reduction.Stage{}.Rules(), l, e, 0))
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	e = rulescases.Read(t, l, chainProgram(n))
	a, err := machine.Stage{}.Rules().Eval(l, e, interderive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := lambdaDepth(a.Value); got != n+1 {
		t.Errorf("%d lambdas, want %d", got, n+1)
	}
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the machine the answers and the
// contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, machine.Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}

// TestRulesMachineAbortStates: the states of two runs of exceptions.sem, derived by
// hand from the transitions. handle (raise 1) with \x. x: the body's frame entered
// (raise 1 is not a value), raise's frame passed over (1 is a value), and raise 1
// contracted in the stack [(handle [] (lam x x))]: the handler's frame popped, the
// contractum evaluated with the stack that was under it, empty; then the application
// as in cbv.sem, both holes values, contracted at once: beta binds x to 1 in the
// body's environment, ρ1 (the body of (lam x x), expanded, was x under (x ↦ ·) : ε,
// which the substitution fills), and x[ρ1] is looked up to 1. raise 2: its frame
// passed over, raise 2 in the empty stack is an answer: the machine halts (no state
// after). Every closure is shown t[ρ], as the environment machine holds it; the
// literal 1, closed, is its own closure (sem.Leaf), shown as it is.
func TestRulesMachineAbortStates(t *testing.T) {
	l := rulescases.Load(t, "exceptions.sem")
	for _, tc := range []struct {
		src    string
		answer string
		want   []string
	}{
		{"(handle (raise 1) (lam x x))", "1", []string{
			"eval       (handle (raise 1) (lam x x))[ε]  in E\n           K=[]",
			"eval       (raise 1)[ε]  in E\n           K=[(handle [] (lam x x)[ε])]",
			"eval       (app (lam x x)[ε] 1)  in E\n           K=[]",
			"ρ1 = (x ↦ 1) : ε",
			"eval       x[ρ1]  in E\n           K=[]",
			"continue   1\n           K=[]",
		}},
		{"(raise 2)", "(raise 2)", []string{
			"eval       (raise 2)[ε]  in E\n           K=[]",
		}},
	} {
		var r recorder
		rulescases.Observe(t, machine.Stage{}.Rules(), l, tc.src, tc.answer, &r, &r.steps, tc.want)
	}
}
