package dpl

// Names of the contractions every stage of the language reports (spec
// differentiable.md §3), one per redex of ordinary evaluation; symbolic evaluation
// reports Sym + the name (sym/let, sym/call, ...).
const (
	RulePlus   = "plus"
	RuleOp     = "op"
	RuleLet    = "let"
	RuleFst    = "fst"
	RuleSnd    = "snd"
	RuleIf     = "if"
	RuleLetrec = "letrec"
	RuleCall   = "call"
	RuleRd     = "rd"
	RulePred   = "pred"
	Sym        = "sym/"
)

// Symbolic is Sym + rule, the name symbolic evaluation reports for rule: a constant
// for the rules above, so that a stage naming its contractions by mode builds no
// string per contraction.
func Symbolic(rule string) string {
	switch rule {
	case RulePlus:
		return "sym/plus"
	case RuleOp:
		return "sym/op"
	case RuleLet:
		return "sym/let"
	case RuleFst:
		return "sym/fst"
	case RuleSnd:
		return "sym/snd"
	case RuleIf:
		return "sym/if"
	case RuleLetrec:
		return "sym/letrec"
	case RuleCall:
		return "sym/call"
	case RuleRd:
		return "sym/rd"
	case RulePred:
		return "sym/pred"
	}
	return Sym + rule
}
