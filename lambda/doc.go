// Package lambda is the simply-typed, call-by-value λ-calculus with integers (files
// *.lam): the smallest calculus of the workbench, and the worked example of
// docs/extending.md. It holds the meta-level pieces every stage shares — syntax,
// typing, δ, substitution, unfolding of letrec, α-equivalence, answers, the rule names
// (rules.go) — and the calculus's Stage interface (stage.go). No evaluator lives here.
//
// # Syntax
//
//	T ::= Int | T -> T | (T)                      (-> associates to the right)
//	e ::= n | -n | x
//	    | \x:T. e                                 (λ may be written for \)
//	    | e e                                     (application, left-associative)
//	    | e + e | e - e | e * e                   (left-associative; * binds tighter)
//	    | if0 e then e else e
//	    | let x = e in e
//	    | letrec f:T = \x:S. e in e               (one recursive function)
//	    | (e)
//
// Comments run from -- to the end of the line. Integers are 64-bit and wrap around
// (two's complement) on overflow; a literal must fit in 64 bits, and -n is a negative
// literal where an operand starts (-9223372036854775808 is the least), so that every
// value prints as a term that reads back: 3 - -2 is a subtraction of a negative
// literal, f (-2) applies f to one, f -2 is f - 2.
//
// Precedence, loosest first: \x, if0, let and letrec extend as far right as possible;
// + and -; *; application. So f x + g y * 2 is (f x) + ((g y) * 2). An open form may
// stand as the last operand or argument without parentheses (1 + let x = 2 in x, f
// \x:Int. x).
//
// Identifiers are letters, digits, _ and ', starting with a letter or _; the keywords
// if0, then, else, let, letrec, in and Int are reserved.
//
// Every node carries the position of its first token, except an application (the
// position of its argument, the point of the call) and an arithmetic operation (the
// position of its operator). Parse never panics; a syntax error is a positioned error
// (an interderive.ErrorList).
//
// # Typing
//
// Simply typed, with exact type equality:
//
//	Γ ⊢ n : Int        Γ ⊢ x : Γ(x)
//	Γ, x:S ⊢ e : T                                    gives  Γ ⊢ \x:S. e : S -> T
//	Γ ⊢ e1 : S -> T,  Γ ⊢ e2 : S                      gives  Γ ⊢ e1 e2 : T
//	Γ ⊢ e1 : Int,  Γ ⊢ e2 : Int                       gives  Γ ⊢ e1 op e2 : Int
//	Γ ⊢ e : Int,  Γ ⊢ e1 : T,  Γ ⊢ e2 : T             gives  Γ ⊢ if0 e then e1 else e2 : T
//	Γ ⊢ e1 : S,  Γ, x:S ⊢ e2 : T                      gives  Γ ⊢ let x = e1 in e2 : T
//	T = S -> U,  Γ, f:T, x:S ⊢ e : U,  Γ, f:T ⊢ b : V  gives  Γ ⊢ letrec f:T = \x:S. e in b : V
//
// (In the letrec, x hides f in e when they are one name.) Anything else — an unbound
// variable, an application of an integer, an argument or operand of the wrong type,
// branches of different types, a letrec whose annotation is not the function's type —
// is a static type error with its position (TypeOf): nothing runs. So progress holds:
// a well-typed program never gets stuck, and a stuck run is a bug of the workbench
// (interderive.StuckError), as in the other calculi.
//
// # Reduction semantics
//
//	values    v ::= n | \x:T. e
//	answers   a ::= v
//	contexts  E ::= [] | E e | v E | E op e | v op E | if0 E then e else e
//	              | let x = E in e
//
//	beta     (\x:T. e) v                  -> e[x := v]
//	delta    n1 op n2                     -> n1 op n2 computed, wrapping
//	if0      if0 0 then e1 else e2        -> e1
//	         if0 n then e1 else e2        -> e2            (n ≠ 0)
//	let      let x = v in e               -> e[x := v]
//	letrec   letrec f:T = \x:S. e in b    -> b[f := \x:S. (letrec f:T = \x:S. e in e)]
//
// Call by value, left to right: the function before its argument, the left operand
// before the right. The two cases of if0 are one rule, if0, whichever branch it takes.
// Every program is closed, so every value substituted is closed and substitution
// needs no renaming, with one exception: the Letrec rule puts e under the binder x,
// and when x is named like the function (letrec f:T = \f:S. e in b, where the f of e
// is the parameter) the inner letrec would capture the parameter's occurrences: the
// Letrec erratum (docs/references.md) holds here too. Unfold then α-renames the
// parameter first, to a name that occurs nowhere in e. The environment-based stages
// bind f to Unfold(l) closed by the letrec's environment, and every call of f unfolds
// the recursion once more (a beta, then a letrec), as the rule does.
//
// Observation: an integer prints as itself, a function as "function".
//
// # Limits
//
// The parser accepts terms nested at most MaxNesting deep (a let's body counts as a
// level: a chain of lets nests), derived from the Go stack as in the other calculi;
// deeper is a positioned error. Terms a run builds may nest deeper (a closure over a
// closure over ...): the functions that walk them use no recursion (AlphaEqual,
// FreeVars), stop at a depth (printing: "..."), or skip the closed values they are
// given (Subst).
package lambda
