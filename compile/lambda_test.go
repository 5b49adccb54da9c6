package compile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/internal/cases/lambdacases"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// TestLambdaCases runs the hand-derived programs of package lambdacases on the
// compiled stage: answers and whole contraction sequences.
func TestLambdaCases(t *testing.T) { lambdacases.Run(t, compile.Stage{}.Lambda()) }

// lambdaLockstep runs p on the compiled stage in lockstep with the reduction
// semantics (the calculus has one variant and one mode).
func lambdaLockstep(w *workbench.Workbench, c workbench.Calculus, p workbench.Program, fuel int) error {
	mode := c.Modes("cbv")[0]
	if _, d := w.Lockstep(c, p, []interderive.Stage{reduction.Stage{}, compile.Stage{}}, "cbv", mode, fuel); d != nil {
		return d
	}
	return nil
}

// TestLambdaCorpusLockstep: every program of the λ-calculus's corpus that loads runs
// on the compiled stage in lockstep with the reduction semantics.
func TestLambdaCorpusLockstep(t *testing.T) {
	w := wb(t)
	c, _, err := w.LanguageNamed("lam")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../testdata/lambda/*.lam")
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Load("lam", src)
		if err != nil {
			continue // a type error, checked by check
		}
		loaded++
		if err := lambdaLockstep(w, c, p, lockstepFuel); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	if loaded < 15 {
		t.Errorf("%d programs of the corpus loaded, want the corpus (15 or more)", loaded)
	}
}

// TestLambdaRandomLockstep: random well-typed programs run on the compiled stage in
// lockstep with the reduction semantics.
func TestLambdaRandomLockstep(t *testing.T) {
	w := wb(t)
	c, _, err := w.LanguageNamed("lam")
	if err != nil {
		t.Fatal(err)
	}
	fuel := 5_000
	if testing.Short() {
		fuel = 500 // the reduction semantics is quadratic in a run's length
	}
	rapid.Check(t, func(rt *rapid.T) {
		if err := lambdaLockstep(w, c, c.Generate(rt, 5, "cbv"), fuel); err != nil {
			rt.Fatalf("%v", err)
		}
	})
}

// TestLambdaBudgets: loop 3 makes 16 contractions — letrec; for each of the 4 calls
// (n = 3, 2, 1, 0) beta, letrec and if0; and for each of the 3 calls but the last its
// operand's delta (n - 1): 1 + 4 × 3 + 3 = 16 — and fuel one short stops it after 15,
// watched or not; a recursion that is not a tail call stops at the depth bound; a
// divergent loop at its timeout.
func TestLambdaBudgets(t *testing.T) {
	const loop = `letrec loop:Int -> Int = \n:Int. if0 n then 0 else loop (n - 1) in loop 3`
	const want = 16
	e, err := lambda.Parse([]byte(loop))
	if err != nil {
		t.Fatal(err)
	}
	st := compile.Stage{}.Lambda()
	for _, watched := range []bool{false, true} {
		for _, fuel := range []int{want - 1, want} {
			steps := 0
			opts := interderive.Options{Fuel: fuel}
			if watched {
				opts.OnContract = func(string) { steps++ }
			}
			a, err := st.Eval(e, opts)
			var fe *interderive.FuelError
			switch {
			case fuel == want && (err != nil || a.Value.(*lambda.IntLit).N != 0):
				t.Errorf("watched %v, fuel %d: %v, %v; want 0", watched, fuel, a, err)
			case fuel < want && (!errors.As(err, &fe) || fe.Steps != fuel):
				t.Errorf("watched %v, fuel %d: %v, want out of fuel after %d", watched, fuel, err, fuel)
			}
			if watched && steps != fuel {
				t.Errorf("fuel %d: %d contractions reported", fuel, steps)
			}
		}
	}
	deep, err := lambda.Parse([]byte(`letrec sum:Int -> Int = \n:Int. if0 n then 0 else n + sum (n - 1) in sum 1000`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compile.LambdaEvalDepth(deep, interderive.Options{}, 1000); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("sum 1000 under a bound of 1000: %v, want the depth bound", err)
	}
	diverge, err := lambda.Parse([]byte(`letrec f:Int -> Int = \n:Int. f (n + 1) in f 0`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Eval(diverge, interderive.Options{Fuel: 1 << 62, Timeout: 50 * time.Millisecond}); !errors.Is(err, interderive.ErrTimeout) {
		t.Errorf("a divergent loop: %v, want a timeout", err)
	}
}
