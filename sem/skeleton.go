package sem

// A right-hand side's constructors nested in one another, (lam x (letrec f x e_1
// e_1)), build their nodes together: the skeleton of the template, its constructor
// nodes down from the root, is one allocation rather than one a node. The children
// that are not constructors (metavariables, integers, substitutions, calls) are
// built as before, in the same order: depth first, left to right.

// skeletonPlan is a template's skeleton: its constructor nodes in preorder, each with
// its constructor, the offset of its arguments in the skeleton's slice of them, and
// for each argument either the node it is (kid >= 0) or the builder of the child.
type skeletonPlan struct {
	nodes []skeletonNode
	args  int // the arguments of every node, in all
}

type skeletonNode struct {
	con   *Con
	first int // its arguments: the skeleton's args[first : first+len(kids)]
	kids  []skeletonKid
}

type skeletonKid struct {
	node  int // the skeleton's node this child is, or -1
	build builder
}

// maxSkeleton is the most nodes, and 4 a node the most arguments, that one
// allocation holds (skeleton2, skeleton3).
const maxSkeleton = 3

// planSkeleton is p's skeleton if it has two or three constructor nodes of at most
// four arguments each; ok is false otherwise (conBuilder builds it a node at a time).
func planSkeleton(p *Pattern) (plan skeletonPlan, ok bool) {
	var add func(p *Pattern) int
	ok = true
	add = func(p *Pattern) int {
		i := len(plan.nodes)
		if i == maxSkeleton || len(p.Args) > 4 {
			ok = false
			return -1
		}
		plan.nodes = append(plan.nodes, skeletonNode{con: p.Con, first: plan.args})
		plan.args += len(p.Args)
		kids := make([]skeletonKid, len(p.Args))
		for j, a := range p.Args {
			kids[j] = skeletonKid{node: -1, build: a.builder}
			if a.Kind == PatCon && ok {
				kids[j].node = add(a)
			}
		}
		plan.nodes[i].kids = kids
		return i
	}
	add(p)
	return plan, ok && len(plan.nodes) >= 2
}

type (
	skeleton2 struct {
		t [2]Term
		a [8]*Term
	}
	skeleton3 struct {
		t [3]Term
		a [12]*Term
	}
)

// skeletonBuilder builds the template of plan: its nodes allocated at once, their
// other children built in the order conBuilder builds them.
func skeletonBuilder(plan skeletonPlan) builder {
	return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
		var ts []Term
		var args []*Term
		if len(plan.nodes) == 2 {
			x := new(skeleton2)
			ts, args = x.t[:], x.a[:]
		} else {
			x := new(skeleton3)
			ts, args = x.t[:], x.a[:]
		}
		for i, n := range plan.nodes {
			t := &ts[i]
			t.P, t.Op, t.Con, t.parts = at, TermCon, n.con, &noParts
			t.Args = args[n.first : n.first+len(n.kids) : n.first+len(n.kids)]
		}
		if err := plan.fill(e, b, at, depth, ts, 0); err != nil {
			return nil, err
		}
		return &ts[0], nil
	}
}

// fill builds the children of node i of the skeleton ts, at the depth of node i.
func (plan skeletonPlan) fill(e *Engine, b []*Term, at Pos, depth int, ts []Term, i int) error {
	t := &ts[i]
	for j, k := range plan.nodes[i].kids {
		if k.node >= 0 {
			t.Args[j] = &ts[k.node]
			if err := plan.fill(e, b, at, depth+1, ts, k.node); err != nil {
				return err
			}
			continue
		}
		var err error
		if t.Args[j], err = k.build(e, b, at, depth+1); err != nil {
			return err
		}
	}
	return nil
}
