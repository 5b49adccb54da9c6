package closures

import (
	"strings"

	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
)

// Sigma is the read-back σ: it turns a closure into a term by substituting the
// environments: e[ρ] reads back as e with the values of its free variables (their
// innermost bindings in ρ) read back and substituted. Closures nest as deep as the run
// made them (a value closed over a value closed over ...), so Sigma keeps the closures
// still to read back in a stack of its own rather than Go's, and reads a closure that
// several environments hold back once.
func Sigma(cl Closure) g.Expr {
	s := sigma{terms: map[Closure]g.Expr{}, fvs: map[g.Expr]map[string]bool{}}
	return s.read(cl)
}

// sigma is Sigma's state: the closures read back so far, and the free variables of
// the terms of their e[ρ].
type sigma struct {
	terms map[Closure]g.Expr
	fvs   map[g.Expr]map[string]bool
}

// binding is a free variable of a term and the closure its innermost binding holds.
type binding struct {
	name string
	cl   Closure
}

// bindings are the innermost bindings in ρ of the free variables of e, but bound.
func (s *sigma) bindings(e g.Expr, rho *Env, bound string) []binding {
	fv, ok := s.fvs[e]
	if !ok {
		fv = g.FreeVars(e)
		s.fvs[e] = fv
	}
	var bs []binding
	seen := map[string]bool{bound: true}
	for ; rho != nil && len(seen) <= len(fv); rho = rho.Next {
		if fv[rho.Name] && !seen[rho.Name] {
			seen[rho.Name] = true
			bs = append(bs, binding{rho.Name, rho.Cl})
		}
	}
	return bs
}

// parts are the closures cl's read-back is made of: its subclosures, and for e[ρ] and
// a let's body the closures bound to the free variables of the term.
func (s *sigma) parts(cl Closure) ([]Closure, []binding) {
	switch cl := cl.(type) {
	case *Clo:
		return nil, s.bindings(cl.E, cl.Env, "")
	case *Prim:
		return cl.Args, nil
	case *If:
		return []Closure{cl.Cond, cl.Then, cl.Else}, nil
	case *App:
		return []Closure{cl.Fun, cl.Arg}, nil
	case *Coerce:
		return []Closure{cl.X}, nil
	case *Let:
		// The body's environment does not bind x, which the let binds.
		return []Closure{cl.Bound}, s.bindings(cl.Body, cl.Env, cl.Name)
	}
	return nil, nil
}

// read reads back root, and first every closure its read-back is made of: depth
// first, each once, with a stack of its own.
func (s *sigma) read(root Closure) g.Expr {
	type frame struct {
		cl       Closure
		kids     []Closure
		bindings []binding
		visited  bool
	}
	stack := []frame{{cl: root}}
	visiting := map[Closure]bool{} // on the stack, waiting for its parts
	push := func(cl Closure) {
		if !visiting[cl] { // (closures hold no cycle; but if one did, it would end here)
			stack = append(stack, frame{cl: cl})
		}
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if _, done := s.terms[top.cl]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.visited {
			top.visited = true
			visiting[top.cl] = true
			top.kids, top.bindings = s.parts(top.cl)
			kids, bindings := top.kids, top.bindings
			for _, c := range kids {
				push(c)
			}
			for _, b := range bindings {
				push(b.cl)
			}
			continue
		}
		s.terms[top.cl] = s.build(top.cl, top.bindings)
		stack = stack[:len(stack)-1]
	}
	return s.terms[root]
}

// build is the read-back of cl, whose parts have been read back.
func (s *sigma) build(cl Closure, bs []binding) g.Expr {
	sub := func(e g.Expr) g.Expr {
		m := make(map[string]g.Expr, len(bs))
		for _, b := range bs {
			m[b.name] = s.terms[b.cl]
		}
		return g.SubstAll(e, m)
	}
	switch cl := cl.(type) {
	case *Clo:
		return sub(cl.E)
	case *Prim:
		if len(cl.Args) == 2 {
			return &g.Binary{P: cl.P, Op: cl.Op, X: s.terms[cl.Args[0]], Y: s.terms[cl.Args[1]]}
		}
		return &g.Unary{P: cl.P, Op: cl.Op, X: s.terms[cl.Args[0]]}
	case *If:
		return &g.If{P: cl.P, Cond: s.terms[cl.Cond], Then: s.terms[cl.Then], Else: s.terms[cl.Else]}
	case *App:
		return &g.App{P: cl.P, Fun: s.terms[cl.Fun], Arg: s.terms[cl.Arg]}
	case *Coerce:
		return &g.Coerce{P: cl.P, C: cl.C, X: s.terms[cl.X]}
	case *Let:
		return &g.Let{P: cl.P, Name: cl.Name, T: cl.T, Bound: s.terms[cl.Bound], Body: sub(cl.Body)}
	}
	return nil
}

// Format shows a closure for a person, as PEPM 2014 writes them: e[ρ], with ρ as
// {x ↦ cl, ...} (innermost binding first) or ε, and composite terms parenthesised.
func Format(cl Closure) string {
	switch cl := cl.(type) {
	case *Clo:
		env := "ε"
		if cl.Env != nil {
			var parts []string
			for rho := cl.Env; rho != nil; rho = rho.Next {
				parts = append(parts, rho.Name+" ↦ "+Format(rho.Cl))
			}
			env = "{" + strings.Join(parts, ", ") + "}"
		}
		switch cl.E.(type) {
		case *g.IntLit, *g.BoolLit, *g.Var, *g.Blame:
			return g.Format(cl.E) + "[" + env + "]"
		}
		return "(" + g.Format(cl.E) + ")[" + env + "]"
	case *Prim:
		args := make([]string, len(cl.Args))
		for i, a := range cl.Args {
			args[i] = Format(a)
		}
		return "prim " + cl.Op.String() + " " + strings.Join(args, " ")
	case *If:
		return "if " + Format(cl.Cond) + " " + Format(cl.Then) + " " + Format(cl.Else)
	case *App:
		return "(" + Format(cl.Fun) + ") · (" + Format(cl.Arg) + ")"
	case *Coerce:
		return "<" + g.FormatCoercion(cl.C) + "> " + Format(cl.X)
	case *Let:
		return "let " + cl.Name + " = " + Format(cl.Bound) + " in " + Format(&Clo{E: cl.Body, Env: cl.Env})
	}
	return "?"
}

// String prints the context with [] for its hole.
func (E Context) String() string {
	s := Format(E.Plug(&Clo{E: &g.Var{Name: contexts.Hole}}))
	return strings.Replace(s, contexts.Hole+"[ε]", contexts.Hole, 1)
}
