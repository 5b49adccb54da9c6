package castval

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
)

// letrecFib is letrec fib: Int -> Int = \k:Int. k in fib: a letrec whose function's
// body does not matter here.
func letrecFib(t *testing.T) *g.Letrec {
	t.Helper()
	e, err := g.Parse([]byte(`letrec fib: Int -> Int = \k:Int. k in fib`), g.CastCalculus)
	if err != nil {
		t.Fatal(err)
	}
	l, ok := e.(*g.Letrec)
	if !ok {
		t.Fatalf("parsed %T, want a letrec", e)
	}
	return l
}

// TestLetrecClosure follows a recursive call by hand. The program's letrec binds fib
// to clo = Unfold(l) closed in ε. Calling clo on 5 evaluates its body — the inner
// letrec l' — in (k ↦ 5) : ε, which binds fib to Unfold(l') closed in ε with the
// parameter dropped: that is clo itself, so the call reuses it. In an environment a
// call did not make, the closure is built afresh, still without the parameter.
func TestLetrecClosure(t *testing.T) {
	l := letrecFib(t)
	clo := LetrecClosure(l, nil)
	if clo.Lam != g.Unfold(l) || clo.Env != nil {
		t.Fatalf("outer letrec: got %v in %v, want Unfold(l) in ε", clo.Lam, clo.Env)
	}
	inner, ok := clo.Lam.Body.(*g.Letrec)
	if !ok {
		t.Fatalf("Unfold(l)'s body is %T, want the inner letrec", clo.Lam.Body)
	}
	rho := clo.Enter(Int(5))
	if rho.Name != "k" || rho.V != Int(5) || rho.Next != nil {
		t.Fatalf("Enter(5) = %+v, want (k ↦ 5) : ε", rho)
	}
	if got := LetrecClosure(inner, rho); got != clo {
		t.Errorf("inner letrec in the call's environment: got a new closure %p, want the called one %p", got, clo)
	}

	// The same binding made by Bind, not by a call: a fresh closure, parameter dropped.
	other := (*Env)(nil).Bind("k", Int(5))
	got := LetrecClosure(inner, other)
	if got == clo || got.Lam != clo.Lam || got.Env != nil {
		t.Errorf("inner letrec in (k ↦ 5) : ε made by Bind: got %p (%v in %v), want a fresh Unfold(l) in ε", got, got.Lam, got.Env)
	}

	// Under another binding of k in front (a let), the parameter is not on top: nothing
	// is dropped and nothing is reused.
	shadow := rho.Bind("y", Int(1))
	if got := LetrecClosure(inner, shadow); got == clo || got.Env != shadow {
		t.Errorf("inner letrec under y ↦ 1: got env %v, want the whole environment", got.Env)
	}
}

// TestReadBackReused checks that a reused closure reads back as the closure the
// reduction semantics builds: \k:Int. letrec fib … in k, closed (no free variable).
func TestReadBackReused(t *testing.T) {
	l := letrecFib(t)
	clo := LetrecClosure(l, nil)
	reused := LetrecClosure(clo.Lam.Body.(*g.Letrec), clo.Enter(Int(5)))
	if got, want := g.Format(ReadBack(reused)), `\k:Int. letrec fib:Int -> Int = \k:Int. k in k`; got != want {
		t.Errorf("read back %s, want %s", got, want)
	}
}

// TestBindLetrec checks that the call's environment (k ↦ 5) : ε, made by Enter, binds
// the inner letrec to (fib ↦ clo) : (k ↦ 5) : ε — the called closure, in front of the
// parameter — and that a Bind-made environment gets the same bindings, freshly made.
func TestBindLetrec(t *testing.T) {
	l := letrecFib(t)
	clo := LetrecClosure(l, nil)
	inner := clo.Lam.Body.(*g.Letrec)
	rho := clo.Enter(Int(5))
	got := BindLetrec(inner, rho)
	if got.Name != "fib" || got.V != Value(clo) || got.Next != rho {
		t.Errorf("BindLetrec in the call's environment = (%s ↦ %v) : %p, want (fib ↦ clo) : %p", got.Name, got.V, got.Next, rho)
	}
	if again := BindLetrec(inner, rho); again != got {
		t.Errorf("a second BindLetrec in the same environment made a new binding")
	}
	other := (*Env)(nil).Bind("k", Int(5))
	fresh := BindLetrec(inner, other)
	if fresh.Name != "fib" || fresh.Next != other || fresh.V == Value(clo) || fresh.V.(*Closure).Lam != clo.Lam || fresh.V.(*Closure).Env != nil {
		t.Errorf("BindLetrec in a Bind-made environment = (%s ↦ %v) : %p, want fib bound to a fresh Unfold(l) in ε", fresh.Name, fresh.V, fresh.Next)
	}
	if outer := BindLetrec(l, nil); outer.Name != "fib" || outer.Next != nil || outer.V.(*Closure).Lam != g.Unfold(l) {
		t.Errorf("the program's letrec binds %s ↦ %v, want fib ↦ Unfold(l) in ε", outer.Name, outer.V)
	}
}
