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

// An AnswerReader is an AnswerMatcher that says why an expectation does not read as
// an answer, so that check names the typo in an expectation rather than reporting
// only a run that did not give it.
type AnswerReader interface {
	ReadAnswer(expected string) error
}

// unreadable is, for a failed expectation of a calculus that reads answers, why the
// expectation does not read as one ("" when it reads, or when the calculus does not
// say, or for an expectation of another form: approximate, a prefix, an error's).
func unreadable(c Calculus, expected string) string {
	r, ok := c.(AnswerReader)
	if !ok || strings.HasPrefix(expected, approxPrefix) || strings.HasSuffix(expected, " *") ||
		strings.HasPrefix(expected, "run-time error") || expected == "out of fuel" || expected == "type error" {
		return ""
	}
	if err := r.ReadAnswer(expected); err != nil {
		return err.Error()
	}
	return ""
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
