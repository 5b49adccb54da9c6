package handlers

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// Pos is a source position.
type Pos = interderive.Pos

// Program is decl* P: the operations and heap locations it declares, in declaration
// order, and its command.
type Program struct {
	Ops   []*OpDecl
	Heaps []*HeapDecl
	Body  Cmd
}

// OpDecl is op NAME : Dom -> Cod, an operation symbol: effectful, with no behaviour of
// its own (a handler gives it one).
type OpDecl struct {
	P        Pos
	Name     string
	Dom, Cod dpl.Type
}

// HeapDecl is heap NAME : T = V, a heap location with its initial value (a closed
// value of type T).
type HeapDecl struct {
	P    Pos
	Name string
	T    dpl.Type
	Init dpl.Term
}

// Cmd is a command P of the language (spec §1, the paper's Def. 3.4), or the
// administrative command RH that the reduction of rev handle introduces.
type Cmd interface {
	Pos() Pos
	isCmd()
}

// OpKind tells a user operation from the heap operations of Example 5.13.
type OpKind uint8

// The kinds of operation.
const (
	UserOp OpKind = iota // NAME(M), declared by op NAME : A -> B
	GetOp                // get[NAME](): unit -> T for heap NAME : T
	PutOp                // put[NAME](M): T -> unit
)

type (
	// Pure is [M], a pure term as a command.
	Pure struct {
		P Pos
		M dpl.Term
	}
	// Perform is Op(M): an operation applied to a term. For get[a]() the argument is
	// (); Loc is the location of get and put.
	Perform struct {
		P    Pos
		Kind OpKind
		Name string // the operation (UserOp) or the location (GetOp, PutOp)
		Arg  dpl.Term
	}
	// Let is let x <= P in Q. T is the type of x: nil in source written without it
	// until the type checker fills it in.
	Let struct {
		P     Pos
		Name  string
		T     dpl.Type
		Bound Cmd
		Body  Cmd
	}
	// Handle is rev handle(M) <x1, ..., xn>. R with H. Types are the types of the
	// xi, filled in by the type checker.
	Handle struct {
		P     Pos
		Arg   dpl.Term
		Vars  []string
		Types []dpl.Type
		Body  Cmd
		H     *Handler
	}
	// RH is the administrative command RH_H^V(<y1, ..., ym>. P) of Fig. 7 (spec §3):
	// Vals is the tuple V as its m components (values, possibly with free variables),
	// Vars the ym, which the body binds, Types their types. It contracts one clause of
	// Fig. 7 at a time. It never appears in source.
	RH struct {
		P     Pos
		H     *Handler
		Vals  []dpl.Term
		Vars  []string
		Types []dpl.Type
		Body  Cmd
	}
)

// Handler is { return x -> P ; clause* }: a reverse handler (Def. 3.4). Its clauses are
// closed: only their own binders are in scope. C is the handled type (the return
// clause's), filled in by the type checker.
type Handler struct {
	P       Pos
	RetVar  string
	Ret     Cmd
	Clauses []*Clause
	C       dpl.Type
}

// Clause is NAME(x) -> Qf | y, z -> Qb: the forward and backward clause of one
// operation NAME : A -> B, with D its residual type (the type of the second component
// of Qf's result), filled in by the type checker.
type Clause struct {
	P       Pos
	Op      string
	X       string
	Fwd     Cmd
	Y, Z    string
	Bwd     Cmd
	A, B, D dpl.Type
}

// Clause returns h's clause for the operation op, or nil when h does not mention it
// (the default clause of spec §2 applies: DefaultClause).
func (h *Handler) Clause(op string) *Clause {
	for _, c := range h.Clauses {
		if c.Op == op {
			return c
		}
	}
	return nil
}

func (c *Pure) Pos() Pos    { return c.P }
func (c *Perform) Pos() Pos { return c.P }
func (c *Let) Pos() Pos     { return c.P }
func (c *Handle) Pos() Pos  { return c.P }
func (c *RH) Pos() Pos      { return c.P }

func (*Pure) isCmd()    {}
func (*Perform) isCmd() {}
func (*Let) isCmd()     {}
func (*Handle) isCmd()  {}
func (*RH) isCmd()      {}

// OpName is the name of the operation p performs in the one namespace of operations:
// NAME for a user operation, get[a] and put[a] for the heap's.
func (p *Perform) OpName() string { return OpName(p.Kind, p.Name) }

// OpName is the name of an operation of kind k on name (spec §1): NAME, get[a], put[a].
func OpName(k OpKind, name string) string {
	switch k {
	case GetOp:
		return "get[" + name + "]"
	case PutOp:
		return "put[" + name + "]"
	}
	return name
}

// Signature is an operation's type Op : A -> B.
type Signature struct {
	Kind     OpKind
	Name     string // the operation, or the location of get and put
	Dom, Cod dpl.Type
}

// Signatures returns the operations of p by name (OpName): its declared operations and
// the get and put of every heap location.
func (p *Program) Signatures() map[string]Signature {
	sigs := map[string]Signature{}
	for _, o := range p.Ops {
		sigs[o.Name] = Signature{Kind: UserOp, Name: o.Name, Dom: o.Dom, Cod: o.Cod}
	}
	for _, h := range p.Heaps {
		sigs[OpName(GetOp, h.Name)] = Signature{Kind: GetOp, Name: h.Name, Dom: dpl.Unit, Cod: h.T}
		sigs[OpName(PutOp, h.Name)] = Signature{Kind: PutOp, Name: h.Name, Dom: h.T, Cod: dpl.Unit}
	}
	return sigs
}
