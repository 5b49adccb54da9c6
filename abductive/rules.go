package abductive

// Names of the contractions every stage of the calculus reports (doc.go, "Reduction
// semantics"), one per rule: the contraction events by which the stages are compared
// in lockstep, and the names a corpus file's -- rules: line gives.
const (
	RuleBeta    = "beta"    // (\x:T. e) v, and let x = v in e
	RuleDelta   = "delta"   // an operation on values: v1 op v2
	RuleParam   = "param"   // {r} evaluated to its label
	RuleAbduct  = "abduct"  // (abduct f, p. t) m: decoupling
	RuleIterate = "iterate" // one unfolding of an iterator
)

// Rules lists the rule names, in the order doc.go gives the rules.
func Rules() []string {
	return []string{RuleBeta, RuleDelta, RuleParam, RuleAbduct, RuleIterate}
}
