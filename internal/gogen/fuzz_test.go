package gogen

import (
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// FuzzGenerated runs a program text, whatever it is, on every stage of the package
// that derive --go writes for one of a few rule files, in lockstep with the
// in-process stages: the same events, the same answer or the same kind of error (a
// syntax error at the same place, the same stuck shape, the same run-time message),
// and no crash of the generated binary (runBatch fails on a status other than 0, so
// a Go panic or fatal error fails the target). The files: exceptions.sem (a context
// rule, an answer, binders, letrec), bools.sem (an atom type), pairs.sem and stlc.sem
// (constructors written by shapes of their own, types), store.sem (sequences, read as
// lists, matched and built; a shape with a sequence; a context captured),
// callcc.sem (contexts captured and plugged), letrec.sem (binders that are sequences,
// of items that bind in each other; shapes that write a sequence among other items)
// and numbers.sem (the number atom: fractions, inexact reals, integers as numbers).
// The seeds are each file's
// corpus, a few malformed texts and what the target found; go test runs them, and
//
//	go test -run XXX -fuzz FuzzGenerated ./internal/gogen
//
// searches further (each input runs the binary once a stage: about a hundred inputs a
// second).
func FuzzGenerated(f *testing.F) {
	files := []string{"testdata/rules/exceptions.sem", "testdata/rules/bools.sem", "testdata/rules/pairs.sem", "testdata/rules/stlc.sem", "testdata/rules/store.sem", "testdata/rules/callcc.sem", "testdata/rules/letrec.sem", "testdata/rules/numbers.sem"}
	langs := make([]*sem.Language, len(files))
	bins := make([]string, len(files))
	for i, file := range files {
		langs[i] = loadRules(f, file)
		progs := corpus(f, file)
		if len(progs) == 0 {
			f.Fatalf("no corpus for %s", file)
		}
		for _, p := range progs {
			f.Add(uint8(i), p.src)
		}
		bins[i] = build(f, file)
	}
	for _, s := range []string{"(", ")", "(app", "(lam x)", "(raise)", "(handle 1 2 3)", "x", "(app (lam x (app x x)) (lam x (app x x)))", "(letrec f x (app f x) (app f 0))", "99999999999999999999", "(add 1 (raise (lam x x)))", "; only a comment", "true", "(\"a\")", "(if true 1)",
		// Found by the target: a string left open inside a list left open. sem's
		// reader reports the list, the first error in source order; the generated
		// reader stopped at the string, the first it met (fixed: it goes on past an
		// error, as sem's does).
		"(\"000000000000", "(app (lam x x) \"a\\q\")", "(app ) )",
		// numbers.sem's literals, and letrec.sem's configurations and items.
		"(+ 1/2 0.5)", "(/ 4 -6)", "(* 1e308 10.0)", "-0.0", "(sqrt 1/0)", "(- 0/5 +3)", "1.", ".5",
		"((store) (output) (letrec ((x y) (y 1)) x))", "((store (x 1)) (output) x)", "((store) (output) (λ (x x) x))", "((store) (output 1 2) (begin 1))"} {
		for i := range files {
			f.Add(uint8(i), s)
		}
	}
	const fuel = 500
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		if strings.Contains(src, "\f") || strings.TrimSpace(src) == "" {
			t.Skip("a form feed separates the programs of a batch, and a blank one is none")
		}
		i := int(which) % len(files)
		for _, stage := range Stages {
			want := runInProcess(langs[i], stage, src, fuel)
			got := runBatch(t, bins[i], stage, []program{{"fuzz", src}}, fuel, true)
			if d := agree(want, got[0]); d != "" {
				t.Errorf("%s on %s: %s\nprogram: %q", files[i], stage, d, src)
			}
		}
	})
}
