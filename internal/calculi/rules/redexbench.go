package rules

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// The property of the Redex benchmark (redex-benchmark), for rule files that port
// its models (testdata/redexbench): what its generators.rkt checks of a term, so
// that a bug the benchmark seeds into a model is found, or shown absent, by the
// same property on the ported file.

// benchTypings bounds the derivations BenchmarkProperty asks the typing judgment
// for: enough to see two types of a term that has two (Redex's type-check refuses a
// term of several types), with room for derivations that repeat a type.
const benchTypings = 16

// BenchmarkProperty checks the Redex benchmark's property of the closed term t
// under the rule file l, the check of models/stlc+lists/generators.rkt
// (redex-benchmark, module check-mod), the same for the benchmark's typed models:
//
//	(or (v? term)
//	    (let ([t-type (type-check term)])
//	      (implies t-type
//	        (let ([red-res (apply-reduction-relation red term)])
//	          (and (= (length red-res) 1)
//	               (let ([red-t (car red-res)])
//	                 (or (equal? red-t "error")
//	                     (equal? t-type (type-check red-t)))))))))
//
// A value of the root kind satisfies it; so does a term the file's typing judgment
// ((typing ...)) does not type. A typed term must have exactly one reduct in the
// file's relation (sem.Language.Reducts, apply-reduction-relation: every
// decomposition and every rule, for a (nondeterministic) file too, but for those the
// model has not: modelReducts), and that reduct
// must be an answer of the root kind (the model's "error") or have the term's type,
// up to α-equivalence. type-check is the typing judgment's unique type: a term it
// gives two types is a violation too, as Redex's type-check raises an error there.
// The result is nil when the property holds, else an error that says which part
// fails; an error of the file itself (a function with no clause, the budgets of
// opts) is returned as such, wrapped.
func BenchmarkProperty(l *sem.Language, t *sem.Term, opts interderive.Options) error {
	if l.Typing == nil {
		return fmt.Errorf("the rule file %s has no typing judgment ((typing ...)), which the property needs", l.Name)
	}
	if l.IsValue(t, l.Root()) {
		return nil
	}
	ty, err := benchType(l, t, opts)
	if err != nil || ty == nil {
		return err
	}
	reds, err := l.Reducts(t)
	if err != nil {
		return fmt.Errorf("the reducts of %s: %w", sem.FormatShort(t, 200), err)
	}
	reds = modelReducts(l, reds)
	if len(reds) != 1 {
		return fmt.Errorf("%s, of the type %s, is no value and has %d reducts, not exactly 1%s",
			sem.FormatShort(t, 200), sem.Format(ty), len(reds), reductList(reds))
	}
	next := reds[0].Term
	if l.IsAnswer(next, l.Root()) {
		return nil
	}
	got, err := benchType(l, next, opts)
	if err != nil {
		return err
	}
	if got == nil {
		return fmt.Errorf("%s does not preserve the type %s: %s steps to %s, which has no type",
			reds[0].Event, sem.Format(ty), sem.FormatShort(t, 200), sem.FormatShort(next, 200))
	}
	if !sem.AlphaEqual(got, ty) {
		return fmt.Errorf("%s does not preserve the type %s: %s steps to %s, which has the type %s",
			reds[0].Event, sem.Format(ty), sem.FormatShort(t, 200), sem.FormatShort(next, 200), sem.Format(got))
	}
	return nil
}

// modelReducts are the reducts of a term that the Redex model has: of a
// (nondeterministic) file, those without the root kind's answer strictly inside. A
// non-deterministic file's relation applies every rule at every decomposition, and so
// the empty-context twin of an aborting rule (the ports' hd-err and tl-err, written
// once with (context ...) and once for the empty context) inside a context too,
// plugging "error" into it; the model's rule, (in-hole E ((hd) nil)) → "error",
// gives "error" as the whole result only (it is a Racket string, no term of M).
func modelReducts(l *sem.Language, reds []sem.Reduct) []sem.Reduct {
	if !l.Nondeterministic {
		return reds
	}
	var out []sem.Reduct
	for _, r := range reds {
		if l.IsAnswer(r.Term, l.Root()) || !hasAnswer(l, r.Term) {
			out = append(out, r)
		}
	}
	return out
}

// hasAnswer reports whether an answer of the root kind occurs in t.
func hasAnswer(l *sem.Language, t *sem.Term) bool {
	if l.IsAnswer(t, l.Root()) {
		return true
	}
	for _, a := range t.Args {
		if hasAnswer(l, a) {
			return true
		}
	}
	return false
}

// benchType is Redex's type-check of the model: the one type the typing judgment
// gives t, or nil when it gives none; two types (up to α) are an error.
func benchType(l *sem.Language, t *sem.Term, opts interderive.Options) (*sem.Term, error) {
	in, err := l.TypingInputs(t)
	if err != nil {
		return nil, err
	}
	out, err := l.Judge(l.Typing.Judgment, in, benchTypings, opts)
	if err != nil {
		return nil, fmt.Errorf("typing %s: %w", sem.FormatShort(t, 200), err)
	}
	var ty *sem.Term
	for _, d := range out.Derivations {
		switch got := d.Args[l.Typing.Type]; {
		case ty == nil:
			ty = got
		case !sem.AlphaEqual(ty, got):
			return nil, fmt.Errorf("%s has two types, %s and %s (Redex's type-check: non-unique type)",
				sem.FormatShort(t, 200), sem.Format(ty), sem.Format(got))
		}
	}
	return ty, nil
}

// reductList prints the reducts, for a message: empty for none.
func reductList(rs []sem.Reduct) string {
	s := ""
	for i, r := range rs {
		if i == 0 {
			s = ":"
		}
		s += fmt.Sprintf(" %s by %s", sem.FormatShort(r.Term, 200), r.Event)
		if i < len(rs)-1 {
			s += ","
		}
	}
	return s
}
