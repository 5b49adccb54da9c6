package rules_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// TestShrinkKeepsTyped: a counterexample drawn from random derivations (fuzz's
// programs of a file that names its typing judgment: Calculus.Generate, drawTyped)
// shrinks to a smaller program that the judgment still types. The property fails
// of a program of Redex's stlc+lists that applies hd ((hd M) anywhere in it); rapid
// shrinks the derivation's choices; every program that fails on the way, and so the
// counterexample it reports (the last), is typed by the search (TypeOf, the judgment
// run by its modes, independent of the generator), and that is smaller than the
// first found, unless that was already (hd nil), the smallest (by hand: an
// application, hd, and the one constant of type (list int)).
func TestShrinkKeepsTyped(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "redexbench", "stlc+lists", "base.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	c := rules.Calculus{Lang: l, File: "base.sem"}
	// rapid's flags are the process's: set for this check (a fixed seed, no failure
	// file replayed or saved), given back after.
	for name, v := range map[string]string{"rapid.seed": "27", "rapid.checks": "1000", "rapid.nofailfile": "true"} {
		if f := flag.Lookup(name); f != nil {
			defer func(old string) { _ = flag.Set(name, old) }(f.Value.String())
			_ = flag.Set(name, v)
		}
	}
	var failing []*sem.Term
	tb := &recordTB{name: t.Name()}
	rapid.Check(tb, func(rt *rapid.T) {
		p := c.Generate(rt, 5, "").(rules.Program)
		if appliesHd(p.Term) {
			failing = append(failing, p.Term)
			rt.Fatalf("%s applies hd", sem.Format(p.Term))
		}
	})
	if !tb.failed || len(failing) == 0 {
		t.Fatalf("no program of 1000 (200 under -short) applies hd (rapid: %v)", tb.msgs)
	}
	first, shrunk := failing[0], failing[len(failing)-1]
	for _, p := range failing { // every candidate that failed while shrinking
		if ty, _, err := l.TypeOf(p, interderive.Options{}); err != nil || ty == nil {
			t.Fatalf("the counterexample %s has no type (%v)", sem.Format(p), err)
		}
	}
	ty, _, _ := l.TypeOf(shrunk, interderive.Options{})
	t.Logf("%d failing programs while shrinking; first %s (%d nodes), shrunk %s (%d nodes) : %s",
		len(failing), sem.Format(first), nodes(first), sem.Format(shrunk), nodes(shrunk), sem.Format(ty))
	if sem.Format(first) != "(hd nil)" && nodes(shrunk) >= nodes(first) {
		t.Errorf("the shrunk counterexample %s is not smaller than the first, %s", sem.Format(shrunk), sem.Format(first))
	}
}

// appliesHd reports whether t has an application of hd, (app (hd) M).
func appliesHd(t *sem.Term) bool {
	if t.Op != sem.TermCon {
		return false
	}
	if t.Con.Name == "app" && t.Args[0].Op == sem.TermCon && t.Args[0].Con.Name == "hd" {
		return true
	}
	for _, a := range t.Args {
		if appliesHd(a) {
			return true
		}
	}
	return false
}

// nodes counts the nodes of t: constructors, variables, integers, atoms.
func nodes(t *sem.Term) int {
	n := 1
	for _, a := range t.Args {
		n += nodes(a)
	}
	return n
}

// recordTB is the rapid.TB of a check whose failure is the test's data: it records
// the failure instead of failing the test.
type recordTB struct {
	name   string
	failed bool
	msgs   []string
}

func (r *recordTB) Helper()                         {}
func (r *recordTB) Name() string                    { return r.name }
func (r *recordTB) Logf(format string, args ...any) {}
func (r *recordTB) Log(args ...any)                 {}
func (r *recordTB) Skipf(format string, args ...any) {
	r.msgs = append(r.msgs, "skip: "+fmt.Sprintf(format, args...))
}
func (r *recordTB) Skip(args ...any) { r.msgs = append(r.msgs, "skip: "+fmt.Sprint(args...)) }
func (r *recordTB) SkipNow()         {}
func (r *recordTB) Errorf(format string, args ...any) {
	r.failed, r.msgs = true, append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recordTB) Error(args ...any) { r.failed, r.msgs = true, append(r.msgs, fmt.Sprint(args...)) }
func (r *recordTB) Fatalf(format string, args ...any) {
	r.failed, r.msgs = true, append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recordTB) Fatal(args ...any) { r.failed, r.msgs = true, append(r.msgs, fmt.Sprint(args...)) }
func (r *recordTB) FailNow()          { r.failed = true }
func (r *recordTB) Fail()             { r.failed = true }
func (r *recordTB) Failed() bool      { return r.failed }
