package workbench

import "strings"

// An AnswerMatcher is a calculus that reads an expected answer in its own syntax and
// compares it with a run's answer as it compares answers (Calculus.Equal): a
// rule-defined calculus reads the expectation as a term and compares up to
// α-equivalence, so that "-- expect: (lambda t (lambda f t))" holds of the answer
// (lambda t1 (lambda f2 t1)), as compare and the lockstep find the two equal.
// MatchesAnswer reports whether the outcome's answer is the expected one; false when
// the expectation does not read as an answer.
type AnswerMatcher interface {
	MatchesAnswer(expected string, got Outcome) bool
}

// MatchesIn reports whether a run of c that ended with an answer (out, printed as
// got) satisfies an expectation: Matches (the same text, a prefix, numbers within a
// tolerance), or an expectation c reads as an answer equal to it (AnswerMatcher).
func MatchesIn(c Calculus, expected, got string, out Outcome) bool {
	if Matches(expected, got) {
		return true
	}
	m, ok := c.(AnswerMatcher)
	if !ok || strings.HasPrefix(expected, approxPrefix) || strings.HasSuffix(expected, " *") {
		return false
	}
	return m.MatchesAnswer(expected, out)
}
