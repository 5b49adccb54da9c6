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
//	  (atom TYPE M ...)                     an atom type's literals (true, "abc", 1.5) too
//	  (con NAME ARG ... (bind I J ...) ... [(shape TEMPLATE)]))
//	                                        a constructor: its arguments' sorts, named
//	                                        by a metavariable name (t, x, n); argument I,
//	                                        a variable, binds in arguments J ...; programs
//	                                        write it as TEMPLATE if it has a shape
//	                                        ((λ (x T) e), (e e): shape.go)
//	(kind K V [SORT])                       a context kind, V its values' metavariable;
//	                                        the first kind is the root kind
//	(value K PATTERN)                       a value shape of kind K
//	(frame K PATTERN)                       a frame of K: a pattern with one (hole [KIND])
//	                                        (the hole's kind, K if omitted); the frames'
//	                                        order is the search order
//	(rule NAME K LHS RHS (where C) ...)     a contraction rule of kind K; rules are tried
//	                                        in order, several may share a name
//	(stuck K PATTERN "REASON")              a shape no rule contracts, by design
//	(answer K PATTERN)                      a non-value answer of K (an uncaught raise)
//	(class NAME SORT PATTERN ...)           a named set of terms, a new metavariable name
//	(function NAME (SORT ...) SORT CLAUSE ...) a meta-function, computed within a contraction
//	(hook NAME (SORT ...) SORT)              a meta-function written in Go (Hooks), named
//	(notation CON "LATEX")                  how render typesets a constructor (#1 ... #n)
//	(judgment NAME (SORT ...) (MODE ...)    a judgment, its positions' sorts and modes
//	  (infer RULE (NAME ARG ...) PREMISE ...) ...)  (I, O), its rules (judgment.go)
//
// A metavariable is a declared metavariable name, optionally with a subscript: t,
// t_1, v, n_2, x_f. Left-hand sides are linear (each metavariable once); a value
// metavariable matches only values of its kind. Right-hand sides build terms from
// constructors, bound metavariables, integers, (subst T X V) (capture-avoiding
// T[X := V]) and (prim OP N ...) (δ, an integer). Side conditions are (= A B) and
// (!= A B) (names, integers, or terms up to α-equivalence), (prim OP N ...) (a
// comparison), (fresh X2 X T ...), which binds X2 to X primed until it occurs in
// no T, (step K A B), one step of an inner layer, (match P T), which builds T as a
// right-hand side is built and matches it against the pattern P, binding P's
// metavariables (Redex's where), and (F A ...), a call of a function or hook whose
// result is a boolean atom, which holds when it gives true. Right-hand sides, and the
// integer arguments of prims, may call the file's functions and hooks.
//
// # Hooks
//
// A calculus brings Go to its rule files through Hooks: δ-hooks (Prim: integer
// operations and comparisons, called as (prim OP N ...)) and meta-functions over
// terms (GoFunc, declared in the file by (hook NAME (ARG-SORT ...) RESULT-SORT) and
// called as the file's functions are). DefaultHooks is the δ-table (PrimNames), which
// Load and Parse use; LoadWith takes a calculus's own. A file names every hook it
// uses, and a name the hooks do not hold is a positioned error.
//
// A left-hand side (context REDEX) or (context DELIMITER REDEX) makes a context rule:
// an abort, to the root or to the innermost frame that matches DELIMITER, discarding
// the context in between (never reinstating it, so that every stage, direct style
// included, is derived).
//
// Layers are supported: a rule with a side condition (where (step K A B)) steps an
// inner layer — the term A of kind K (another kind of the file, with its own values,
// frames, rules and answers) takes one contraction of K's rules, decomposed from its
// own root, and B is the term after it (Rule.Layer, CondStep). The contraction is
// reported as Rule/<inner rule> (layers nest: a/b/c); if A does not step, the rule
// does not apply. The cast semantics gradual/rules/{ld,lud,ed,eud}.sem are layered:
// coercion normalisation is the inner layer that StepCst steps.
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
// Lint warns, with a witness, of what is legal but likely a mistake (a rule that can
// never fire, shadowed by an earlier one; a stuck shape that can no longer be
// reached; a right-hand side that may put a variable outside its binder);
// FormatWarnings prints the warnings as the errors are printed.
//
// Render typesets a file as LaTeX (the grammar, the contexts, the rules, the stuck
// shapes), in the notation its (notation ...) declarations give.
//
// Nothing here panics on any input: Parse, Check and ReadTerm return positioned errors
// (interderive.ErrorList).
package sem
