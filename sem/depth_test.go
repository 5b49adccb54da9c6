package sem_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// towerSem has a class matched as deep as its term: c is boxes around an integer.
const towerSem = `(language tower)
(sort t (integer n) (con box t) (con open t))
(kind E v)
(value E n)
(value E (box v))
(frame E (box (hole)))
(frame E (open (hole)))
(class c t (box c_1) n)
(rule open E (open c) c)
(stuck E (open v) "not a tower")
`

// TestTermDepth: a class matched against a term a run built deeper than any program
// recurses once a level, in the engine's matcher under either discipline; up to
// sem.MaxTermDepth levels it runs within half of the Go stack (the bound's
// derivation: TermFrame bytes a level), and past it a guarded run stops with a
// resource limit (sem.TooDeep, exit status 3) instead of a fatal stack overflow.
func TestTermDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("towers of MaxTermDepth boxes take a second of stack growth: the full run checks the limit")
	}
	l, err := sem.Load([]byte(towerSem))
	if err != nil {
		t.Fatal(err)
	}
	box, _ := l.Con("box")
	var class *sem.Class
	for _, c := range l.Classes {
		if c.Name == "c" {
			class = c
		}
	}
	if class == nil {
		t.Fatal("no class c")
	}
	tower := func(n int) *sem.Term {
		t := sem.Int(sem.Pos{}, 1)
		for range n {
			t = sem.App(sem.Pos{}, box, t)
		}
		return t
	}
	within, past := tower(sem.MaxTermDepth-1), tower(sem.MaxTermDepth+1)
	defer debug.SetMaxStack(debug.SetMaxStack(interderive.StackLimit / 2))
	for _, tt := range []struct {
		name    string
		inClass func(*sem.Term) bool
	}{
		{"substitution", func(t *sem.Term) bool { return sem.NewEngine(l, sem.Substitution).InClass(t, class) }},
		{"environments", func(t *sem.Term) bool { return sem.NewEngine(l, sem.Environments).InClass(sem.Leaf(t, nil), class) }},
	} {
		var in bool
		if _, err := sem.Guard(func() (sem.Answer, error) { in = tt.inClass(within); return sem.Answer{}, nil }); err != nil || !in {
			t.Errorf("%s: a tower of MaxTermDepth-1 boxes: in the class %v, %v; want true", tt.name, in, err)
		}
		_, err := sem.Guard(func() (sem.Answer, error) { tt.inClass(past); return sem.Answer{}, nil })
		if !errors.Is(err, interderive.ErrTooDeep) || !errors.Is(err, interderive.ErrResourceLimit) {
			t.Errorf("%s: a tower of MaxTermDepth+1 boxes: %v, want a depth limit", tt.name, err)
		}
	}
}

// downSem has a function that recurses n calls deep, a constructor around each: the
// depth of its evaluation is two levels a call.
const downSem = `(language down)
(sort t (integer n) (con box t) (con go t))
(kind E v)
(value E n)
(value E (box v))
(frame E (box (hole)))
(frame E (go (hole)))
(function down (t) t
  ((down 0) 0)
  ((down n) (box (down (prim sub n 1))) (where (prim ne n 0))))
(rule go E (go n) (down n))
(stuck E (go v) "not a count")
`

// TestCallDepth: a function's evaluation, within sem.MaxCallDepth levels (a call and
// the constructor around it are two), runs within half of the Go stack (the bound's
// derivation: CallFrame bytes a level); past it, it is a resource limit, not a fatal
// stack overflow. The bound comes from the stack: a function a hundred thousand calls
// deep runs (the bound was 10,000 calls).
func TestCallDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("calls MaxCallDepth deep take half a second of stack growth: the full run checks the limit")
	}
	l, err := sem.Load([]byte(downSem))
	if err != nil {
		t.Fatal(err)
	}
	down, _ := l.Function("down")
	if sem.MaxCallDepth < 200_000 && interderive.StackLimit >= 1<<29 {
		t.Errorf("MaxCallDepth %d, want the stack's 262,144", sem.MaxCallDepth)
	}
	defer debug.SetMaxStack(debug.SetMaxStack(interderive.StackLimit / 2))
	within := int64(sem.MaxCallDepth/2 - 2)
	if got, err := l.Call(down, []*sem.Term{sem.Int(sem.Pos{}, within)}, sem.Pos{}); err != nil || got.Op != sem.TermCon {
		t.Errorf("(down %d): %v, want a tower", within, err)
	}
	past := int64(sem.MaxCallDepth/2 + 2)
	if _, err := l.Call(down, []*sem.Term{sem.Int(sem.Pos{}, past)}, sem.Pos{}); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("(down %d): %v, want a depth limit", past, err)
	}
}

// TestFunctionBudgets: a function's evaluation takes no contraction, yet the run's
// time and memory budgets hold inside it, on every derived stage (each run's engine
// watches its budgets: sem.NewRun): (go 100) of testdata/fan.sem makes 2^100 calls in one contraction, and stops at the timeout
// (it ran for ever, its term past any memory budget), or at a memory budget of 1
// byte.
func TestFunctionBudgets(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fan.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := l.ReadTerm([]byte("(go 100)"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []interderive.Stage{reduction.Stage{}, closures.Stage{}, machine.Stage{}, cps2.Stage{}, interp.Stage{}, compile.Stage{}} {
		st, _ := sem.StageOf(s)
		for _, tt := range []struct {
			opts interderive.Options
			want error
		}{
			{interderive.Options{Timeout: 50 * time.Millisecond}, interderive.ErrTimeout},
			{interderive.Options{Memory: 1}, interderive.ErrOutOfMemory},
		} {
			start := time.Now()
			_, err := st.Eval(l, prog, tt.opts)
			if !errors.Is(err, tt.want) || time.Since(start) > 5*time.Second {
				t.Errorf("%s: %v after %v, want %v", s.Name(), err, time.Since(start), tt.want)
			}
		}
	}
}

// TestSubstDepth: substitution in a body a run built deeper than any program (the
// body of a function under construction: cmd/interderive/testdata/hostile/binder.sem)
// recurses once a level; within sem.MaxTermDepth it runs in half of the Go stack, and
// past it a guarded run stops with a resource limit, not a fatal stack overflow.
func TestSubstDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("bodies of MaxTermDepth boxes take a second of stack growth: the full run checks the limit")
	}
	l, err := sem.Load([]byte(towerSem))
	if err != nil {
		t.Fatal(err)
	}
	box, _ := l.Con("box")
	body := func(n int) *sem.Term {
		t := sem.Var(sem.Pos{}, "x")
		for range n {
			t = sem.App(sem.Pos{}, box, t)
		}
		return t
	}
	within, past := body(sem.MaxTermDepth-1), body(sem.MaxTermDepth+2)
	defer debug.SetMaxStack(debug.SetMaxStack(interderive.StackLimit / 2))
	var got *sem.Term
	if _, err := sem.Guard(func() (sem.Answer, error) {
		got = sem.Subst(within, "x", sem.Int(sem.Pos{}, 1))
		return sem.Answer{}, nil
	}); err != nil || got == nil {
		t.Errorf("a body of MaxTermDepth-1 boxes: %v", err)
	}
	_, err = sem.Guard(func() (sem.Answer, error) { sem.Subst(past, "x", sem.Int(sem.Pos{}, 1)); return sem.Answer{}, nil })
	if !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("a body of MaxTermDepth+2 boxes: %v, want a depth limit", err)
	}
}
