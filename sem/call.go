package sem

import (
	"errors"
	"fmt"
	"slices"

	"github.com/interderive/interderive"
)

// The calls of the file's functions: meta-level, computed at once (no contraction),
// on the engine of substitution (fns), each call matched against the clauses its
// arguments may apply to (Function.candidates) and remembered (memo).

// callKey is a call of a function on at most three arguments.
type callKey struct {
	f *Function
	a [3]*Term
}

// keptMemo is the most calls an engine's memo may hold for its map to be kept, cleared,
// for the next run (Release): a larger one would cost its clearing.
const keptMemo = 1 << 12

// forget is the memo m cleared, to be kept for the next run, or nil.
func forget(m map[callKey]*Term) map[callKey]*Term {
	if len(m) > keptMemo {
		return nil
	}
	if len(m) > 0 { // a run that remembered nothing clears nothing
		clear(m)
	}
	return m
}

// worthMemo reports whether a call on args is worth remembering: one of them is a
// node with children (a call on leaves costs less than its look-up).
func worthMemo(args []*Term) bool {
	for _, a := range args {
		if a.Op == TermCon && len(a.Args) > 0 {
			return true
		}
	}
	return false
}

// maxMemo bounds the calls an engine remembers: past it, it forgets them all and
// starts again (a run that calls on ever new terms holds no more than this).
const maxMemo = 1 << 16

// callsPerLook is how many calls a function's evaluation makes between two looks at
// the budgets: a look reads the clock.
const callsPerLook = 256

// tick counts a call of a function, and every callsPerLook calls checks the run's
// budgets: nil, or the *interderive.TimeoutError or *interderive.MemoryError that
// stops the run.
func (e *Engine) tick() error {
	if !e.watch.Active() {
		return nil
	}
	if e.ticks++; e.ticks%callsPerLook != 0 {
		return nil
	}
	return e.watch.Check()
}

// fns is the engine the functions of the file run on: meta-level, on terms read back,
// by substitution.
func (e *Engine) fns() *Engine {
	if !e.env {
		return e
	}
	if e.calls == nil {
		e.calls = new(Engine)
	}
	if e.calls.l == nil { // a new one, or one a run before released (cleared)
		e.calls.l, e.calls.watch = e.l, e.watch
	}
	return e.calls
}

// call applies the function f to args on a substitution engine: the first clause
// whose patterns match and whose conditions hold gives the result. It is a
// *FunctionError when no clause applies, or when the calls nest deeper than
// MaxCallDepth.
func (e *Engine) call(f *Function, args []*Term, at Pos, depth int) (*Term, error) {
	if err := e.tick(); err != nil {
		return nil, err
	}
	if depth > MaxCallDepth {
		return nil, e.l.functionError(f, args, MaxCallDepth)
	}
	if f.Hook != nil {
		return e.l.CallHook(f, args)
	}
	// A function is a function of its arguments (hooks included: GoFunc): a call
	// made before on the same terms has its result.
	key, memo := callKey{f: f}, len(args) <= len(callKey{}.a) && worthMemo(args)
	if memo {
		copy(key.a[:], args)
		if t, ok := e.memo[key]; ok {
			return t, nil
		}
	}
	for _, ci := range f.candidates(args) {
		c := f.Clauses[ci]
		b := e.take(c.Metas)
		matched := true
		for _, i := range c.order {
			if !e.match(c.Args[i], args[i], b) {
				matched = false
				break
			}
		}
		if matched {
			if ok, _, _ := e.conditions(c.Where, b, nil); ok {
				t, err := e.instantiate(c.RHS, b, at, depth+1)
				e.release(b)
				if memo && err == nil {
					if e.memo == nil || len(e.memo) >= maxMemo {
						e.memo = make(map[callKey]*Term)
					}
					e.memo[key] = t
				}
				return t, err
			}
		}
		e.release(b)
	}
	return nil, e.l.functionError(f, args, 0)
}

// candidates are the indices of f's clauses that may apply to args, in order: those
// of the index by the argument f.by (indexClauses), or all.
func (f *Function) candidates(args []*Term) []int {
	if f.by < 0 {
		return f.all
	}
	return f.clauses.candidates(View(args[f.by]))
}

// CallHook applies the function f, a hook, to args (closed terms of the sorts of its
// parameters): its Go function, whose result must be a term of the result sort the
// file declares (its root is checked); a failure, or a result of another sort, is the
// function's error (*FunctionError, with its Reason); an *interderive.RuntimeError is
// the program's. The engine calls it, after its tick and its bound on nested calls;
// so does the compiled engine, for the generated code of a file with hooks of its
// calculus's own (internal/compiled).
func (l *Language) CallHook(f *Function, args []*Term) (*Term, error) {
	if f.Hook == nil {
		return nil, fmt.Errorf("function %s is not a hook", f.Name)
	}
	t, err := f.Hook.Call(l, args)
	var re *interderive.RuntimeError
	if errors.As(err, &re) {
		return nil, re // the program's run-time error, not the file's
	}
	if err == nil && !rootOfSort(t, f.Result) {
		err = fmt.Errorf("it returned %s, not %s", FormatShort(t, 60), describe(f.Result))
	}
	if err != nil {
		fe := l.functionError(f, args, 0)
		fe.Reason = err.Error()
		return nil, fe
	}
	return t, nil
}

// rootOfSort reports whether t's root may be that of a term of a: an integer where a
// is one, a variable or a constructor of a's sort.
func rootOfSort(t *Term, a Arg) bool {
	if t == nil {
		return false
	}
	switch t.Op {
	case TermInt:
		return a.Kind == ArgInt || a.Sort != nil && a.Sort.Ints
	case TermVar:
		return a.Kind != ArgInt && a.Sort != nil && a.Sort.Vars
	case TermAtom:
		return a.Kind == ArgTerm && slices.Contains(a.Sort.Atoms, t.Atom)
	case TermCon:
		return a.Kind == ArgTerm && t.Con.Sort == a.Sort
	}
	return false
}
