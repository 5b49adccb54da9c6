package compile

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Describe prints, for a person (interderive derive), what the compiled interpreter
// decides before the run, instantiated on a rule file: for each kind and each root a
// term may have (a constructor, an integer, an atom), whether such a term is a value,
// the frames its search may enter in order, and after each frame, its hole plugged
// with a value, the search that goes on — each test either decided (certain, or left
// out) or left to the run (the engine's test on the term, where the environment or a
// class decides it). A program's subterms are decided further, by their bodies: a
// child that is a constructor or a literal decides more. The equations themselves are
// the interpreter's (interp).
func (rulesStage) Describe(l *sem.Language) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the compiled interpreter of %s (the interpreter's equations, staged: what a term's root decides\n", l.Name)
	b.WriteString("before the run; \"run\" a test the run makes, on the term)\n")
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s:\n", k.Name)
		for _, root := range roots(l, k) {
			cd := build(root.shape, k, 0)
			if cd.value == no && len(cd.frames) == 0 && len(k.Lookup(sem.RuleTable, root.shape.root, root.shape.con)) == 0 {
				continue // no term of the kind has this root
			}
			fmt.Fprintf(&b, "  %-24s %s\n", root.name, describeCode(cd, 0))
		}
	}
	return b.String()
}

// rootShape is a root a term may have, and its name for a person.
type rootShape struct {
	name  string
	shape *shape
}

// roots are the roots of the terms of k's sort: its constructors, integers, atoms.
func roots(l *sem.Language, k *sem.Kind) []rootShape {
	var out []rootShape
	if k.Sort == nil {
		return out
	}
	if k.Sort.Ints {
		out = append(out, rootShape{"an integer", &shape{op: shNode, root: sem.TermInt}})
	}
	if len(k.Sort.Atoms) > 0 {
		out = append(out, rootShape{"an atom", &shape{op: shNode, root: sem.TermAtom}})
	}
	for _, c := range l.Cons {
		if c.Sort == k.Sort {
			out = append(out, rootShape{"(" + c.Name + " ...)", &shape{op: shNode, root: sem.TermCon, con: c}})
		}
	}
	return out
}

// describeCode prints a code's decisions: a value, or the alternatives of its search
// in order (a value the run decides, each frame it may enter followed by the code of
// the term plugged after it, a redex where no frame is certain).
func describeCode(cd *rulesCode, depth int) string {
	if cd.value == yes {
		return "a value"
	}
	var alts []string
	if cd.value == maybe {
		alts = append(alts, "a value [run]")
	}
	certain := false
	for _, fr := range cd.frames {
		test := "run"
		if fr.test == yes {
			test, certain = "certain", true
		}
		f := fmt.Sprintf("frame %d %s [%s]", fr.f.Index+1, sem.FormatFrame(fr.f.Pat), test)
		if depth < len(cd.k.Frames) {
			next := build(cd.shape.plug(fr.f.Path, &shape{op: shValue, kind: fr.f.Hole}), fr.f.Kind, fr.f.Index+1)
			f += " → " + describeCode(next, depth+1)
		}
		alts = append(alts, f)
	}
	if !certain {
		alts = append(alts, "a redex")
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return "{" + strings.Join(alts, " | ") + "}"
}
