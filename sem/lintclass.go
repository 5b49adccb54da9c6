package sem

import "strings"

// emptyClasses warns of the classes that match no term: a class matches a term only
// through an alternative whose classes each match one, so the classes that match some
// term are the least fixed point of "some alternative names only such classes" (a
// metavariable of a sort or of a kind's values is taken to match some term). Every
// other class is empty: each of its alternatives needs a term of a class that is
// empty too, as (class a t (app a_1 n)) does, or a and b in (class a t (app b n))
// (class b t (app a n)). A rule or frame that names such a class never matches.
func (c *checker) emptyClasses() {
	matches := make([]bool, len(c.l.Classes))
	needs := func(p *Pattern) (missing *Class) {
		p.preorder(func(q *Pattern) {
			if missing == nil && q.Kind == PatMeta && q.Sort.Kind == MetaClass && !matches[q.Sort.Class.Index] {
				missing = q.Sort.Class
			}
		})
		return missing
	}
	for changed := true; changed; {
		changed = false
		for _, cl := range c.l.Classes {
			if matches[cl.Index] {
				continue
			}
			for _, alt := range cl.Alts {
				if needs(alt) == nil {
					matches[cl.Index], changed = true, true
					break
				}
			}
		}
	}
	for _, cl := range c.l.Classes {
		if matches[cl.Index] {
			continue
		}
		var names []string
		seen := map[string]bool{}
		for _, alt := range cl.Alts {
			if m := needs(alt); m != nil && !seen[m.Name] {
				seen[m.Name] = true
				names = append(names, m.Name)
			}
		}
		c.warn(cl.P, nil, "class %s matches no term: every alternative needs a term of class %s, and none of the classes it leads to has an alternative without such a need",
			cl.Name, strings.Join(names, " or "))
	}
}
