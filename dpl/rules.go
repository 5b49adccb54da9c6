package dpl

// Names of the contractions every stage of the language reports (Abadi &
// Plotkin §3), one per redex of ordinary evaluation; symbolic evaluation
// reports Sym + the name (SymLet, SymCall, ...).
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

// The names symbolic evaluation reports for the rules above.
const (
	SymPlus   = Sym + RulePlus
	SymOp     = Sym + RuleOp
	SymLet    = Sym + RuleLet
	SymFst    = Sym + RuleFst
	SymSnd    = Sym + RuleSnd
	SymIf     = Sym + RuleIf
	SymLetrec = Sym + RuleLetrec
	SymCall   = Sym + RuleCall
	SymRd     = Sym + RuleRd
	SymPred   = Sym + RulePred
)

// SymbolicRule is Sym + rule, the name symbolic evaluation reports for rule: a
// constant for the rules above, so that a stage naming its contractions by mode builds
// no string per contraction.
func SymbolicRule(rule string) string {
	switch rule {
	case RulePlus:
		return SymPlus
	case RuleOp:
		return SymOp
	case RuleLet:
		return SymLet
	case RuleFst:
		return SymFst
	case RuleSnd:
		return SymSnd
	case RuleIf:
		return SymIf
	case RuleLetrec:
		return SymLetrec
	case RuleCall:
		return SymCall
	case RuleRd:
		return SymRd
	case RulePred:
		return SymPred
	}
	return Sym + rule
}

// Mode tells the language's two judgements apart: ordinary evaluation φ | ρ ⊢ M ⇒ V
// (Figures 2 and 3) and symbolic evaluation φ | ρ ⊢ M ⇝ C (Figures 4 and 5), which
// builds a trace term. Every stage evaluates in one mode at a time: the mode of its
// current layer (a nested symbolic evaluation for rd's premise and Figure 5's R ⇝ C,
// an ordinary one for Figure 5's C ⇒ V).
type Mode uint8

const (
	// Ordinary is ordinary evaluation, ⇒.
	Ordinary Mode = iota
	// Symbolic is symbolic evaluation, ⇝.
	Symbolic
)

// String is the mode's name: ordinary or symbolic.
func (m Mode) String() string {
	if m == Symbolic {
		return "symbolic"
	}
	return "ordinary"
}

// Rule is the name under which a contraction of rule is reported in mode m: rule
// itself under ordinary evaluation, SymbolicRule(rule) under symbolic evaluation.
func (m Mode) Rule(rule string) string {
	if m == Symbolic {
		return SymbolicRule(rule)
	}
	return rule
}
