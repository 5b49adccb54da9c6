package lambdaval_test

import (
	"testing"

	"github.com/interderive/interderive/internal/values/lambdaval"
	"github.com/interderive/interderive/lambda"
)

func parse(t *testing.T, src string) lambda.Expr {
	t.Helper()
	e, err := lambda.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestReadBack: a closure reads back as its lambda with the values of its free
// variables substituted, closures in them read back in turn, and innermost bindings
// first.
func TestReadBack(t *testing.T) {
	f := &lambdaval.Closure{Lam: parse(t, `\y:Int. x + y`).(*lambda.Lam), Env: (*lambdaval.Env)(nil).Bind("x", lambdaval.Int(7)).Bind("x", lambdaval.Int(5))}
	g := &lambdaval.Closure{Lam: parse(t, `\z:Int. f z`).(*lambda.Lam), Env: (*lambdaval.Env)(nil).Bind("f", f)}
	for _, tt := range []struct {
		v    lambdaval.Value
		want string
	}{
		{lambdaval.Int(-3), `-3`},
		{f, `\y:Int. 5 + y`},
		{g, `\z:Int. (\y:Int. 5 + y) z`},
	} {
		if got := lambda.Format(lambdaval.ReadBack(tt.v)); got != tt.want {
			t.Errorf("ReadBack: %s, want %s", got, tt.want)
		}
	}
}

// TestLetrecClosure: the closure a letrec binds is the unfolded function closed by the
// letrec's environment; in a call of that function, the letrec it starts with binds
// the same function closed by the same environment — without the call's parameter,
// so that environments do not grow with the calls of a loop.
func TestLetrecClosure(t *testing.T) {
	l := parse(t, `letrec f:Int -> Int = \n:Int. f (n + k) in f`).(*lambda.Letrec)
	rho := (*lambdaval.Env)(nil).Bind("k", lambdaval.Int(1))
	f := lambdaval.LetrecClosure(l, rho)
	if f.Lam != lambda.Unfold(l) || f.Env != rho {
		t.Fatalf("the letrec binds %s in %v", lambda.Format(f.Lam), f.Env)
	}
	call := f.Env.Bind(f.Lam.Param, lambdaval.Int(0)) // a call of f: n ↦ 0
	again := lambdaval.LetrecClosure(f.Lam.Body.(*lambda.Letrec), call)
	if again.Lam != f.Lam || again.Env != rho {
		t.Errorf("in a call, the letrec binds %s in an environment of %d bindings", lambda.Format(again.Lam), length(again.Env))
	}
	env := lambdaval.BindLetrec(l, rho)
	if v, _ := env.Lookup("f"); v.(*lambdaval.Closure).Lam != f.Lam {
		t.Errorf("BindLetrec binds f to %v", v)
	}
}

func length(rho *lambdaval.Env) int {
	n := 0
	for ; rho != nil; rho = rho.Next {
		n++
	}
	return n
}

// TestDelta: δ on values wraps around, and is not defined on closures.
func TestDelta(t *testing.T) {
	if v, ok := lambdaval.Delta(lambda.OpMul, lambdaval.Int(1<<62), lambdaval.Int(4)); !ok || v != lambdaval.Int(0) {
		t.Errorf("2^62 * 4 = %v, want 0 (2^64 wraps around)", v)
	}
	if _, ok := lambdaval.Delta(lambda.OpAdd, &lambdaval.Closure{}, lambdaval.Int(1)); ok {
		t.Error("a closure plus 1")
	}
}
