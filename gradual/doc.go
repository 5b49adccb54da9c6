// Package gradual is the gradually-typed lambda calculus of the workbench: the source
// language GTLC (files *.gtlc) and the cast calculus λ⟨·⟩ (files *.cast), with their
// types, consistency and meet, type checking with cast insertion, coercions and their
// typing, and the four cast semantics LD, LUD, ED and EUD of Siek, Garcia & Taha (2009).
//
// A cast semantics is a value of the Semantics interface: a translation of type-based
// casts into coercions, the coercion reduction rules, and the composition seq of normal
// forms. The stage packages (reduction, ...) are parametric in it, so a new semantics
// touches no stage.
//
// The package holds only meta-level pieces that every stage shares: syntax, typing,
// δ, substitution, coercion translation, one-step coercion reduction and seq. No
// evaluator lives here.
package gradual
