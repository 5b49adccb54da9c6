// Package cps2 holds the two-level CPS evaluators of the workbench's calculi (Danvy,
// Millikin & Munk 2013; García-Pérez, Nogueira & Sergey 2014): evaluators in
// continuation-passing style with two layers of continuations — the inner one for the
// current layer (the cast calculus's coercion normalisation), the outer one, the
// meta-continuation, for the terms around it. They are the machines' two stacks,
// refunctionalized.
//
// Go does not eliminate tail calls, so the evaluators are trampolined: a function
// that would call a continuation returns a step (a thunk) to a driver loop instead,
// and long runs do not grow the Go stack.
package cps2
