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

// TestFrames follows the stack by hand: frames are handed out in order, given back by
// Release, and handed out again at the same addresses; a frame keeps its address when
// the stack grows.
func TestFrames(t *testing.T) {
	var fs Frames
	a, b := fs.Push(), fs.Push()
	if a == b || fs.Top() != 2 {
		t.Fatalf("two pushes: %p, %p, top %d; want two frames, top 2", a, b, fs.Top())
	}
	fs.Release(1)
	if c := fs.Push(); c != b {
		t.Errorf("push after Release(1): %p, want the second frame again (%p)", c, b)
	}
	for fs.Top() < 1000 {
		fs.Push()
	}
	fs.Release(0)
	if c := fs.Push(); c != a {
		t.Errorf("push after growing to 1000 frames and Release(0): %p, want the first frame (%p)", c, a)
	}
}

// TestEnterWith checks where a call's bindings live, and that they are Enter's: for
// fib's unfolding (whose calls make no closure) in a frame of the stack, the
// parameter k ↦ 5 in front of the closure's environment and the recursive binding
// fib ↦ clo behind it, which BindLetrec finds; for a function that makes a closure,
// on the heap.
func TestEnterWith(t *testing.T) {
	l := letrecFib(t)
	clo := LetrecClosure(l, nil)
	var fs Frames
	rho := clo.EnterWith(&fs, Int(5))
	if fs.Top() != 1 || rho != &fs.all[0].param {
		t.Fatalf("fib's call: environment at %p, top %d; want the first frame's parameter", rho, fs.Top())
	}
	want := clo.Enter(Int(5))
	if rho.Name != want.Name || rho.V != want.V || rho.Next != want.Next {
		t.Errorf("EnterWith(5) = (%s ↦ %v) : %p, want Enter's (%s ↦ %v) : %p", rho.Name, rho.V, rho.Next, want.Name, want.V, want.Next)
	}
	inner := clo.Lam.Body.(*g.Letrec)
	if rec := BindLetrec(inner, rho); rec.Name != "fib" || rec.V != clo || rec.Next != rho {
		t.Errorf("BindLetrec in the frame: (%s ↦ %v) : %p, want (fib ↦ clo) : the frame's parameter", rec.Name, rec.V, rec.Next)
	}

	e, err := g.Parse([]byte(`\x:Int. \y:Int. x`), g.CastCalculus)
	if err != nil {
		t.Fatal(err)
	}
	maker := NewClosure(e.(*g.Lam), nil)
	if rho := maker.EnterWith(&fs, Int(1)); fs.Top() != 1 || rho.Name != "x" || rho.V != Int(1) {
		t.Errorf("a call that makes a closure: (%s ↦ %v), top %d; want (x ↦ 1) on the heap, top 1", rho.Name, rho.V, fs.Top())
	}
}

// TestCall checks where a call goes on: for fib's unfolding, past the letrec its body
// is (letrec reported), to that letrec's body, under fib ↦ clo in front of k ↦ 5; for
// \x:Int. \y:Int. x, its own body \y:Int. x under x ↦ 1, no letrec.
func TestCall(t *testing.T) {
	l := letrecFib(t)
	clo := LetrecClosure(l, nil)
	var fs Frames
	body, rho, letrec := clo.Call(&fs, Int(5))
	inner := clo.Lam.Body.(*g.Letrec)
	if !letrec || body != inner.Body || rho.Name != "fib" || rho.V != clo || rho.Next.Name != "k" || rho.Next.V != Int(5) {
		t.Errorf("fib's call: %s under %s ↦ %v, letrec %v; want the letrec's body under fib ↦ clo, k ↦ 5, letrec true", g.Format(body), rho.Name, rho.V, letrec)
	}
	e, err := g.Parse([]byte(`\x:Int. \y:Int. x`), g.CastCalculus)
	if err != nil {
		t.Fatal(err)
	}
	f := e.(*g.Lam)
	body, rho, letrec = NewClosure(f, nil).Call(&fs, Int(1))
	if letrec || body != f.Body || rho.Name != "x" || rho.V != Int(1) {
		t.Errorf("a plain call: %s under %s ↦ %v, letrec %v; want \\y:Int. x under x ↦ 1, no letrec", g.Format(body), rho.Name, rho.V, letrec)
	}
}
