package closures_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
)

// TestSigmaDeep: a value closed over a value closed over ... a million deep (10^5 under
// -short) reads back without recursion: cl(0) = (\x:Int. x)[ε],
// cl(i) = (\y:Int. f y)[f ↦ cl(i-1)], which reads back as \y:Int. (cl(i-1)'s read-back) y, 2i + 2 deep.
func TestSigmaDeep(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		// 10^5 levels already exercise the iterative read-back; the full run covers a
		// million.
		n = 100_000
	}
	wrap := &g.Lam{Param: "y", T: g.Int, Body: &g.App{Fun: &g.Var{Name: "f"}, Arg: &g.Var{Name: "y"}}}
	var cl closures.Closure = &closures.Clo{E: &g.Lam{Param: "x", T: g.Int, Body: &g.Var{Name: "x"}}}
	for range n {
		cl = &closures.Clo{E: wrap, Env: (*closures.Env)(nil).Bind("f", cl)}
	}
	if d := g.Depth(closures.Sigma(cl)); d != 2*n+2 {
		t.Errorf("the read-back is %d deep, want %d", d, 2*n+2)
	}
}

// TestSigmaFreeVariables: a closure reads back with the bindings of its free variables
// only (64 closures each holding the ones before it, used by none: 2^64 steps when
// every binding was read back); a let's body reads back with the let's variable
// unsubstituted.
func TestSigmaFreeVariables(t *testing.T) {
	id := &g.Lam{Param: "x", T: g.Int, Body: &g.Var{Name: "x"}}
	var rho *closures.Env
	var cl closures.Closure
	for i := range 64 {
		cl = &closures.Clo{E: id, Env: rho}
		rho = rho.Bind("f"+string(rune('a'+i%26))+string(rune('0'+i/26)), cl)
	}
	if e := closures.Sigma(cl); !g.AlphaEqual(e, id) {
		t.Errorf("Sigma = %s, want %s", g.Format(e), g.Format(id))
	}
	// let x:Int = 1[ε] in (x + z)[x ↦ 5, z ↦ 2]: x is the let's, z the environment's.
	one := &closures.Clo{E: &g.IntLit{N: 1}}
	env := (*closures.Env)(nil).Bind("z", &closures.Clo{E: &g.IntLit{N: 2}}).Bind("x", &closures.Clo{E: &g.IntLit{N: 5}})
	let := &closures.Let{Name: "x", T: g.Int, Bound: one, Body: &g.Binary{Op: g.OpAdd, X: &g.Var{Name: "x"}, Y: &g.Var{Name: "z"}}, Env: env}
	want := &g.Let{Name: "x", T: g.Int, Bound: &g.IntLit{N: 1}, Body: &g.Binary{Op: g.OpAdd, X: &g.Var{Name: "x"}, Y: &g.IntLit{N: 2}}}
	if e := closures.Sigma(let); !g.AlphaEqual(e, want) {
		t.Errorf("Sigma = %s, want %s", g.Format(e), g.Format(want))
	}
}

// TestTimeoutEnvironmentSteps: the time limit holds across environment steps, which
// are not contractions. On 1 + (1 + ... 20,000 deep the calculus takes an environment
// step at every level on the way down, each decomposing from the root, before its
// first contraction: far longer than the limit, which stops it on the way (the fuel
// counter, which looks at the clock only at contractions, would let it reach the
// bottom first).
func TestTimeoutEnvironmentSteps(t *testing.T) {
	const n = 20_000
	src := strings.Repeat("1 + (", n) + "1" + strings.Repeat(")", n)
	opts := interderive.Options{Timeout: 20 * time.Millisecond}
	e, err := g.Parse([]byte(src), g.GTLC)
	if err != nil {
		t.Fatal(err)
	}
	if e, _, err = g.InsertCasts(e); err != nil {
		t.Fatal(err)
	}
	if a, err := closures.EvalCast(g.ED, g.Translate(g.ED, e), opts); !errors.Is(err, interderive.ErrTimeout) {
		t.Errorf("the gradual calculus: %v, %v, want a timeout", a, err)
	}
	p, err := dpl.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p, _, err = dpl.Check(p); err != nil {
		t.Fatal(err)
	}
	steps := 0
	hooks := closures.DiffHooks{Step: func(closures.DiffEvent) { steps++ }}
	if a, err := closures.EvalDiffHooks(dpl.Tape, p, opts, hooks); !errors.Is(err, interderive.ErrTimeout) || steps >= n {
		t.Errorf("the differentiable language: %v, %v after %d steps, want a timeout before %d", a, err, steps, n)
	}
}
