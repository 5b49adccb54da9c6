package sem

import (
	"context"
	"fmt"
	"time"

	"github.com/interderive/interderive"
)

// The relation a rule file defines, explored whole: every decomposition of a term and
// every rule that contracts its redex, as Redex's apply-reduction-relation gives the
// reducts of a term. A deterministic file has one reduct a step, the one every derived
// stage takes; a file that declares (nondeterministic) may have several, and only this
// exploration runs it (run --all, trace --graph): the derived stages refuse it, with
// the witness of its static checks (Language.Ambiguity).

// Reduct is a term another steps to, and the event of the step.
type Reduct struct {
	Term  *Term
	Event string
}

// relFrame is a frame of the context a term is explored in: the frame, and the term
// at it, its hole's contents included.
type relFrame struct {
	f *Frame
	t *Term
}

// relContext is the context of an exploration, innermost frame last (Context).
type relContext []relFrame

func (c relContext) Depth() int { return len(c) }

func (c relContext) Frame(i int) (*Frame, *Term) {
	x := c[len(c)-1-i]
	return x.f, x.t
}

// plug plugs t into the context's frames below the top drop.
func (c relContext) plug(t *Term, drop int) *Term {
	for i := len(c) - 1 - drop; i >= 0; i-- {
		t = PlugAt(c[i].t, c[i].f.Path, t)
	}
	return t
}

// Reducts are the terms the program t steps to, each with its event, in the order of
// the search: frame by frame in search order, those of its subterms, then the rules
// that contract t itself (of a deterministic file, the one its stages take). A context rule takes the context it is found in (an abort
// replaces the whole term, or the frames up to its delimiter). A rule that steps an
// inner layer takes that layer's first reduct.
func (l *Language) Reducts(t *Term) (out []Reduct, err error) {
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(tooDeep); !ok {
				panic(p)
			}
			out, err = nil, TooDeep()
		}
	}()
	e := &Engine{l: l}
	err = e.reducts(t, l.Root(), nil, &out, 0)
	return out, err
}

func (e *Engine) reducts(t *Term, k *Kind, ctx relContext, out *[]Reduct, depth int) error {
	if depth > MaxTermDepth {
		return TooDeep()
	}
	t = View(t)
	if e.IsValue(t, k) {
		return nil
	}
	step := func(x *Term, kk *Kind) (*Term, string, bool, error) {
		rs, err := e.l.Reducts(x) // an inner layer: its first reduct
		if err != nil || len(rs) == 0 {
			return x, "", false, err
		}
		return rs[0].Term, rs[0].Event, true, nil
	}
	// A deterministic file's relation is what its stages do: the first frame the
	// term enters, else the first rule that applies. A non-deterministic file's is
	// every frame and every rule.
	all := e.l.Nondeterministic
	for _, f := range k.Frames {
		b := make([]*Term, f.Metas)
		if !e.match(f.Pat, t, b) || e.IsValue(b[f.HoleSlot], f.Hole) {
			continue
		}
		if err := e.reducts(At(t, f.Path), f.Hole, append(ctx, relFrame{f, t}), out, depth+1); err != nil {
			return err
		}
		if !all {
			return nil
		}
	}
	for _, r := range k.Rules {
		b := make([]*Term, r.Metas)
		var c Contraction
		ok, err := e.contractBy(&c, r, t, k, ctx, len(ctx), step, b)
		if err != nil {
			return err
		}
		if ok {
			*out = append(*out, Reduct{Term: ctx.plug(c.Term, c.Pop), Event: c.Event})
			if !all {
				return nil
			}
		}
	}
	return nil
}

// Graph is the part of the relation a program reaches: its terms (the program
// first), the steps between them, and which terms are normal forms.
type Graph struct {
	Terms []*Term
	Steps []Step
	// Normal are the indices of the terms that step to nothing: the answers of
	// the program, values, answers of the root kind, or stuck terms.
	Normal []int
	// Cut says that the exploration stopped at its budget of terms, or its time,
	// before every reachable term was explored.
	Cut string
}

// Step is an edge of a Graph: a term's index, the index of a term it steps to, and
// the step's event.
type Step struct {
	From, To int
	Event    string
}

// Explore follows every step of the relation from t, breadth first, each term once
// (terms equal up to α-renaming are one): at most max terms, within opts' timeout.
func (l *Language) Explore(t *Term, max int, opts interderive.Options) (*Graph, error) {
	ctx := context.Background()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	g := &Graph{Terms: []*Term{t}}
	seen := map[string][]int{Format(t): {0}}
	index := func(x *Term) int {
		key := Format(x)
		for _, i := range seen[key] {
			if AlphaEqual(g.Terms[i], x) {
				return i
			}
		}
		g.Terms = append(g.Terms, x)
		seen[key] = append(seen[key], len(g.Terms)-1)
		return len(g.Terms) - 1
	}
	for i := 0; i < len(g.Terms); i++ {
		if err := ctx.Err(); err != nil {
			g.Cut = fmt.Sprintf("the time budget (%s) ran out", opts.Timeout.Round(time.Millisecond))
			break
		}
		if len(g.Terms) > max {
			g.Cut = fmt.Sprintf("%d terms explored, the budget", max)
			break
		}
		rs, err := l.Reducts(g.Terms[i])
		if err != nil {
			return g, err
		}
		if len(rs) == 0 {
			g.Normal = append(g.Normal, i)
		}
		for _, r := range rs {
			g.Steps = append(g.Steps, Step{From: i, To: index(r.Term), Event: r.Event})
		}
	}
	return g, nil
}
