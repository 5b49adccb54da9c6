package handlersgen

import (
	"fmt"
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// SmoothOp is an operation of the smooth programs with its reverse derivative,
// written by hand: the forward clause computes Fwd (a term in x) and keeps its input as
// the residual, the backward clause returns Bwd (a term in y, the cotangent, and z,
// the residual input): y · Fwd'(z).
type SmoothOp struct {
	Fwd, Bwd string
}

// SmoothOps are the operations the smooth programs perform, each smooth on the reals,
// with their derivatives (sigm' = sigm (1 - sigm); swish_r and sigm_r take <point,
// cotangent>, handlers/sugar.go).
var SmoothOps = []SmoothOp{
	{Fwd: "sin(x)", Bwd: "y * cos(z)"},
	{Fwd: "cos(x)", Bwd: "y * neg(sin(z))"},
	{Fwd: "x * x", Bwd: "y * (z + z)"},
	{Fwd: "swish(x)", Bwd: "swish_r(<z, y>)"},
	{Fwd: "sigm(x)", Bwd: "sigm_r(<z, y>)"},
	{Fwd: "0.5 * x + 1", Bwd: "0.5 * y"},
	{Fwd: "exp(sin(x))", Bwd: "y * (exp(sin(z)) * cos(z))"},
}

// SmoothHeap is the heap location the smooth programs declare, which some forward
// clauses read and none writes, and its initial value.
const SmoothHeap, SmoothHeapInit = "c", "0.25"

// Smooth is a smooth body handled by a handler whose backward clauses are the reverse
// derivatives of its forward clauses (the reverse-handler theorem's premise), and the
// same body as a term N over the input variables.
type Smooth struct {
	// Handled is the program rev handle(V) <x1, ..., xn>. R with H, whose return clause
	// gives the output cotangent Cot.
	Handled string
	// Term is N, the body with every operation replaced by its forward term, over the
	// input variables x1, ..., xn.
	Term string
	// Point is V, Cot the output cotangent.
	Point []float64
	Cot   float64
}

// Vars is the input variables x1, ..., xn.
func (s Smooth) Vars() []string {
	xs := make([]string, len(s.Point))
	for i := range xs {
		xs[i] = "x" + strconv.Itoa(i+1)
	}
	return xs
}

// Decls is the programs' declarations: the operations f1, ..., f7 (one per SmoothOps
// entry) and the heap location.
func (s Smooth) Decls() string {
	var b strings.Builder
	for i := range SmoothOps {
		fmt.Fprintf(&b, "op f%d : real -> real\n", i+1)
	}
	fmt.Fprintf(&b, "heap %s : real = %s\n", SmoothHeap, SmoothHeapInit)
	return b.String()
}

// Real prints a real so that the language reads it back exactly.
func Real(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

// tuple is <a1, ..., an>, or a1 alone.
func tuple(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return "<" + strings.Join(xs, ", ") + ">"
}

// point is V as a value.
func (s Smooth) point(v []float64) string {
	xs := make([]string, len(v))
	for i, r := range v {
		xs[i] = Real(r)
	}
	return tuple(xs)
}

// RdProgram is the term-level gradient of the body: [Cot.rd[V](p:T. N)], with the
// input variables bound to the components of p.
func (s Smooth) RdProgram() string {
	xs := s.Vars()
	var body string
	if len(xs) == 1 {
		body = "x1:real. " + s.Term
	} else {
		typed := make([]string, len(xs))
		for i, x := range xs {
			typed[i] = x + ":real"
		}
		body = "p:" + strings.Repeat("real * ", len(xs)-1) + "real. let " + tuple(typed) + " = p in " + s.Term
	}
	return s.Decls() + "[(" + Real(s.Cot) + ").rd[" + s.point(s.Point) + "](" + body + ")]\n"
}

// ForwardProgram is the body as a term at the point v: [let <x1, ..., xn> = v in N].
func (s Smooth) ForwardProgram(v []float64) string {
	xs := s.Vars()
	for i, x := range xs {
		xs[i] = x + ":real"
	}
	return s.Decls() + "[let " + tuple(xs) + " = " + s.point(v) + " in " + s.Term + "]\n"
}

// smoothPoints are the coordinates of the points: within [-2, 2], where no operation
// of SmoothOps takes a chain of them far.
var smoothPoints = []float64{-1.5, -0.75, -0.25, 0.3, 0.5, 1, 1.25, 2}

// DrawSmooth draws a smooth program of about steps steps (1 + size at most): each
// step is an operation on a variable or on a term of the variables so far (rh/op,
// rh/pure), or a term of them (rh/pure, rh/var), over one or two input variables.
func DrawSmooth(t *rapid.T, size int) Smooth {
	n := rapid.IntRange(1, 2).Draw(t, "inputs")
	s := Smooth{Cot: rapid.SampledFrom([]float64{1, 0.5, -2, 3}).Draw(t, "cotangent")}
	for range n {
		s.Point = append(s.Point, rapid.SampledFrom(smoothPoints).Draw(t, "coordinate"))
	}
	env := s.Vars()
	steps := rapid.IntRange(1, 1+max(size, 1)).Draw(t, "steps")
	var handled, term strings.Builder
	used := make([]bool, len(SmoothOps))
	reads := make([]bool, len(SmoothOps))
	// arg is a variable, or now and then a term of the variables.
	arg := func() string {
		v := rapid.SampledFrom(env).Draw(t, "var")
		switch rapid.IntRange(0, 3).Draw(t, "arg") {
		case 0:
			return "(" + v + " + " + rapid.SampledFrom(env).Draw(t, "var") + ")"
		case 1:
			return "(" + v + " * " + rapid.SampledFrom(env).Draw(t, "var") + ")"
		}
		return v
	}
	for i := range steps {
		h := "h" + strconv.Itoa(i+1)
		last := i == steps-1
		if rapid.IntRange(0, 2).Draw(t, "step") > 0 {
			k := rapid.IntRange(0, len(SmoothOps)-1).Draw(t, "op")
			used[k] = true
			reads[k] = reads[k] || rapid.Bool().Draw(t, "reads")
			a := arg()
			if last {
				fmt.Fprintf(&handled, "f%d(%s)", k+1, a)
				fmt.Fprintf(&term, "(let x = %s in %s)", a, SmoothOps[k].Fwd)
				break
			}
			fmt.Fprintf(&handled, "let %s <= f%d(%s) in ", h, k+1, a)
			fmt.Fprintf(&term, "let %s = (let x = %s in %s) in ", h, a, SmoothOps[k].Fwd)
		} else {
			m := arg()
			if last {
				fmt.Fprintf(&handled, "[%s]", m)
				term.WriteString(m)
				break
			}
			fmt.Fprintf(&handled, "let %s <= [%s] in ", h, m)
			fmt.Fprintf(&term, "let %s = %s in ", h, m)
		}
		env = append(env, h)
	}
	s.Term = term.String()
	var hb strings.Builder
	fmt.Fprintf(&hb, "{ return o -> [%s]", Real(s.Cot))
	for k, op := range SmoothOps {
		if !used[k] {
			continue
		}
		fwd := "[<" + op.Fwd + ", x>]"
		if reads[k] {
			fwd = "let r <= get[" + SmoothHeap + "]() in " + fwd
		}
		fmt.Fprintf(&hb, "\n  ; f%d(x) -> %s | y, z -> [%s]", k+1, fwd, op.Bwd)
	}
	hb.WriteString(" }")
	s.Handled = s.Decls() + "rev handle(" + s.point(s.Point) + ") " + "<" + strings.Join(s.Vars(), ", ") + ">. " +
		handled.String() + "\nwith " + hb.String() + "\n"
	return s
}
