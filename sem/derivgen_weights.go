package sem

import (
	"iter"
	"math"
	"slices"
)

// The weights of a random derivation's choices (derivgen.go): the order in which a
// goal tries the rules of its judgment, by depth and by the draw's own weights
// (swarm), and the order in which a call narrowed tries its function's clauses.

// swarmLow is the weight a draw gives the rules and clauses it turns down (swarm).
const swarmLow = 0.1

// swarm draws the draw's own weights: each rule of every judgment, and each clause
// of every function, weighs 1 or, one time in two, swarmLow. Draws so differ in
// what they are made of (one all constants applied, another all λs), as Groce,
// Zhang, Eide, Chen and Regehr's swarm testing (ISSTA 2012) varies a test
// generator's features from test to test: a combination that the average weights
// make rare (a constant applied to the result of another) is common in some draws.
func (s *draw) swarm() {
	if s.g.opts.Uniform {
		return
	}
	s.ruleW, s.clauseW = map[*Inference]float64{}, map[*Clause]float64{}
	pick := func() float64 {
		if s.r.IntN(2) == 0 {
			return swarmLow
		}
		return 1
	}
	for _, j := range s.g.all {
		for _, r := range j.Rules {
			s.ruleW[r] = pick()
		}
	}
	for _, f := range s.g.l.Functions {
		for _, c := range f.Clauses {
			s.clauseW[c] = pick()
		}
	}
}

// swarmWeights weighs the candidate rules ws of a goal by the draw's own weights,
// within each group (the recursive rules, the others), so that each group keeps its
// weight: the draw's weights choose among the ways to build a node, the depth
// whether the node is a leaf (and so the size of what is drawn).
func (s *draw) swarmWeights(cands []*Inference, ws []float64, rec []bool) {
	if s.ruleW == nil {
		return
	}
	var sum, n [2]float64
	group := func(i int) int {
		if rec[i] {
			return 1
		}
		return 0
	}
	for i, r := range cands {
		sum[group(i)] += s.ruleW[r]
		n[group(i)]++
	}
	for i, r := range cands {
		k := group(i)
		ws[i] *= s.ruleW[r] * n[k] / sum[k]
	}
}

// order is the rules a goal of j at depth tries, in a random order drawn as they are
// asked for: the rules that can close, recursive ones weighted by how far depth is
// from the bound. Past the bound (of depth, or of the draw's goals), the rules
// without a recursive premise
// come first, in a random order, then, a little past it (overrun), the recursive
// ones, least height first: a goal whose terms are already fixed (a function's type)
// may need one (a λ), and each such step is one the terms bound. Where a judgment
// has neither, the rules of least height.
func (s *draw) order(j *Judgment, depth int) iter.Seq[*Inference] {
	g := s.g
	var cands, then []*Inference
	var ws []float64
	var rec []bool
	past := depth >= s.maxDepth || s.nodes >= g.opts.MaxNodes
	overrun := depth < s.maxDepth+overrunDepth && s.nodes < g.opts.MaxNodes+overrunNodes
	for _, r := range g.byRank[j] {
		if _, ok := g.rank[r]; !ok {
			continue // a premise that cannot close
		}
		w := max(float64(depth+1)/float64(s.maxDepth+1), float64(s.nodes)/float64(g.opts.MaxNodes))
		w = math.Pow(w, g.opts.LeafPower)
		if g.recursive[r] {
			if past {
				if overrun {
					then = append(then, r)
				}
				continue
			}
			w = g.opts.RecWeight * min(float64(s.maxDepth-depth)/float64(s.maxDepth),
				float64(g.opts.MaxNodes-s.nodes)/float64(g.opts.MaxNodes))
		}
		if past {
			w = 1
		}
		cands, ws, rec = append(cands, r), append(ws, w), append(rec, g.recursive[r])
	}
	s.swarmWeights(cands, ws, rec)
	if len(cands) == 0 && len(then) == 0 { // a judgment whose every rule recurses
		for _, r := range j.Rules {
			if h, ok := g.rank[r]; ok && h == g.height[j] {
				cands, ws = append(cands, r), append(ws, 1)
			}
		}
	}
	return func(yield func(*Inference) bool) {
		for i := range s.weightedPerm(ws) {
			if !yield(cands[i]) {
				return
			}
		}
		s.r.Shuffle(len(then), func(a, b int) { then[a], then[b] = then[b], then[a] })
		slices.SortStableFunc(then, func(a, b *Inference) int { return g.rank[a] - g.rank[b] })
		for _, r := range then {
			if !yield(r) {
				return
			}
		}
	}
}

// weightedPerm is a random permutation of the indices of ws: each drawn in turn with
// probability proportional to its weight among those left, as it is asked for (a
// goal whose first rule succeeds draws one number, not one a rule).
func (s *draw) weightedPerm(ws []float64) iter.Seq[int] {
	return func(yield func(int) bool) {
		idx := make([]int, len(ws))
		for i := range idx {
			idx[i] = i
		}
		ws := slices.Clone(ws)
		for len(idx) > 0 {
			total := 0.0
			for _, w := range ws {
				total += w
			}
			x, i := s.unit()*total, 0
			for ; i < len(ws)-1 && x >= ws[i]; i++ {
				x -= ws[i]
			}
			if !yield(idx[i]) {
				return
			}
			idx = append(idx[:i], idx[i+1:]...)
			ws = append(ws[:i], ws[i+1:]...)
		}
	}
}

// overrunDepth and overrunNodes are how far past its bounds a draw still tries
// recursive rules after the others (order).
const overrunDepth, overrunNodes = 8, 64

// unit is a random number in [0, 1) made of the high bits of the draw's source (not
// the low ones, as rand.Float64): a source whose numbers are small integers with
// their bits reversed (a rapid draw, shrunk toward 0) gives its randomness there, and
// 0 is the first of the choices (weightedPerm: the candidate listed first).
func (s *draw) unit() float64 {
	return float64(s.r.Uint64()>>11) / (1 << 53)
}
