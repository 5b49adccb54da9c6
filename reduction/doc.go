// Package reduction holds the reduction semantics of the workbench's calculi: the
// reference artefact from which every other stage is derived.
//
// A reduction semantics is a one-step relation defined by three functions, and
// evaluation is their iteration (Danvy, "Defunctionalized interpreters", 2008):
//
//   - decompose a term into an evaluation context and a redex (or find it is an answer),
//   - contract the redex,
//   - plug the contractum back into the context;
//
// every step starts again from the root of the whole term. That makes evaluation
// quadratic in the number of contractions: it is the cost that refocusing removes in
// the machine stage, and this package keeps it on purpose.
package reduction
