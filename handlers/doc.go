// Package handlers is the language of reverse handlers for arrows (Sanada, Hoshino,
// Hirai & Katsumata, "Programming Backpropagation with Reverse Handlers for Arrows";
// docs/handlers.md): files *.rh. Its terms are the differentiable language's (package
// dpl: syntax, typing, operators, R and its strategies are shared); its commands,
// handlers and heap are new. It holds the meta-level pieces every stage shares —
// syntax, typing, substitution, α-equivalence, answers, the rule names (rules.go) and
// the Stage interface (stage.go) — and no evaluator.
//
// # Syntax
//
//	program ::= decl* P
//	decl    ::= op NAME : T -> T                 an operation symbol
//	          | heap NAME : T = V                a heap location, its initial value
//	P, Q, R ::= [M]                              a pure term as a command
//	          | NAME(M)                          an operation applied to a term
//	          | get[NAME]() | put[NAME](M)       the heap's operations
//	          | let x[:T] <= P in Q
//	          | let <x1[:T1], ..., xn[:Tn]> <= P in Q
//	          | rev handle(M) <x1, ..., xn>. R with H
//	          | (P)
//	H       ::= { return x -> P (; clause)* }    the clauses in any order
//	clause  ::= NAME(x) -> Qf | y, z -> Qb
//
// M is a term of the differentiable language without if, letrec, predicates and
// calls, with its sugar (*, -, /, n-ary tuples, let-tuples, grad, fd), and with the
// operators sigm and swish and their reverse derivatives sigm_r and swish_r (the
// differentiable language's, sugar.go).
// A term stands between brackets or parentheses that end it: [M], NAME(M),
// put[a](M), rev handle(M). V is a closed value: a numeral, -r, (), <V1, ..., Vn>.
// let and rev handle extend as far right as possible (rev handle's R up to its with).
// Comments run from -- to the end of the line. Every node carries the position of
// its first token; Parse never panics.
//
// # Typing
//
// Figs. 2–3 of the paper, with the decisions of spec §2 and these, where the spec is
// silent (Check):
//   - the body R of rev handle sees only its handled variables (Fig. 3 drops the
//     outer Δ), its argument M the outer ones;
//   - a handler need not mention every operation, but a clause must name a declared
//     operation (get and put have no clauses: they always go to the heap);
//   - a program must not perform an operation that no enclosing handler handles,
//     other than get and put (CheckHandled): nothing would give it a meaning.
//
// # Reduction semantics
//
// Configurations are (heap, command). Term rules (Def. 5.4, named as the
// differentiable language names them): plus, op, let, fst, snd, rd (W.rd[V](x. N) ->
// W.R_V(x. N), R the strategy's). Command rules: cmd/let (let x <= [V] in Q ->
// Q[V/x]), cmd/handle (rev handle(V) <x>. R with H -> RH_H^V(<x>. R)), heap/get,
// heap/put (Example 5.13). RH is an administrative command contracted one clause of
// Fig. 7 at a time: rh/ret, rh/var, rh/op, rh/nest, rh/pure (rules.go).
package handlers
