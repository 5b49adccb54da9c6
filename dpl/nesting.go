package dpl

import "github.com/interderive/interderive"

// MaxNesting is the deepest nesting of a program that Parse accepts: of parentheses,
// brackets, prefix operators, binders and types in the source, and of the syntax tree
// with the types it holds (where sugar and long left-associative chains, 1 + ... + 1 or
// <M1, ..., Mn>, nest without parentheses). A let's body does not nest: it is at the
// let's depth (Depth), and every function over terms loops along a chain of lets
// instead of recursing into the body, so that a let-chain as long as a generated
// straight-line program takes no stack, and its length is bounded only by the size of
// the source.
//
// It is derived from the Go stack (interderive.StackLimit, 512 MiB on 64-bit
// platforms) as gradual.MaxNesting is: every recursion over a program that the parser
// accepted — parsing itself, type checking and elaboration, printing, substitution, and
// the stages' recursion over the program — takes at most NestingFrame bytes of stack
// per level of nesting (TestStackPerLevel measures each one at depth), and the deepest
// of them at MaxNesting levels at most half of StackLimit, which leaves the other half
// for what runs below and above it. So 2^29 / 2 / 4096 = 65,536 levels on 64-bit
// platforms (16,384 on 32-bit ones). It is below MaxDepth, the bound on the terms a run
// builds, of which a program's terms are parts.
const MaxNesting = interderive.StackLimit / 2 / NestingFrame

// NestingFrame is the bound, in bytes, on the Go stack that one level of nesting takes
// in any recursion over a program (see MaxNesting).
const NestingFrame = 4096
