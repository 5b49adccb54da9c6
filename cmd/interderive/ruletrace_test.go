package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// isvarRules is a rule file that does not qualify for environments: its rule isvar
// matches a variable occurrence, (isvar x), at line 10, column 22, in a term
// position; the machine runs it by substitution.
const isvarRules = `(language var)
(sort t (variable x) (integer n) (con lam x t (bind 0 1)) (con app t t) (con isvar t))
(kind E v)
(value E n)
(value E (lam x t))
(frame E (app (hole) t))
(frame E (app v (hole)))
(frame E (isvar (hole)))
(rule beta E (app (lam x t) v) (subst t x v))
(rule isvar E (isvar x) 1)
(rule isvar E (isvar n) 0)
(rule isvar E (isvar (lam x t)) 0)
(stuck E (app n v) "application of a non-function")
`

// TestRuleFileTraceEnvironments: the traces of a rule file on the stages over
// environments show the closures as the stages hold them, t[ρ], their environments
// named (ρN = (x ↦ cl) : ρM, each defined before the line that first shows it; (x ↦ ·)
// a binder's variable not substituted yet; ε the empty environment), as derive says
// the closures and the machine carry them; a file that does not qualify for
// environments runs on the machine by substitution, which the trace says once, its
// states terms.
//
// The expected traces are derived by hand from cbv.sem and the stages' definitions
// (closures/rules.go, machine/rules.go) for let x = 5 in (\y:Int. x + y) 2, three
// contractions (the type Int rides along in the λ, a closure never expanded here).
// The calculus of closures:
//
//  1. let: the let node expanded, its body under ρ1 = (x ↦ ·) : ε (the binder x), the
//     literal 5 closed, its own closure (sem.Leaf); (let x v t) -> (subst t x v) fills
//     x's entry: the body under ρ2 = (x ↦ 5) : ε.
//  2. beta: the application, expanded under ρ2, its function and argument values (the
//     λ's closure, the literal 2); the function's body (add x y) under (y ↦ ·) : ρ2
//     (never shown), y's entry filled: ρ3 = (y ↦ 2) : ρ2.
//  3. delta: (add x y)[ρ3] expanded, its children x and y looked up as it is (an
//     expansion looks up a variable child at once, sem.expand): x through ρ3 to ρ2's
//     5, y to 2; 5 + 2 = 7, a constant, its own closure.
//
// The machine enters no frame whose hole holds a value, and every hole here holds
// one (5; the λ and 2; x and y, which look up to 5 and 2): each
// contraction is made from the one state eval of its redex, in the empty stack, and
// an environment is named when a state first shows it (ρ1 the let's body's, ρ2 the
// λ's body's).
func TestRuleFileTraceEnvironments(t *testing.T) {
	cbv := filepath.Join("..", "..", "testdata", "rules", "cbv.sem")
	prog := write(t, "capture.term", "(let x 5 (app (lam y Int (add x y)) 2))\n")
	head := func(stage string) string {
		return "language cbv (" + cbv + "), stage " + stage + "\nprogram    (let x 5 (app (lam y Int (add x y)) 2))\n\n"
	}
	closures := head("closures") + `contraction 1: let
  ρ1 = (x ↦ ·) : ε
  expand:    (let x 5 (app (lam y Int (add x y)) 2))[ε]  ~>  (let x 5 (app (lam y Int (add x y)) 2)[ρ1])
  decompose: []  with redex  (let x 5 (app (lam y Int (add x y)) 2)[ρ1])  of kind E
  ρ2 = (x ↦ 5) : ε
  contract:  (app (lam y Int (add x y)) 2)[ρ2]
  plug:      (app (lam y Int (add x y)) 2)[ρ2]

contraction 2: beta
  expand:    (app (lam y Int (add x y)) 2)[ρ2]  ~>  (app (lam y Int (add x y))[ρ2] 2)
  decompose: []  with redex  (app (lam y Int (add x y))[ρ2] 2)  of kind E
  ρ3 = (y ↦ 2) : ρ2
  contract:  (add x y)[ρ3]
  plug:      (add x y)[ρ3]

contraction 3: delta
  expand:    (add x y)[ρ3]  ~>  (add 5 2)
  decompose: []  with redex  (add 5 2)  of kind E
  contract:  7
  plug:      7


answer     7
`
	machine := head("machine") + `contraction 1: let
  eval       (let x 5 (app (lam y Int (add x y)) 2))[ε]  in E
             K=[]

contraction 2: beta
  ρ1 = (x ↦ 5) : ε
  eval       (app (lam y Int (add x y)) 2)[ρ1]  in E
             K=[]

contraction 3: delta
  ρ2 = (y ↦ 2) : ρ1
  eval       (add x y)[ρ2]  in E
             K=[]

after the last contraction
  eval       7  in E
             K=[]
  continue   7
             K=[]

answer     7
`
	// A file whose rule isvar matches a variable occurrence, (isvar x), does not
	// qualify for environments. (\y. isvar 3) ((\x. x) 2), by hand: the argument's
	// frame entered (the function is a value, its frame passed over), its beta in
	// place, 2 returned to it; the outer beta; then isvar 3 -> 0 (3 an integer, not a
	// variable), isvar's frame passed over.
	dir := writeFiles(t, map[string]string{
		"var.sem": isvarRules,
		"p.term":  "(app (lam y (isvar 3)) (app (lam x x) 2))\n",
	})
	varSem := filepath.Join(dir, "var.sem")
	substitution := "language var (" + varSem + "), stage machine\nprogram    (app (lam y (isvar 3)) (app (lam x x) 2))\n\n" + `contraction 1: beta
  no environments: the pattern of rule isvar matches a variable occurrence (x, at ` + varSem + `:10:22) in a term position, where the stages over environments look variables up (docs/rules.md); the machine runs this file by substitution, and its states are terms
  eval       (app (lam y (isvar 3)) (app (lam x x) 2))  in E
             K=[]
  eval       (app (lam x x) 2)  in E
             K=[(app (lam y (isvar 3)) [])]

contraction 2: beta
  eval       2  in E
             K=[(app (lam y (isvar 3)) [])]
  continue   2
             K=[(app (lam y (isvar 3)) [])]

contraction 3: isvar
  eval       (isvar 3)  in E
             K=[]

after the last contraction
  eval       0  in E
             K=[]
  continue   0
             K=[]

answer     0
`
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"closures", []string{"trace", "--stage", "closures", "--rules", cbv, prog}, closures},
		{"machine", []string{"trace", "--stage", "machine", "--rules", cbv, prog}, machine},
		{"substitution", []string{"trace", "--stage", "machine", "--rules", varSem, filepath.Join(dir, "p.term")}, substitution},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCmd(tc.args...)
			if code != 0 || stdout != tc.want {
				t.Errorf("exit %d%s\n%s\nwant\n%s", code, stderr, stdout, tc.want)
				got, want := strings.Split(stdout, "\n"), strings.Split(tc.want, "\n")
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Errorf("first difference, line %d:\n%q\n%q", i+1, got[i], want[i])
						break
					}
				}
			}
		})
	}
}
