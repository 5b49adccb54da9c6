package dpl

// Internals for the external tests.

// TreeDepth is Depth by the walk of t as a tree alone (no shortcut for shallow
// let-chains).
func TreeDepth(t Term) int {
	d, _ := treeDepth(t, treeBudget, false)
	return d
}
