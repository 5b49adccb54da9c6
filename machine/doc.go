// Package machine holds the refocused abstract machines of the workbench's calculi:
// eval/continue machines whose stacks are the defunctionalized evaluation contexts of
// the reduction semantics, with environments instead of substitution. They are
// obtained by refocusing (decompose the contractum in place instead of plugging it and
// decomposing from the root), lightweight fusion and transition compression (Danvy &
// Nielsen 2004; Biernacka & Danvy 2007), and run in an explicit loop, so their depth
// is bounded only by memory.
package machine
