// Package compile is the sixth stage of the derivation: the big-step interpreter
// (package interp) staged. Where interp walks the term at every step, compile walks
// it once, before the run, and turns every subterm into a Go closure (a code) that
// does what interp does for that subterm: closure generation, the first Futamura
// projection by hand. The names are interp's — interp, apply, cast, mkCast, seq,
// normalize — but interp now returns code instead of a value, and what interp looks
// up in the environment at run time (a variable's binding, the shape of an operand,
// whether a position is a tail position, whether the called function is the letrec
// function itself) is looked up once, at compile time.
//
// The stage makes exactly interp's contractions, in interp's order, so that lockstep,
// compare, check and trace hold it to the reference unchanged.
package compile
