package semval

import "github.com/interderive/interderive/sem"

// The check that a rule file qualifies for environments is sem's, made once when the
// file is read (sem.Language.NotQualified); these name it for the stages that still
// ask semval.

// Discipline is the discipline the derived stages run l under
// (sem.Language.Discipline).
func Discipline(l *sem.Language) sem.Discipline { return l.Discipline() }

// WhySubstitution says why the stages run l by substitution
// (sem.Language.WhySubstitution).
func WhySubstitution(l *sem.Language) string { return l.WhySubstitution() }
