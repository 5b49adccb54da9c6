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
