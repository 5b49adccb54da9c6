package lambda

// Names of the contractions every stage of the calculus reports (doc.go, "Reduction
// semantics"), one per rule: the contraction events by which the stages are compared
// in lockstep, and the names a corpus file's -- rules: line gives.
const (
	RuleBeta   = "beta"
	RuleDelta  = "delta"
	RuleIf0    = "if0"
	RuleLet    = "let"
	RuleLetrec = "letrec"
)

// Rules lists the rule names, in the order doc.go gives the rules.
func Rules() []string {
	return []string{RuleBeta, RuleDelta, RuleIf0, RuleLet, RuleLetrec}
}
