// Package contexts holds the evaluation contexts of the reduction semantics, one family
// per calculus, as data: a context is a list of frames, outermost first, and Plug
// recomposes a term from a context and what fills its hole.
//
// For the cast calculus λ⟨·⟩ (the layered semantics of PEPM 2014, docs/derivation.md) there are two layers:
//
//	E ::= [] | op E | E op e | v op E | if E then e else e | E e | v E | <c> E
//	    | let x:T = E in e
//	C ::= [] | C ; c | ĉ ; C | C -> c | ĉ -> C
//
// the term contexts E of the outer layer and the coercion contexts C of the inner
// layer, in which StepCst reduces.
package contexts
