package sem_test

import (
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// TestReductsNondeterministic: amb.sem's relation, derived by hand. (add (amb 1 2)
// (amb 10 20)) enters either operand's frame, and each amb steps either way: four
// reducts, the left operand's first (frames in order, then left before right). The
// whole graph: the program, 4 terms with one amb left, 4 sums, 4 integers: 13 terms;
// 4 + 4·2 + 4 = 16 steps; the normal forms 11, 21, 12, 22.
func TestReductsNondeterministic(t *testing.T) {
	l := load(t, "amb.sem")
	if !l.Nondeterministic || len(l.Ambiguity) == 0 || !strings.Contains(l.Ambiguity[0], "decomposition is not unique") {
		t.Fatalf("amb.sem: nondeterministic %v, ambiguity %q", l.Nondeterministic, l.Ambiguity)
	}
	p, err := l.ReadTerm([]byte("(add (amb 1 2) (amb 10 20))"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := l.Reducts(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.Event+" "+sem.Format(r.Term))
	}
	want := "left (add 1 (amb 10 20))|right (add 2 (amb 10 20))|left (add (amb 1 2) 10)|right (add (amb 1 2) 20)"
	if strings.Join(got, "|") != want {
		t.Errorf("reducts:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	g, err := l.Explore(p, 100, interderive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var normal []string
	for _, i := range g.Normal {
		normal = append(normal, sem.Format(g.Terms[i]))
	}
	if len(g.Terms) != 13 || len(g.Steps) != 16 || strings.Join(normal, " ") != "11 21 12 22" || g.Cut != "" {
		t.Errorf("graph: %d terms, %d steps, normal forms %v, cut %q", len(g.Terms), len(g.Steps), normal, g.Cut)
	}
	if g, _ := l.Explore(p, 3, interderive.Options{}); g.Cut == "" {
		t.Error("an exploration past its budget of 3 terms is not cut")
	}
}

// TestReductsDeterministic: a deterministic file's relation is its stages' step: one
// reduct a term, the first frame's, else the first rule's (stlc.sem: if0's left
// operand... ((λ (x num) (if0 x x (+ x 1))) 2) → βv, then if0f, then +: 3, as
// testdata/rules/stlc/if0.term derives).
func TestReductsDeterministic(t *testing.T) {
	l := loadStlc(t)
	p, err := l.ReadTerm([]byte("((λ (x num) (if0 x x (+ x 1))) 2)"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := l.Explore(p, 100, interderive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, s := range g.Steps {
		events = append(events, s.Event)
	}
	if len(g.Normal) != 1 || sem.Format(g.Terms[g.Normal[0]]) != "3" || strings.Join(events, " ") != "βv if0f +" {
		t.Errorf("normal forms %v, steps %v", g.Normal, events)
	}
}

// FuzzExplore: no program makes the exploration of a relation panic, and it stops
// within its budgets (amb.sem's non-deterministic relation, callcc.sem's captured
// contexts).
func FuzzExplore(f *testing.F) {
	f.Add("amb.sem", "(add (amb 1 2) (amb 10 20))")
	f.Add("callcc.sem", "(add 1 (callcc (lam k (add 10 (app k 2)))))")
	f.Add("callcc.sem", "(add 1 (reset (add 10 (shift (lam k (app k (app k 100)))))))")
	langs := map[string]*sem.Language{}
	for _, name := range []string{"amb.sem", "callcc.sem"} {
		langs[name] = load(f, name)
	}
	f.Fuzz(func(t *testing.T, file, src string) {
		l, ok := langs[file]
		if !ok {
			return
		}
		p, err := l.ReadTerm([]byte(src))
		if err != nil {
			return
		}
		g, err := l.Explore(p, 200, interderive.Options{Timeout: time.Second})
		if err == nil && len(g.Terms) > 200 && g.Cut == "" {
			t.Fatalf("%d terms explored, past the budget of 200, and the exploration says it was not cut", len(g.Terms))
		}
	})
}
