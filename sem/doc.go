// Package sem is the rule language: a calculus defined as data (a rule file, *.sem),
// from which the stages derive their artefacts mechanically, after Generalized
// Refocusing (Biernacka, Charatonik & Zielińska, FSCD 2017): context kinds, their
// values, their elementary contexts (frames) in search order, and contraction rules.
// docs/rules.md documents the format with testdata/rules/cbv.sem as its example.
//
// # A rule file
//
// A file is a list of s-expressions (comments run from ; to the end of the line):
//
//	(language NAME)
//	(sort T META ...                        a term sort, its metavariable names
//	  (variable X ...)                      variables are terms of it; their metavariables
//	  (integer N ...)                       integer literals are terms of it; theirs
//	  (con NAME ARG ... (bind I J ...) ...)) a constructor: its arguments' sorts, named
//	                                        by a metavariable name (t, x, n); argument I,
//	                                        a variable, binds in arguments J ...
//	(kind K V [SORT])                       a context kind, V its values' metavariable;
//	                                        the first kind is the root kind
//	(value K PATTERN)                       a value shape of kind K
//	(frame K PATTERN)                       a frame of K: a pattern with one (hole [KIND])
//	                                        (the hole's kind, K if omitted); the frames'
//	                                        order is the search order
//	(rule NAME K LHS RHS (where C) ...)     a contraction rule of kind K; rules are tried
//	                                        in order, several may share a name
//	(stuck K PATTERN "REASON")              a shape no rule contracts, by design
//
// A metavariable is a declared metavariable name, optionally with a subscript: t,
// t_1, v, n_2, x_f. Left-hand sides are linear (each metavariable once); a value
// metavariable matches only values of its kind. Right-hand sides build terms from
// constructors, bound metavariables, integers, (subst T X V) (capture-avoiding
// T[X := V]) and (prim OP N ...) (δ, an integer). Side conditions are (= A B) and
// (!= A B) (names, integers, or terms up to α-equivalence), (prim OP N ...) (a
// comparison), and (fresh X2 X T ...), which binds X2 to X primed until it occurs in
// no T. The δ-hooks are a fixed table (PrimNames).
//
// Layers (an inner calculus stepped by a rule, reported as Rule/<inner rule>) are in
// the data model (Layer, Rule.Layer) but not implemented: a (layer ...) is refused.
//
// # Programs
//
// A program of a rule-defined calculus is one s-expression of its first sort
// (ReadTerm): an integer, a variable, or (CON ARG ...); it must be closed.
//
// # Meta-level pieces
//
// Match, Instantiate, Conditions, Subst (capture-avoiding on the declared binders,
// renaming a capturing binder to its name primed), FreeVars, FreshName, AlphaEqual,
// IsValue: what every derived stage shares, as the hand-written calculi share their
// meta.go. The decomposition tables (each kind's values, frames, rules and stuck
// shapes indexed by their root constructor, Kind.Lookup) are built by Parse;
// FormatTables prints them. FindFrame and Contract are the elementary decomposition
// and the contraction every derived stage drives.
//
// # Static checks
//
// Check decides, on a bounded exhaustive enumeration of closed terms, what
// Generalized Refocusing leaves to proofs: values and redexes are disjoint, frames do
// not overlap (decomposition is unique), the frames are in search order, and every
// non-value decomposes. Each violation is a positioned error with a witness term.
//
// Nothing here panics on any input: Parse, Check and ReadTerm return positioned errors
// (interderive.ErrorList).
package sem
