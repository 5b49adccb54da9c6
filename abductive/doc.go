// Package abductive is the abductive calculus of Muroya, Cheung & Ghica, "Abductive
// functional programming, a semantic approach" (files *.abd; docs/abductive.md): a call-by-value λ-calculus over a field, with
// provisional constants {r} — parameters of a model — and abductive decoupling,
// which turns a model into a parameterised model and its current parameters. The
// paper gives its semantics as a token machine on graphs; this package holds the
// meta-level pieces of the term-level semantics the specification fixes, which every
// stage shares: syntax, typing, labels and footprints, δ, decoupling, the iterators'
// unfolding, substitution, α-equivalence, answers, the rule names (rules.go), and the
// calculus's Stage interface (stage.go). No evaluator lives here.
//
// # Syntax
//
//	T ::= F | V | T -> T | (T)                   (-> associates to the right)
//	t ::= r | -r | {r} | x
//	    | \x:T. t                                (λ may be written for \)
//	    | t t                                    (application, left-associative)
//	    | t $ t                                  (left-associative)
//	    | abduct f, p. t                         (the paper's A(f, p).t)
//	    | let x = t in t
//	    | let f x1:T1 ... xn:Tn = t in t         (let f = \x1:T1. ... \xn:Tn. t in t)
//	    | let f @ p = t in t                     ((abduct f, p. t2) t1)
//	    | (t)
//	$ ::= + | - | * | / | . | +L | *L
//
// r is a numeral (3, 0.5, 1e-3; a float64, the nearest to the decimal); -r is a
// negative numeral where an operand starts, as in the λ-calculus (f (-2) applies f to
// one, f -2 is f - 2). {r} (and {-r}) is a provisional constant. Comments run from --
// to the end of the line. Precedence, loosest first: \, let and abduct extend as far
// right as possible; + - and +L; * / . and *L; application. (The specification does not
// place the iterators: +L sits with +, *L with *.) The keywords are let, in, abduct, F
// and V. +L and *L are one token each when no letter, digit, _ or ' follows the L
// (g + Lx is a sum).
//
// Every node carries the position of its first token, except an application (its
// argument's, the point of the call) and a binary operation (its operator's). Parse
// labels the provisional constants ℓ1, ℓ2, ... in source order and never panics; a
// syntax error is a positioned error (an interderive.ErrorList).
//
// # Typing
//
// The paper's §3. Each abduct introduces a fresh vector type V_a: in abduct f, p. t
// applied to a model of type T', f : V_a -> T' and p : V_a; the abduct has type
// T' -> T for t : T. The name a may occur neither in T', nor in T, nor in the type of a
// free variable of the abduct: a vector type does not escape its decoupling, and the
// vectors of two decouplings never mix. The operations:
//
//   - - * /  : F -> F -> F        + : V_a -> V_a -> V_a     * : F -> V_a -> V_a
//     .        : V_a -> V_a -> F    +L : (V_a -> V_a) -> V_a -> V_a
//     *L       : (V_a -> F) -> V_a -> V_a
//
// An annotation says V, not which V_a: the checker infers it (each V of an annotation
// is a variable that unification binds). A V that nothing binds stays a type of its
// own, and the model's type of an abduct that is never applied is inferred from its
// body. Where + or * has an operand whose type nothing has determined yet (the
// result of a model whose type is not known), it is taken on F. The checker types
// the model of (abduct f, p. t) m before t, so that the model's type is known in t.
// A program without a type is a static error with the position of the subterm at
// fault (TypeOf): a bad annotation, a vector type that escapes, two decouplings'
// vectors mixed.
//
// # Terms at run time
//
// A run builds terms beyond the syntax (they print, but do not parse):
//
//	ℓn            a label: a provisional constant evaluated
//	⟨a op b⟩      a residual: a ground value with a label in it
//	[a, ..., b]   a vector
//	t^{ℓ1, ℓ2}    t, whose value gets the footprint {ℓ1, ℓ2} added (a value so
//	              printed carries it already)
//	g +L[k] v     an iterator's fold from the k-th basis vector on
//
// # Reduction semantics
//
// Call by value, left to right (the function before its argument, the left operand
// before the right, a vector's components in order):
//
//	values    v ::= r^L | ℓn^L | ⟨a op b⟩^L | [a, ..., b]^L | \x:T. t | abduct f, p. t
//	contexts  E ::= [] | E t | v E | E $ t | v $ E | let x = E in t | [a, ..., E, t, ...]
//	              | E^L
//
//	beta     (\x:T. t) v        -> t[x := v]^L      L = fp(\x:T. t) ∪ fp(v)
//	         let x = v in t     -> t[x := v]^L      L = fp(\x:T. t) ∪ fp(v)
//	delta    v1 $ v2            -> δ($, v1, v2)     (Delta; $ not an iterator)
//	param    {r}                -> ℓn               (the label Parse gave it)
//	abduct   (abduct f, p. t) m -> t[f := F][p := P]^L   F, P = Decouple(m),
//	                                                L = fp(abduct f, p. t) ∪ fp(m)
//	iterate  g +L[k] v0         -> g e_k + (g +L[k+1] v0), or v0 when k = n (Iterate)
//	         g *L[k] v0         -> g e_k * (g *L[k+1] v0), or v0 when k = n
//
// A value in E^L leaves it with L added to its footprint (no contraction: the step is
// part of decomposition). Footprints (fp): a ground value's and a vector's is the one
// it carries (a residual's holds its labels, an operation's result the union of its
// operands'); a function's is its body's labels and the footprints of the values
// substituted into it (those it captures), and what a run added. An application's
// result adds the footprints of the function and of the argument (a let is an
// application, so its rule is beta; the specification's events name no let), and so
// does a decoupling, which is the application of an abduct. Footprints are never
// dropped, except that the parameterised model F has none: its application's result
// has its argument's.
//
// Ground values are residuals: an operation of the field on two values without labels
// is computed (float64), any other is the residual ⟨a op b⟩, never simplified. A
// vector operation works componentwise; the dot product of two vectors of n
// components is ((a0 * b0 + a1 * b1) + ...) + a_{n-1} * b_{n-1} as residuals, 0 when
// n = 0. Decoupling (Decouple): with ℓ_0 ... ℓ_{n-1} the model's footprint in label
// order, P = [σ(ℓ_0), ..., σ(ℓ_{n-1})] with that footprint, and F = \y:V.
// m[ℓ_i := y . e_i] (each label, and each provisional constant of that label in m's
// functions, replaced by the projection; each residual back to the operation it was
// the residual of). The iterators take n+1 unfoldings for n parameters: one per basis
// vector and one for the base case (the paper's foldr over E_a, one step per list
// cell and one for the empty list).
//
// # Observation
//
// A ground value prints as the number it denotes under σ (direct mode: ℓn means the r
// of its {r}), in Go's shortest format as dpl.FormatReal; a vector as [a, b, ...]; a
// function as "function".
//
// # Limits
//
// The parser accepts terms nested at most MaxNesting deep, derived from the Go stack
// as in the other calculi; deeper is a positioned error.
package abductive
