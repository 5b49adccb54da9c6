package rulescases

// AbortSem is a rule file with aborts to the root and no delimiter: a λ-calculus with
// (halt t), which evaluates t and makes its value the whole program's answer, and
// (restart t), which makes the unevaluated t the whole program. Each is a context
// rule, (context REDEX), for a redex in a non-empty context, and a plain rule for the
// empty one.
const AbortSem = `(language abort)
(sort t (variable x) (integer n)
  (con lam x t (bind 0 1)) (con app t t) (con add t t) (con halt t) (con restart t))
(kind E v)
(value E n)
(value E (lam x t))
(frame E (app (hole) t))
(frame E (app v (hole)))
(frame E (add (hole) t))
(frame E (add v (hole)))
(frame E (halt (hole)))
(rule beta E (app (lam x t) v) (subst t x v))
(rule delta E (add n_1 n_2) (prim add n_1 n_2))
(rule halt E (context (halt v)) v)
(rule halt E (halt v) v)
(rule restart E (context (restart t)) t)
(rule restart E (restart t) t)
(stuck E (app n v) "application of a non-function")
(stuck E (add v_1 v_2) "+ applied to a non-integer")
`

// AbortCases are AbortSem's programs, each derived by hand.
var AbortCases = []Case{
	// 1 + ((\x. halt (x + 1)) 5) -> 1 + halt (5 + 1)   beta
	//                            -> 1 + halt 6         delta, in the frame (halt [])
	//                            -> 6                  halt: (add 1 []) discarded
	{"halt", "(add 1 (app (lam x (halt (add x 1))) 5))", "6", []string{"beta", "delta", "halt"}},
	// halt (2 + 3) -> halt 5 -> 5: the empty context, the plain rule.
	{"halt-at-root", "(halt (add 2 3))", "5", []string{"delta", "halt"}},
	// (halt 1) + (halt 2) -> 1: the right operand is never evaluated.
	{"halt-first", "(add (halt 1) (halt 2))", "1", []string{"halt"}},
	// (\y. y + y) (1 + halt 7) -> 7: the argument's frames and the application's.
	{"halt-in-argument", "(app (lam y (add y y)) (add 1 (halt 7)))", "7", []string{"halt"}},
	// 1 + restart (2 + 3) -> 2 + 3 -> 5: the contractum, not a value, is evaluated
	// at the root.
	{"restart", "(add 1 (restart (add 2 3)))", "5", []string{"restart", "delta"}},
	// restart (1 + restart 5) -> 1 + restart 5   restart, the empty context
	//                         -> 5              restart, an abort
	{"restart-twice", "(restart (add 1 (restart 5)))", "5", []string{"restart", "restart"}},
	// 1 + restart (1 2) -> 1 2: stuck, at the application's place in the source
	// (1:17), which the contractum keeps.
	{"restart-stuck", "(add 1 (restart (app 1 2)))", "run-time error: application of a non-function", []string{"restart"}},
}

// CoinsSem is a rule file with an inner layer: the kind C of coin piles, whose
// contractions an outer rule, count, takes one at a time (where (step C c_1 c_2)),
// reported as count/<the pile's rule>. A pile is a coin, two piles joined, a purse
// around a pile, or a fake coin; a fake coin empties the innermost purse around it
// (a delimited context rule), or, with no purse, the whole pile (an abort to the
// layer's root), or is worth nothing on its own. A pile of coins and joins only (the
// class full) can also be tallied at once, by a function (worth) that makes it a sum;
// any other pile cannot (a stuck shape).
const CoinsSem = `(language coins)
(sort t (integer n) (con add t t) (con cash c) (con tally c))
(sort c (con coin n) (con join c c) (con purse c) (con fake))
(kind E v t)
(kind C w c)
(value E n)
(value C (coin n))
(frame E (add (hole) t))
(frame E (add v (hole)))
(frame C (join (hole) c))
(frame C (join w (hole)))
(frame C (purse (hole)))
(class full c (coin n) (join full_1 full_2))
(function worth (c) t
  ((worth (coin n)) n)
  ((worth (join c_1 c_2)) (add (worth c_1) (worth c_2))))
(rule delta E (add n_1 n_2) (prim add n_1 n_2))
(rule tally E (tally full) (worth full))
(stuck E (tally c) "only coins are tallied")
(rule count E (cash c_1) (cash c_2) (where (step C c_1 c_2)))
(rule cash E (cash (coin n)) n)
(rule merge C (join (coin n_1) (coin n_2)) (coin (prim add n_1 n_2)))
(rule open C (purse w) w)
(rule seize C (context (purse (hole)) (fake)) (coin 0))
(rule seize C (context (fake)) (coin 0))
(rule seize C (fake) (coin 0))
`

// CoinsCases are CoinsSem's programs, each derived by hand.
var CoinsCases = []Case{
	// 1 + cash (2 ⊕ (3 ⊕ 4)): the pile's redex is 3 ⊕ 4, under the frame (join w []).
	//   -> 1 + cash (2 ⊕ 7)   count/merge
	//   -> 1 + cash 9         count/merge
	//   -> 1 + 9              cash (the step condition fails on a coin: count does not apply)
	//   -> 10                 delta
	{"merge", "(add 1 (cash (join (coin 2) (join (coin 3) (coin 4)))))", "10", []string{"count/merge", "count/merge", "cash", "delta"}},
	// cash (5 ⊕ purse (1 ⊕ fake)): fake's context is (join 5 []), (purse []), (join 1 []),
	// innermost last; the innermost purse is replaced by 0:
	//   -> cash (5 ⊕ 0)   count/seize
	//   -> cash 5         count/merge
	//   -> 5              cash
	{"seize-purse", "(cash (join (coin 5) (purse (join (coin 1) (fake)))))", "5", []string{"count/seize", "count/merge", "cash"}},
	// cash (5 ⊕ (1 ⊕ fake)): no purse: the whole pile is replaced by 0.
	{"seize-pile", "(cash (join (coin 5) (join (coin 1) (fake))))", "0", []string{"count/seize", "cash"}},
	// cash (1 ⊕ purse (purse fake)): the innermost purse is emptied, the outer one
	// then opened:
	//   -> cash (1 ⊕ purse 0)   count/seize
	//   -> cash (1 ⊕ 0)         count/open
	//   -> cash 1               count/merge
	//   -> 1                    cash
	{"innermost-purse", "(cash (join (coin 1) (purse (purse (fake)))))", "1", []string{"count/seize", "count/open", "count/merge", "cash"}},
	// cash (purse 3) -> cash 3 -> 3.
	{"open", "(cash (purse (coin 3)))", "3", []string{"count/open", "cash"}},
	// cash fake: in the empty context, the plain rule.
	{"fake", "(cash (fake))", "0", []string{"count/seize", "cash"}},
	// cash (1 ⊕ 1) + cash (purse fake): the outer frames stay around the inner steps.
	//   -> cash 2 + cash (purse fake)   count/merge
	//   -> 2 + cash (purse fake)        cash
	//   -> 2 + cash 0                   count/seize: the purse, the pile's only frame
	//   -> 2 + 0                        cash
	//   -> 2                            delta
	{"two-piles", "(add (cash (join (coin 1) (coin 1))) (cash (purse (fake))))", "2", []string{"count/merge", "cash", "count/seize", "cash", "delta"}},
	// 1 + tally (2 ⊕ (3 ⊕ 4)): a full pile, tallied at once (worth, no contraction of
	// its own) into 2 + (3 + 4):
	//   -> 1 + (2 + (3 + 4))   tally
	//   -> 1 + (2 + 7)         delta
	//   -> 1 + 9               delta
	//   -> 10                  delta
	{"tally", "(add 1 (tally (join (coin 2) (join (coin 3) (coin 4)))))", "10", []string{"tally", "delta", "delta", "delta"}},
	// cash 1 + tally (purse 1) -> 1 + tally (purse 1)   cash; then a purse is not full:
	// the stuck shape.
	{"tally-purse", "(add (cash (coin 1)) (tally (purse (coin 1))))", "run-time error: only coins are tallied", []string{"cash"}},
}
