package sem

// Prim is a δ-hook written in Go: an operation on 64-bit integers that a rule's
// right-hand side (an integer) or side condition (a comparison) calls by name. The
// δ-table (PrimNames) is every rule file's (DefaultHooks); a calculus adds its own to
// its Hooks (Hooks.AddPrim).
type Prim struct {
	Name  string
	Arity int
	Test  bool // a comparison, for side conditions; otherwise an integer, for right-hand sides
	// Int computes an integer operation; ok is false where it is undefined (a division
	// by zero), and the rule then does not apply. Int and Cmp must not keep their
	// argument slice: the engine reuses it.
	Int func(a []int64) (n int64, ok bool)
	// Cmp computes a comparison.
	Cmp func(a []int64) bool
	Doc string
}

// LookupPrim returns the δ-hook of the δ-table named name.
func LookupPrim(name string) (*Prim, bool) { p, ok := prims[name]; return p, ok }

// PrimNames are the names of the δ-table's hooks, in the order of the table.
func PrimNames() []string {
	return []string{"add", "sub", "mul", "neg", "quot", "rem", "lt", "le", "gt", "ge", "eq", "ne"}
}

// prims is the table of δ-hooks (read only). Arithmetic wraps around on overflow
// (two's complement), as in the hand-written calculi.
var prims = map[string]*Prim{
	"add": {Name: "add", Arity: 2, Int: func(a []int64) (int64, bool) { return a[0] + a[1], true }, Doc: "n1 + n2"},
	"sub": {Name: "sub", Arity: 2, Int: func(a []int64) (int64, bool) { return a[0] - a[1], true }, Doc: "n1 - n2"},
	"mul": {Name: "mul", Arity: 2, Int: func(a []int64) (int64, bool) { return a[0] * a[1], true }, Doc: "n1 * n2"},
	"neg": {Name: "neg", Arity: 1, Int: func(a []int64) (int64, bool) { return -a[0], true }, Doc: "-n"},
	"quot": {Name: "quot", Arity: 2, Int: func(a []int64) (int64, bool) {
		if a[1] == 0 {
			return 0, false
		}
		if a[1] == -1 {
			return -a[0], true // wraps for the least integer, as multiplication does
		}
		return a[0] / a[1], true
	}, Doc: "n1 / n2 rounded toward zero; undefined for n2 = 0"},
	"rem": {Name: "rem", Arity: 2, Int: func(a []int64) (int64, bool) {
		if a[1] == 0 {
			return 0, false
		}
		if a[1] == -1 {
			return 0, true
		}
		return a[0] % a[1], true
	}, Doc: "the remainder of quot, with the sign of n1; undefined for n2 = 0"},
	"lt": {Name: "lt", Arity: 2, Test: true, Cmp: func(a []int64) bool { return a[0] < a[1] }, Doc: "n1 < n2"},
	"le": {Name: "le", Arity: 2, Test: true, Cmp: func(a []int64) bool { return a[0] <= a[1] }, Doc: "n1 ≤ n2"},
	"gt": {Name: "gt", Arity: 2, Test: true, Cmp: func(a []int64) bool { return a[0] > a[1] }, Doc: "n1 > n2"},
	"ge": {Name: "ge", Arity: 2, Test: true, Cmp: func(a []int64) bool { return a[0] >= a[1] }, Doc: "n1 ≥ n2"},
	"eq": {Name: "eq", Arity: 2, Test: true, Cmp: func(a []int64) bool { return a[0] == a[1] }, Doc: "n1 = n2"},
	"ne": {Name: "ne", Arity: 2, Test: true, Cmp: func(a []int64) bool { return a[0] != a[1] }, Doc: "n1 ≠ n2"},
}
