package dplcases

import (
	"testing"

	"github.com/interderive/interderive/dpl"
)

// Program parses and elaborates a closed program, failing the test on an error.
func Program(t testing.TB, src string) dpl.Term {
	t.Helper()
	p, err := dpl.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	e, _, err := dpl.Check(p)
	if err != nil {
		t.Fatalf("check %q: %v", src, err)
	}
	return e
}

// Open parses and elaborates an open term whose free variables rho gives values.
func Open(t testing.TB, rho map[string]dpl.Term, src string) dpl.Term {
	t.Helper()
	p, err := dpl.ParseGenerated([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	e, _, err := dpl.CheckIn(func(x string) (dpl.Type, bool) {
		if v, ok := rho[x]; ok {
			return dpl.TypeOfValue(v)
		}
		return nil, false
	}, p)
	if err != nil {
		t.Fatalf("check %q: %v", src, err)
	}
	return e
}

// Expected parses an expected term (which may hold generated names) without checking
// it.
func Expected(t testing.TB, src string) dpl.Term {
	t.Helper()
	p, err := dpl.ParseGenerated([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return p
}
