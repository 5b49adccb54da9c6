package differentiable

import (
	"errors"
	"github.com/interderive/interderive/internal/testenv"
	"math"
	"os"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/workbench"
)

// TestTapeAgreesWithPruned runs every differentiable program of the corpus and of the
// shared examples on every stage under the tape strategy and under pruned (the
// default): the same answers, values to a relative 1e-12 (sums associate differently),
// and the same definedness; or both out of fuel.
func TestTapeAgreesWithPruned(t *testing.T) {
	w := newBench(t)
	dirs := []string{"../../../testdata/differentiable"}
	if _, err := os.Stat("../../../../shared/examples/differentiable"); err == nil {
		dirs = append(dirs, "../../../../shared/examples/differentiable")
	}
	files, err := w.SourceFiles(dirs)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := Calculus.Load(ext, src)
		if err != nil {
			continue // the te-* files: a type error, nothing runs
		}
		x, err := workbench.ParseExpectations(src, Calculus)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for j, st := range stages() {
			if !testenv.InTurn(i, j, len(stages())) {
				continue // under -short, each file on one stage in turn (the full run: every stage)
			}
			opts := interderive.Options{Fuel: x.Fuel}
			outP, errP := prog.Run(st, dpl.Pruned.Name(), opts)
			outT, errT := prog.Run(st, dpl.Tape.Name(), opts)
			want, got := answer(outP), answer(outT)
			ran++
			switch {
			case errP != nil || errT != nil:
				if !errors.Is(errP, interderive.ErrOutOfFuel) || !errors.Is(errT, interderive.ErrOutOfFuel) {
					t.Errorf("%s, %s: pruned: %v, tape: %v", file, st.Name(), errP, errT)
				}
			case (want.Value == nil) != (got.Value == nil):
				t.Errorf("%s, %s: pruned: %s, tape: %s", file, st.Name(), want, got)
			case want.Value != nil && !closeDPL(want.Value, got.Value, 1e-12):
				t.Errorf("%s, %s: pruned: %s, tape: %s", file, st.Name(), want, got)
			}
		}
	}
	if ran == 0 {
		t.Fatal("no program ran")
	}
}

// closeDPL compares two closed values: the same shape, and reals within a relative
// tol (absolute below 1).
func closeDPL(a, b dpl.Term, tol float64) bool {
	switch a := a.(type) {
	case *dpl.RealLit:
		b, ok := b.(*dpl.RealLit)
		return ok && math.Abs(a.R-b.R) <= tol*math.Max(1, math.Max(math.Abs(a.R), math.Abs(b.R)))
	case *dpl.UnitLit:
		_, ok := b.(*dpl.UnitLit)
		return ok
	case *dpl.Pair:
		b, ok := b.(*dpl.Pair)
		return ok && closeDPL(a.X, b.X, tol) && closeDPL(a.Y, b.Y, tol)
	}
	return false
}

// TestCloseDPL: the comparison itself.
func TestCloseDPL(t *testing.T) {
	r := func(x float64) dpl.Term { return &dpl.RealLit{R: x} }
	p := func(a, b dpl.Term) dpl.Term { return &dpl.Pair{X: a, Y: b} }
	tests := []struct {
		a, b dpl.Term
		want bool
	}{
		{r(1), r(1 + 1e-13), true},
		{r(1), r(1 + 1e-11), false},
		{r(1e10), r(1e10 + 1e-3), true}, // relative 1e-13
		{r(0), r(1e-13), true},
		{p(r(1), &dpl.UnitLit{}), p(r(1), &dpl.UnitLit{}), true},
		{p(r(1), r(2)), p(r(1), &dpl.UnitLit{}), false},
		{p(r(1), r(2)), r(1), false},
	}
	for _, tt := range tests {
		if got := closeDPL(tt.a, tt.b, 1e-12); got != tt.want {
			t.Errorf("closeDPL(%s, %s) = %v", dpl.Format(tt.a), dpl.Format(tt.b), got)
		}
	}
}
