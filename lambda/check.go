package lambda

import (
	"github.com/interderive/interderive"
)

// TypeOf is the type of a closed term (doc.go, "Typing"). A term that has none is a
// static error at the position of the subterm at fault: an interderive.ErrorList of
// one error.
func TypeOf(e Expr) (Type, error) {
	c := checker{scope: map[string][]Type{}}
	return c.typeOf(e)
}

// checker holds Γ: for each name, the types of its bindings in scope, innermost last.
type checker struct{ scope map[string][]Type }

func (c *checker) bind(x string, t Type) { c.scope[x] = append(c.scope[x], t) }

func (c *checker) unbind(x string) {
	if ts := c.scope[x]; len(ts) > 1 {
		c.scope[x] = ts[:len(ts)-1]
	} else {
		delete(c.scope, x)
	}
}

func typeErr(p Pos, format string, args ...any) error {
	return interderive.ErrorList{interderive.Errorf(p, format, args...)}
}

func (c *checker) typeOf(e Expr) (Type, error) {
	switch e := e.(type) {
	case *IntLit:
		return Int, nil
	case *Var:
		ts := c.scope[e.Name]
		if len(ts) == 0 {
			return nil, typeErr(e.P, "unbound variable %s", e.Name)
		}
		return ts[len(ts)-1], nil
	case *Lam:
		c.bind(e.Param, e.T)
		body, err := c.typeOf(e.Body)
		c.unbind(e.Param)
		if err != nil {
			return nil, err
		}
		return Fn(e.T, body), nil
	case *App:
		f, err := c.typeOf(e.Fun)
		if err != nil {
			return nil, err
		}
		a, err := c.typeOf(e.Arg)
		if err != nil {
			return nil, err
		}
		arrow, ok := f.(*Arrow)
		if !ok {
			return nil, typeErr(e.Fun.Pos(), "applied, but of type %s, not a function", FormatType(f))
		}
		if !Equal(arrow.From, a) {
			return nil, typeErr(e.Arg.Pos(), "the argument has type %s, but the function takes %s", FormatType(a), FormatType(arrow.From))
		}
		return arrow.To, nil
	case *Binary:
		for _, x := range []Expr{e.X, e.Y} {
			t, err := c.typeOf(x)
			if err != nil {
				return nil, err
			}
			if !Equal(t, Int) {
				return nil, typeErr(x.Pos(), "an operand of %s has type %s, not Int", e.Op, FormatType(t))
			}
		}
		return Int, nil
	case *If0:
		t, err := c.typeOf(e.Cond)
		if err != nil {
			return nil, err
		}
		if !Equal(t, Int) {
			return nil, typeErr(e.Cond.Pos(), "the condition of if0 has type %s, not Int", FormatType(t))
		}
		th, err := c.typeOf(e.Then)
		if err != nil {
			return nil, err
		}
		el, err := c.typeOf(e.Else)
		if err != nil {
			return nil, err
		}
		if !Equal(th, el) {
			return nil, typeErr(e.Else.Pos(), "the branches of if0 differ: %s and %s", FormatType(th), FormatType(el))
		}
		return th, nil
	case *Let:
		b, err := c.typeOf(e.Bound)
		if err != nil {
			return nil, err
		}
		c.bind(e.Name, b)
		t, err := c.typeOf(e.Body)
		c.unbind(e.Name)
		return t, err
	case *Letrec:
		return c.letrec(e)
	}
	return nil, typeErr(Pos{}, "not a term: %T", e)
}

// letrec types letrec f:T = \x:S. e in b: T must be S -> U with e : U, under f:T and
// x:S (x hiding f when they are one name).
func (c *checker) letrec(e *Letrec) (Type, error) {
	arrow, ok := e.T.(*Arrow)
	if !ok {
		return nil, typeErr(e.P, "%s is declared %s, not a function type", e.Name, FormatType(e.T))
	}
	if !Equal(arrow.From, e.Fun.T) {
		return nil, typeErr(e.Fun.P, "%s is declared %s, but its parameter has type %s", e.Name, FormatType(e.T), FormatType(e.Fun.T))
	}
	c.bind(e.Name, e.T)
	defer c.unbind(e.Name)
	c.bind(e.Fun.Param, e.Fun.T)
	body, err := c.typeOf(e.Fun.Body)
	c.unbind(e.Fun.Param)
	if err != nil {
		return nil, err
	}
	if !Equal(body, arrow.To) {
		return nil, typeErr(e.Fun.Body.Pos(), "%s is declared %s, but its body has type %s", e.Name, FormatType(e.T), FormatType(body))
	}
	return c.typeOf(e.Body)
}
