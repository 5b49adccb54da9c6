package handlers

import "github.com/interderive/interderive/dpl"

// Names of the contractions every stage reports (doc.go, "Reduction semantics"), one
// per rule: the contraction events by which the stages are compared in lockstep, and
// the names a corpus file's -- rules: line gives.
const (
	// The term rules of Def. 5.4, named as the differentiable language names them.
	RulePlus = dpl.RulePlus // c1 + c2 -> c1 +_β c2
	RuleOp   = dpl.RuleOp   // f(V) -> Ev(f, V)
	RuleLet  = dpl.RuleLet  // let x = V in M -> M[V/x]
	RuleFst  = dpl.RuleFst  // fst(<V, W>) -> V
	RuleSnd  = dpl.RuleSnd  // snd(<V, W>) -> W
	RuleRd   = dpl.RuleRd   // W.rd[V](x:T. N) -> W.R_V(x:T. N)

	// The command rules of Def. 5.10 and Example 5.13.
	RuleCLet   = "cmd/let"    // let x <= [V] in Q -> Q[V/x]
	RuleHandle = "cmd/handle" // rev handle(V) <x>. R with H -> RH_H^V(<x>. R)
	RuleGet    = "heap/get"   // (hp, get[a]()) -> (hp, [hp(a)])
	RulePut    = "heap/put"   // (hp, put[a](V)) -> (hp[a ↦ V], [()])

	// The clauses of Fig. 7, one contraction each (spec §3).
	RuleRHRet  = "rh/ret"  // RH^V(<y>. [y_k])
	RuleRHVar  = "rh/var"  // RH^V(<y>. F^c[let x <= [y_j] in R])
	RuleRHOp   = "rh/op"   // RH^V(<y>. F^c[Op(y_i)])
	RuleRHNest = "rh/nest" // RH^V(<y>. F^c[rev handle(y_j) <z>. R with H'])
	RuleRHPure = "rh/pure" // RH^V(<y>. F^t[M]), M not a variable
)

// Rules lists the rule names, in the order doc.go gives the rules.
func Rules() []string {
	return []string{RulePlus, RuleOp, RuleLet, RuleFst, RuleSnd, RuleRd,
		RuleCLet, RuleHandle, RuleGet, RulePut,
		RuleRHRet, RuleRHVar, RuleRHOp, RuleRHNest, RuleRHPure}
}
