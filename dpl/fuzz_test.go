package dpl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/testenv"
)

// fuzzSeeds are programs and near-programs, besides the example files.
var fuzzSeeds = []string{
	"1.rd[1](x:real. x * 1.rd[1](y:real. x + y))",
	"letrec f(x:real):real = 1.rd[1](y:real. x + y) in 1.rd[1](x:real. x + f(x))",
	"1.fd[3](x:real. x * x)",
	"grad[<1, 2, 3>](p:real * real * real. let <a:real, b:real, c:real> = p in a * b * c)",
	"let f(x:real):real = x / 2 - -x in f(1e-3) <. 0.5",
	"if x <. 0 then 0 else x",
	"-2.rd[1](x:real. -x)",
	"mul_rr(<<<2, 3>, 5>, <7, 11>>)",
	"dprod2(<1, 2>, <3, 4>)",
	"let x = () in <x, (), <>>",
	"1.rd[2](x:real. x).fd[3](y:real. y)",
	"let <> = () in 1",
	"x#1 + y",
	"1.2.3",
	"1e",
	"((((",
	"<1, 2",
	"\xff\x00",
	"",
}

// FuzzParseDPL: the parser and the type checker never panic; errors are positioned
// lists; an accepted program prints in a form that parses back to the same term, and
// type-checks to the same type after printing its elaboration.
func FuzzParseDPL(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	testenv.AddFiles(f, "../testdata/differentiable/*.dpl", "../testdata/differentiable/examples/*.dpl")
	f.Fuzz(func(t *testing.T, src []byte) {
		e, err := dpl.Parse(src)
		if err != nil {
			var list interderive.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || len(list) > 10 {
				t.Fatalf("Parse(%q): error %v is not an ErrorList of 1 to 10 errors", src, err)
			}
			for _, e := range list {
				if !e.Pos.IsValid() {
					t.Fatalf("Parse(%q): an error without a position: %v", src, e)
				}
			}
			if e != nil {
				t.Fatalf("Parse(%q) returned a tree and an error", src)
			}
			return
		}
		out := dpl.Format(e)
		if strings.Contains(out, "...") {
			t.Fatalf("Parse(%q) accepted a tree too deep to print", src)
		}
		again, err := dpl.ParseGenerated([]byte(out))
		if err != nil {
			t.Fatalf("Parse(%q) prints as %q, which does not parse: %v", src, out, err)
		}
		if !dpl.AlphaEqual(e, again) {
			t.Fatalf("Parse(%q) prints as %q, which parses differently: %s", src, out, dpl.Format(again))
		}
		if out2 := dpl.Format(again); out2 != out {
			t.Fatalf("Format is not stable: %q then %q", out, out2)
		}
		elab, ty, err := dpl.Check(e)
		if err != nil {
			var list interderive.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || !list[0].Pos.IsValid() {
				t.Fatalf("Check(%q): %v is not a positioned error", src, err)
			}
			return
		}
		// Types share their parts (let a = <b, b> in ...): the elaboration of a short
		// program can print in exponentially many bytes. Past a mebibyte, skip the round
		// trip.
		text, err := dpl.FormatBounded(elab, interderive.PrintBudget{Max: 1 << 20})
		if errors.Is(err, interderive.ErrOutputLimit) {
			return
		}
		back, err := dpl.ParseGenerated([]byte(text))
		if err != nil {
			t.Fatalf("the elaboration of %q prints as %q, which does not parse: %v", src, text, err)
		}
		if _, ty2, err := dpl.Check(back); err != nil || !dpl.Equal(ty, ty2) {
			t.Fatalf("the elaboration of %q has type %s, but checks again as %v (%v)", src, dpl.FormatType(ty), ty2, err)
		}
	})
}
