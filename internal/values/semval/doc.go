// Package semval holds what the derived stages of a rule-defined calculus (sem) need
// of the environment discipline beside sem's engine: the printer of the terms of a
// trace, closures t[ρ] with their environments named (Printer).
//
// Whether a rule file qualifies for environments is sem's check
// (sem.Language.NotQualified), made once when the file is read: a file qualifies when
// no pattern (value, frame, rule, stuck shape, answer, delimiter, class alternative)
// matches a variable occurrence in a term position: variables are looked up, never
// matched. cbv.sem, cbn.sem and cbn-strict.sem qualify. The derived stages run a file
// that qualifies under environments (sem.Environments), and any other by substitution
// (sem.Substitution).
package semval
