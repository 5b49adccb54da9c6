package gradual

import "github.com/interderive/interderive"

// MaxNesting is the deepest nesting of a term that Parse accepts: of parentheses,
// prefix operators, binders, types and coercions in the source, and of the syntax tree
// (where a long left-associative chain, f x1 ... xn or 1 + ... + 1, nests without
// parentheses). A let's body does not nest: it is at the let's depth (Depth), and
// every function over terms loops along a chain of lets instead of recursing into
// the body, so that a let-chain as long as a generated straight-line program takes no
// stack, and its length is bounded only by the size of the source.
//
// It is derived from the Go stack (interderive.StackLimit, 512 MiB on 64-bit
// platforms): every recursion over a term that the parser accepted — parsing itself,
// cast insertion and type checking, Translate, Subst, AlphaEqual, Format, read-back,
// and the stages' recursion over the term — takes at most NestingFrame bytes of stack
// per level of nesting (TestStackPerLevel measures each one at depth), and the
// deepest of them at MaxNesting levels takes at most half of StackLimit, which leaves
// the other half for what runs below and above it (the command, a stage's own
// recursion at run time). So 2^29 / 2 / 4096 = 65,536 levels on 64-bit platforms
// (16,384 on 32-bit ones).
const MaxNesting = interderive.StackLimit / 2 / NestingFrame

// NestingFrame is the bound, in bytes, on the Go stack that one level of nesting takes
// in any recursion over a term (see MaxNesting).
const NestingFrame = 4096

// Depth is the nesting depth of e, where a let's body is at the let's depth: a leaf
// has depth 1, a let depth max(1 + the depth of its bound term, the depth of its
// body), any other node 1 + the largest depth of its children. So a let-chain of any
// length whose bound terms are leaves has depth 2. Depth uses no recursion, so that it
// can measure terms of any depth.
func Depth(e Expr) int {
	type item struct {
		e Expr
		d int
	}
	deepest := 0
	stack := []item{{e, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if isNilExpr(it.e) {
			continue
		}
		deepest = max(deepest, it.d)
		if l, ok := it.e.(*Let); ok { // the body waits under the bound, at the let's depth
			stack = append(stack, item{l.Body, it.d}, item{l.Bound, it.d + 1})
			continue
		}
		for _, c := range syntaxChildren(it.e) {
			stack = append(stack, item{c, it.d + 1})
		}
	}
	return deepest
}
