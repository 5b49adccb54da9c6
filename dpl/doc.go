// Package dpl is the differentiable programming language of Abadi & Plotkin ("A Simple
// Differentiable Programming Language", POPL 2020; docs/differentiable.md): files *.dpl.
//
// It holds the meta-level pieces every derivation stage shares, and no evaluator:
//
//   - syntax: the lexer and parser of spec §1 with every sugar (grad, fd, let-tuples,
//     n-ary tuples, M * N, M - N, -M, M / N, M <. N, let f(x:T):U = M in N), positioned
//     errors collected go/parser style, and printing in input syntax (Format);
//   - types (real, unit, T * T) and the type checker of Figure 1 (Check), which also
//     elaborates: it fills in the type subscripts of pairs and projections, the types of
//     unannotated lets, and expands fd, which needs the type of its body;
//   - the operators of spec §2, closed under _r (op_r, op_rr, ...), with ev and bev
//     (Ev, Bev): partial functions whose undefinedness is a value of type *Undefined,
//     never NaN or ±Inf;
//   - trace terms, 0_T (Zero), +_T (PlusT), let-tuples (LetTuple), capture-avoiding
//     substitution (Subst), α-equivalence (AlphaEqual) and fresh names (Names) that can
//     never collide with source names;
//   - symbolic reverse-mode differentiation W.R_V(x:T. C) of Figure 6 behind the
//     Differentiator interface, with the strategies figure6, pruned and tape (spec §4);
//   - tape's R fused with the evaluation of its output (Run.EvalDerivative, spec §4):
//     the value of the derivative term, with the contractions its evaluation performs,
//     without the term, for the stages to call where nobody observes the term. It is
//     a meta-level function like R: the evaluation of a let-chain of δ-redexes on
//     values, which every stage performs alike (the same δ, the same events). A
//     stage can also feed it the trace of the rd's body let by let as its symbolic
//     evaluation records it (TapeSink, Run.EvalSunk), so that the trace is not built
//     either.
//
// Names follow the paper: ev, bev, op_r (Operator.R), 0_T, +_T, R.
package dpl
