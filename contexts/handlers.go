package contexts

import (
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// The evaluation contexts of the language of reverse handlers (docs/handlers.md;
// the paper's Defs. 5.1 and 5.5), as data:
//
//	F^c ::= [] | let x <= F^c in Q | RH_H^V(<y>. F^c[F^c])
//	F^t ::= F^c[[[]]] | F^c[Op([])] | F^c[rev handle([]) <x>. R with H]
//	E   ::= [] | E + N | V + E | op(E) | let x = E in N | <E, N> | <V, E>
//	      | fst(E) | snd(E) | E.rd[L](x. N) | W.rd[E](x. N)
//
// F^c's RH frame is the administrative RH whose body's hole holds another RH, which
// contracts first (handlers/rh.go). E is the differentiable language's (Diff), with
// the tuple positions the paper's E omits; in rd the cotangent is evaluated before
// the point (Def. 5.1). A configuration decomposes into a command context
// (Handlers), and, for a term redex, the command whose term is the hole
// (HandlersTermFrame) and a term context E.

// HandlersFrame is one layer of a command context F^c.
type HandlersFrame interface {
	// Plug puts c in the frame's hole.
	Plug(c handlers.Cmd) handlers.Cmd
}

type (
	// HandlersLetBound is let x:T <= [] in Q.
	HandlersLetBound struct {
		P    handlers.Pos
		Name string
		T    dpl.Type
		Body handlers.Cmd
	}
	// HandlersRHBody is RH_H^V(<y>. F^c[[]]): an RH whose body's hole holds an RH;
	// Lets is the body's F^c, outermost first.
	HandlersRHBody struct {
		RH   *handlers.RH
		Lets []*handlers.Let
	}
)

func (f *HandlersLetBound) Plug(c handlers.Cmd) handlers.Cmd {
	return &handlers.Let{P: f.P, Name: f.Name, T: f.T, Bound: c, Body: f.Body}
}

func (f *HandlersRHBody) Plug(c handlers.Cmd) handlers.Cmd {
	rh := *f.RH
	rh.Body = handlers.PlugSpine(f.Lets, c)
	return &rh
}

// Handlers is a command context F^c, a list of frames, outermost first.
type Handlers []HandlersFrame

// Plug is F^c[c].
func (F Handlers) Plug(c handlers.Cmd) handlers.Cmd {
	for i := len(F) - 1; i >= 0; i-- {
		c = F[i].Plug(c)
	}
	return c
}

// HandlersTermFrame is the bottom of F^t: a command with a term position as its hole.
type HandlersTermFrame interface {
	// Plug puts m in the frame's hole.
	Plug(m dpl.Term) handlers.Cmd
}

type (
	// HandlersPure is [[]].
	HandlersPure struct{ P handlers.Pos }
	// HandlersOpArg is Op([]).
	HandlersOpArg struct {
		P    handlers.Pos
		Kind handlers.OpKind
		Name string
	}
	// HandlersHandleArg is rev handle([]) <x>. R with H.
	HandlersHandleArg struct {
		P     handlers.Pos
		Vars  []string
		Types []dpl.Type
		Body  handlers.Cmd
		H     *handlers.Handler
	}
)

func (f *HandlersPure) Plug(m dpl.Term) handlers.Cmd { return &handlers.Pure{P: f.P, M: m} }
func (f *HandlersOpArg) Plug(m dpl.Term) handlers.Cmd {
	return &handlers.Perform{P: f.P, Kind: f.Kind, Name: f.Name, Arg: m}
}
func (f *HandlersHandleArg) Plug(m dpl.Term) handlers.Cmd {
	return &handlers.Handle{P: f.P, Arg: m, Vars: f.Vars, Types: f.Types, Body: f.Body, H: f.H}
}

// HandlersTerm is F^t[E]: a command context, the command whose term is the hole, and
// a term context.
type HandlersTerm struct {
	F Handlers
	T HandlersTermFrame
	E Diff
}

// Plug is F^t[E[m]].
func (C HandlersTerm) Plug(m dpl.Term) handlers.Cmd { return C.F.Plug(C.T.Plug(C.E.Plug(m))) }

// String prints F^c with [] for its hole.
func (F Handlers) String() string {
	return handlers.FormatCmd(F.Plug(&handlers.Pure{M: &dpl.Var{Name: Hole}}))
}

// String prints F^t[E] with [] for its hole.
func (C HandlersTerm) String() string {
	return handlers.FormatCmd(C.Plug(&dpl.Var{Name: Hole}))
}
