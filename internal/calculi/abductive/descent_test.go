package abductive_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	calculus "github.com/interderive/interderive/internal/calculi/abductive"
)

// descent is linear regression by n steps of numerical gradient descent (the corpus's
// linear-regression.abd has n = 2): the steps nested n deep, since the calculus has
// no recursion.
func descent(n int) string {
	return `let model x:F = {1} * x + {0} in
let f @ p = model in
let loss q:V = (f q 1 - 3) * (f q 1 - 3) + (f q 2 - 5) * (f q 2 - 5) in
let h = 0.5 in
let grad q:V = (\e:V. ((loss (q + h * e) - loss q) / h) * e) +L 0 * q in
let step q:V = q + -0.0625 * grad q in
f (` + strings.Repeat("step (", n) + "p" + strings.Repeat(")", n) + `) 3`
}

// TestDescentLinear: n steps of gradient descent on a model of two parameters take a
// number of contractions linear in n (each step the same number more) on every
// stage, and two steps give the corpus's answer (6.515625, derived in
// testdata/abductive/linear-regression.abd).
func TestDescentLinear(t *testing.T) {
	all := stages(t)
	var counts []int
	for n := 1; n <= 3; n++ {
		ref := lockstep(t, load(t, descent(n)), all, interderive.Options{})
		if n == 2 && ref.out.Observation != "6.515625" {
			t.Errorf("two steps: %s, want 6.515625", ref.out.Observation)
		}
		counts = append(counts, len(ref.rules))
	}
	for i := 2; i < len(counts); i++ {
		if counts[i]-counts[i-1] != counts[1]-counts[0] {
			t.Errorf("contractions for 1 ... 3 steps: %v, not linear", counts)
		}
	}
}

// BenchmarkDescent runs n steps of gradient descent on each refocused stage: the time
// per step should not grow with n (go test -bench Descent ./internal/calculi/abductive/).
func BenchmarkDescent(b *testing.B) {
	for _, s := range calculi.Stages()[2:] {
		if !calculus.Calculus.Supports(s) {
			continue // a stage after interp that the calculus has not (compile)
		}
		for _, n := range []int{10, 100, 1000} {
			p := load(b, descent(n))
			b.Run(s.Name()+"/"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					if _, err := p.Run(s, "labelled", interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
