package sem

// A right-hand side's constructors nested in one another, (lam x (letrec f x e_1
// e_1)), build their nodes together: the skeleton of the template, its constructor
// nodes down from the root, is one allocation rather than one a node. The children
// that are not constructors (metavariables, integers, substitutions, calls) are
// built as before, in the same order: depth first, left to right.
//
// A skeleton whose other children are all metavariables is built again from the
// same bindings at the same position as often as a run meets its rule in a loop
// (letrec's unfolding, (lam x (letrec f x e_1 e_1)), from the very closures of its
// body at every call): the engine keeps the last one it built (terms are immutable
// and shared) and gives it back for the same bindings, by their identity.

// skeletonPlan is a template's skeleton: its constructor nodes in preorder, each with
// its constructor, the offset of its arguments in the skeleton's slice of them, and
// for each argument either the node it is (kid >= 0) or the builder of the child.
type skeletonPlan struct {
	nodes []skeletonNode
	args  int // the arguments of every node, in all
	// slots are the bindings of the children that are not nodes, in preorder, when
	// they are all metavariables (at most maxSkeletonSlots of them), else nil: the
	// skeleton is then the same term for the same bindings at the same position.
	slots []int
	key   int // where the engine keeps its last skeleton (Engine.built)
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
	metas := true
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
			switch {
			case a.Kind == PatCon && ok:
				kids[j].node = add(a)
			case a.Kind == PatMeta:
				plan.slots = append(plan.slots, a.Slot)
			default:
				metas = false
			}
		}
		plan.nodes[i].kids = kids
		return i
	}
	add(p)
	if !metas || len(plan.slots) > maxSkeletonSlots {
		plan.slots = nil
	}
	plan.key = int(posKey(p.P) % uint(len(builtSkeletons{})))
	return plan, ok && len(plan.nodes) >= 2
}

// maxSkeletonSlots is the most metavariables of a skeleton the engine keeps the last
// one of (builtSkeleton).
const maxSkeletonSlots = 6

// builtSkeletons are an engine's last skeletons built, by template (plan.key).
type builtSkeletons = [8]builtSkeleton

// builtSkeleton is the last skeleton of a plan an engine built: at its position, from
// the bindings of its slots.
type builtSkeleton struct {
	plan *skeletonPlan
	at   Pos
	args [maxSkeletonSlots]*Term
	t    *Term
}

// lastBuilt is the skeleton of plan at at from the bindings b that the engine built
// last, if it did; else nil.
func (e *Engine) lastBuilt(plan *skeletonPlan, b []*Term, at Pos) *Term {
	if e.built == nil {
		return nil
	}
	last := &e.built[plan.key]
	if last.plan != plan || last.at != at {
		return nil
	}
	for i, s := range plan.slots {
		if last.args[i] != b[s] {
			return nil
		}
	}
	return last.t
}

// keepBuilt records t as plan's last skeleton, at at from the bindings b.
func (e *Engine) keepBuilt(plan *skeletonPlan, b []*Term, at Pos, t *Term) {
	if e.built == nil {
		e.built = new(builtSkeletons)
	}
	e.builtUsed = true
	last := &e.built[plan.key]
	last.plan, last.at, last.t = plan, at, t
	for i, s := range plan.slots {
		last.args[i] = b[s]
	}
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
func skeletonBuilder(plan *skeletonPlan) builder {
	return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
		if plan.slots != nil {
			if t := e.lastBuilt(plan, b, at); t != nil {
				return t, nil
			}
		}
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
		if plan.slots != nil {
			e.keepBuilt(plan, b, at, &ts[0])
		}
		return &ts[0], nil
	}
}

// fill builds the children of node i of the skeleton ts, at the depth of node i.
func (plan *skeletonPlan) fill(e *Engine, b []*Term, at Pos, depth int, ts []Term, i int) error {
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
