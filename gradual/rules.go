package gradual

import "embed"

// Names of the contractions of the layered reduction semantics of λ⟨·⟩ (spec §4),
// which every stage reports (interderive.Options.OnContract) and every test and corpus
// file names: one per rule of the outer layer. A contraction of the inner layer, one
// step of the coercion under a cast (rule StepCst), is reported as StepCst(rule),
// where rule is the name of the coercion rule (RuleIdL, ..., semantics.go).
const (
	RuleBeta     = "beta"     // (\x:T. e) v -> e[x := v]
	RuleDelta    = "delta"    // op k -> δ(op, k); k1 op k2 -> δ(op, k1, k2)
	RuleIf       = "If"       // if true e1 e2 -> e1; if false e1 e2 -> e2
	RuleStepCst  = "StepCst"  // <c> s -> <c'> s if c ->X c' (reported as StepCst(rule))
	RuleIdCst    = "IdCst"    // <id> v -> v
	RuleCmpCst   = "CmpCst"   // <d> <c̄> s -> <c̄ ; d> s
	RuleAppCst   = "AppCst"   // (<c̃ -> d̃> s) v -> <d̃> (s (<c̃> v))
	RuleFailCst  = "FailCst"  // <fail^l> s -> blame l
	RuleFailFC   = "FailFC"   // <(c̃ -> d̃) ; fail^l> s -> blame l
	RuleBlame    = "Blame"    // E[blame l] -> blame l, E not empty
	RuleLet      = "Let"      // let x:T = v in e -> e[x := v]
	RuleLetrec   = "Letrec"   // letrec f:T = \x:S. e in b -> b[f := \x:S. letrec f:T = \x:S. e in e]
	RuleMergeCst = "MergeCst" // <c> <d> e -> <d ; c> e, <d> e not a value (merging mode, spec §6)
)

// StepCst is the name of the contraction StepCst by the coercion rule rule:
// "StepCst/" + rule. It is a constant for the rules of the four standard semantics,
// so that a stage reporting a coercion step builds no string.
func StepCst(rule string) string {
	switch rule {
	case RuleIdL:
		return "StepCst/IdL"
	case RuleIdR:
		return "StepCst/IdR"
	case RuleInOut:
		return "StepCst/InOut"
	case RuleArr:
		return "StepCst/Arr"
	case RuleFailCo:
		return "StepCst/FailCo"
	case RuleInFail:
		return "StepCst/InFail"
	case RuleArrFail:
		return "StepCst/ArrFail"
	case RuleFailL:
		return "StepCst/FailL"
	case RuleFailR:
		return "StepCst/FailR"
	}
	return RuleStepCst + "/" + rule
}

// RuleFiles are the four standard semantics as rule files (rules/ld.sem, lud.sem,
// ed.sem, eud.sem): the layered reduction semantics of spec §4 with each semantics's
// coercion layer and translation, which the stages derived from rule files run in
// lockstep with the hand-written ones (internal/calculi/gradual).
//
//go:embed rules/*.sem
var RuleFiles embed.FS
