package machine

import (
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// The machine's performance machinery, apart from its transitions (eval, cont, ceval,
// ccont), so that those read as the refocused machine of the papers. Every helper here
// but push (a call of its own) is small enough for the compiler to inline where it is
// called: the machine runs as if their code stood in the transitions.
//
// Frames of K are records in a slice (push), and environment frames of calls whose
// environments die with them (castval.Frames) are given back by marks (mark, pop,
// releaseCaller). Corridors — sequences of transitions that the machine would take
// without a choice and without a contraction — are compressed (Danvy's transition
// compression): the machine goes straight to where they lead, making the same
// contractions in the same order (operatorOnAtoms, evalArgument, enter); the states a
// corridor skips are not visited, with an observer too. And eval descends without
// returning to Run's loop between two of its transitions (descends), unless an
// observer must see every state.

// push pushes a frame of the given kind and returns it, for the caller to fill in its
// other fields. (Filling them in place, rather than copying in a frame built apart,
// avoids a stall: a composite literal is built on the stack with narrow stores and
// copied in wide moves, which wait for them — 40% of the machine's time on fib.)
func (s *State) push(kind FrameKind) *Frame {
	if len(s.K) < cap(s.K) {
		s.K = s.K[:len(s.K)+1]
	} else {
		s.K = append(s.K, Frame{})
	}
	f := &s.K[len(s.K)-1]
	*f = Frame{}
	f.Kind = kind
	f.Mark = s.mark(kind)
	return f
}

// mark is the Mark of the frame of the given kind on top of K (State.Frames): the
// environment frames in use if the frame holds an environment, else the Mark of the
// frame below it.
func (s *State) mark(kind FrameKind) int32 {
	switch kind {
	case KBinaryLeft, KIf, KAppFun, KLet: // the frames that hold an environment
		return int32(s.Frames.Top())
	}
	if n := len(s.K); n > 1 {
		return s.K[n-2].Mark
	}
	return 0
}

// pop pops the frame on top of K and returns it, giving back the environment frames
// above its Mark: they were there when it was pushed, and only the frames of K up to
// it, and the values, could reach them. The frame returned points into K, at the slot
// the next push reuses: the caller reads what it needs of it before it pushes.
// (Copying the frame out instead stalls as push does.)
func (s *State) pop() *Frame {
	f := &s.K[len(s.K)-1]
	s.K = s.K[:len(s.K)-1]
	s.Frames.Release(int(f.Mark))
	return f
}

// releaseCaller gives back, at a beta contraction, the environment frames above the
// Mark of the frame on top of K (all of them if K is empty): all of the caller's when
// the call is in tail position, also under a pending coercion (a coercion frame holds
// no environment), since the callee's continuation is K and nothing else reaches
// them.
func (s *State) releaseCaller() {
	mark := 0
	if len(s.K) > 0 {
		mark = int(s.K[len(s.K)-1].Mark)
	}
	s.Frames.Release(mark)
}

// enter evaluates the body of the closure fun applied to val, in the call's
// environment (castval.Closure.Call, in a frame of State.Frames when the environment
// dies with the call): the state after beta. The body of an unfolded letrec function
// is the letrec it came from, whose contraction comes next without a choice; enter
// compresses that corridor,
//
//	eval(letrec f = \x:S. e in b, ρ', K) → eval(b, (f ↦ ...) : ρ', K)    [Letrec]
//
// going straight to b in the environment that binds f, and reports it (letrec) for
// the caller to count the Letrec contraction.
func (s *State) enter(fun *v.Closure, val v.Value) (letrec bool) {
	s.Mode = Eval
	s.Term, s.Env, letrec = fun.Call(&s.Frames, val)
	return letrec
}

// operatorOnAtoms is the δ contraction of x op y when both operands are atoms
// (variables or constants, castval.Atom), of values vx and vy, compressing the
// corridor
//
//	eval(x op y, ρ, K) → eval(x, ρ, ([] op y, ρ) : K) → continue(([] op y, ρ) : K, vx)
//	  → eval(y, ρ, (vx op []) : K) → continue((vx op []) : K, vy) → δ
//
// into its last transition: the frames [] op y and vx op [] are never pushed.
func (m *Machine) operatorOnAtoms(s *State, op g.Op, vx, vy v.Value) error {
	return m.delta(s, op, vx, vy)
}

// evalArgument evaluates the argument a of the application f a, whose function f is
// an atom (a variable or a constant, castval.Atom) of value vf, compressing the
// corridor
//
//	eval(f a, ρ, K) → eval(f, ρ, ([] a, ρ) : K) → continue(([] a, ρ) : K, vf)
//	  → eval(a, ρ, (vf []) : K)
//
// into its last transition: the frame [] a is never pushed.
func (s *State) evalArgument(vf v.Value, app *g.App) {
	s.push(KAppArg).V = vf
	s.toEval(app.Arg, s.Env)
}

// descends reports whether eval goes on descending in the same call once it has
// made a transition, rather than returning to Run's loop: it does while the state is
// still an eval state, unless an observer (Trace) must see every state. The Run
// loop's dispatch between two eval transitions is compressed.
func (m *Machine) descends(s *State) bool { return s.Mode == Eval && m.Trace == nil }
