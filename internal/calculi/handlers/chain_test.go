package handlers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// The gradient through a chain of n handled layers against its forward run, as a pair
// of Go benchmarks on the refocused stages, so that their ratio can be taken on one
// machine (the target: the gradient within 5× of the forward run), and the
// inference without a handler, for scale.
//
// Every program reads the layers' weight from the heap location a and leaves the
// chain's output in out. The gradient handles each layer as an operation fc whose
// backward clause is its reverse derivative (fc(x) = a · x, residual a); the forward
// run handles the same operations with a forwarding handler, whose forward clause
// computes the layer and whose backward clause propagates nothing ([0]); the
// inference runs the layers' forward computations with no rev handle at all.

// chain writes let h1 <= LAYER(x) in ... LAYER(h_{n-1}) in LAST(h_n) for layer(v) the
// layer on v.
func chain(b *strings.Builder, n int, layer func(v string) string, last func(v string) string) {
	prev := "x"
	for i := 1; i < n; i++ {
		fmt.Fprintf(b, "let h%d <= %s in ", i, layer(prev))
		prev = fmt.Sprintf("h%d", i)
	}
	b.WriteString(last(prev))
}

func fc(v string) string { return "fc(" + v + ")" }

// chainGradient is rev handle(1) <x>. let h1 <= fc(x) in ... fc(h_{n-1}) with the
// layer's clauses: the answer is a^n, and out = a^n.
func chainGradient(n int, a string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "op fc : real -> real\nheap a : real = %s\nheap out : real = 0\nrev handle(1) <x>. ", a)
	chain(&b, n, fc, fc)
	b.WriteString("\nwith { return o -> let u <= put[out](o) in [1]\n")
	b.WriteString("     ; fc(x) -> let w <= get[a]() in [<w * x, w>] | y, z -> [z * y] }\n")
	return b.String()
}

// chainForward is the same chain under the forwarding handler: the answer is 0 (no
// gradient flows back), and out = a^n.
func chainForward(n int, a string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "op fc : real -> real\nheap a : real = %s\nheap out : real = 0\nrev handle(1) <x>. ", a)
	chain(&b, n, fc, fc)
	b.WriteString("\nwith { return o -> let u <= put[out](o) in [0]\n")
	b.WriteString("     ; fc(x) -> let w <= get[a]() in [<w * x, ()>] | y, z -> [0] }\n")
	return b.String()
}

// chainInference is the layers' forward computations, let w <= get[a]() in [w * h],
// with no handler: the answer is a^n, and out = a^n.
func chainInference(n int, a string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "heap a : real = %s\nheap out : real = 0\nlet x <= [1] in ", a)
	layer := func(v string) string { return "(let w <= get[a]() in [w * " + v + "])" }
	chain(&b, n, layer, func(v string) string {
		return "let y <= " + layer(v) + " in let u <= put[out](y) in [y]"
	})
	b.WriteString("\n")
	return b.String()
}

// TestChainPrograms: the benchmarks' programs at small n answer as computed by hand
// (a = 2: the chain is x ↦ 2^n x, its output at 1 and its gradient 2^n; the
// forwarding handler's gradient is 0), on every stage.
func TestChainPrograms(t *testing.T) {
	w, c := bench(t)
	for _, x := range []struct {
		src, want string
	}{
		{chainGradient(1, "2"), "2 with a = 2, out = 2"},
		{chainGradient(2, "2"), "4 with a = 2, out = 4"},
		{chainGradient(3, "2"), "8 with a = 2, out = 8"},
		{chainForward(1, "2"), "0 with a = 2, out = 2"},
		{chainForward(3, "2"), "0 with a = 2, out = 8"},
		{chainInference(1, "2"), "2 with a = 2, out = 2"},
		{chainInference(3, "2"), "8 with a = 2, out = 8"},
	} {
		p := load(t, x.src)
		for _, s := range w.StagesOf(c) {
			out, err := p.Run(s, "tape", interderive.Options{})
			if err != nil || out.Observation != x.want {
				t.Errorf("%s on %s: %q, %v, want %q", strings.TrimSpace(x.src), s.Name(), out.Observation, err, x.want)
			}
		}
	}
}

// chainSizes are the chains' lengths.
var chainSizes = []int{10, 100, 1000}

// benchChain runs a chain program on the refocused stages.
func benchChain(b *testing.B, src func(n int, a string) string) {
	w, c := bench(b)
	for _, s := range w.StagesOf(c) {
		if s.Name() == "reduction" || s.Name() == "closures" {
			continue // not refocused: quadratic in the program's size
		}
		for _, n := range chainSizes {
			p := load(b, src(n, "1.0001"))
			b.Run(fmt.Sprintf("stage=%s/n=%d", s.Name(), n), func(b *testing.B) {
				for b.Loop() {
					if _, err := p.Run(s, "tape", interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkChainGradient is the gradient through n handled layers.
func BenchmarkChainGradient(b *testing.B) { benchChain(b, chainGradient) }

// BenchmarkChainForward is the forward run of the same n layers under a forwarding
// handler.
func BenchmarkChainForward(b *testing.B) { benchChain(b, chainForward) }

// BenchmarkChainInference is the n layers' forward computations without a handler.
func BenchmarkChainInference(b *testing.B) { benchChain(b, chainInference) }
