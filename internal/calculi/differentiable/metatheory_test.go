package differentiable

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/interderive/interderive/dpl"
)

// zeroAD is a differentiation strategy whose derivatives are all zero.
type zeroAD struct{}

func (zeroAD) Name() string { return "zero" }
func (zeroAD) R(_ dpl.DiffEnv, _, _ dpl.Term, _ string, t dpl.Type, _ dpl.Term) (dpl.Term, error) {
	return dpl.Zero(t), nil
}

// TestMetatheoryFiniteDifferences: every strategy's derivatives agree with central
// differences; a strategy whose derivatives are zero does not, except where the
// derivative is undefined (on the diagonal of <.), which is not judged.
func TestMetatheoryFiniteDifferences(t *testing.T) {
	for _, c := range []struct {
		ty, body, point string
		zeroFails       bool
	}{
		{"real", "x * x", "3", true},
		{"real", "sin(x) * exp(x)", "0.5", true},
		{"real * real", "let <a:real, b:real> = x in a * b + a", "<2, 3>", true},
		{"real", "if x <. 0 then 0 - x else x", "0", false}, // <. on the diagonal: undefined
		{"real", "if x <. 0 then 0 - x else x", "2", true},
	} {
		ty, err := dpl.ParseType(c.ty)
		if err != nil {
			t.Fatal(err)
		}
		gamma := func(x string) (dpl.Type, bool) { return ty, x == "x" }
		parse := func(src string, gamma dpl.TypeEnv) dpl.Term {
			m, err := dpl.Parse([]byte(src))
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			m, _, err = dpl.CheckIn(gamma, m)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			return m
		}
		body, point := parse(c.body, gamma), parse(c.point, nil)
		for _, ad := range dpl.Differentiators() {
			if err := FiniteDifferences(ad, body, ty, point, 20_000); err != nil {
				t.Errorf("%s at %s: %v", c.body, c.point, err)
			}
		}
		err = FiniteDifferences(zeroAD{}, body, ty, point, 20_000)
		if c.zeroFails != (err != nil) {
			t.Errorf("%s at %s, zero derivatives: %v, want an error: %v", c.body, c.point, err, c.zeroFails)
		}
	}
}

// TestMetatheoryInterpolation: Proposition 3.5 holds on the example corpus.
func TestMetatheoryInterpolation(t *testing.T) {
	files, _ := filepath.Glob("../../../testdata/differentiable/examples/*.dpl")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := Calculus.Load(ext, src)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, ad := range dpl.Differentiators() {
			if err := Interpolation(ad, prog.(program).term, 100_000); err != nil {
				t.Errorf("%s: %v", filepath.Base(file), err)
			}
		}
	}
}
