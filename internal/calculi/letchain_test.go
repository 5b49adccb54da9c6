package calculi_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
)

// gradualLetChain is let x0 = 0 in let x1 = x0 + 1 in ... in x(k-1): k lets, each one
// more than the one before, so x(k-1) = k - 1.
func gradualLetChain(k int) string {
	var b strings.Builder
	b.WriteString("let x0 = 0 in ")
	for i := 1; i < k; i++ {
		fmt.Fprintf(&b, "let x%d = x%d + 1 in ", i, i-1)
	}
	fmt.Fprintf(&b, "x%d\n", k-1)
	return b.String()
}

// dplLetChain is the reverse-mode derivative at 1 of x ↦ x^(k+1), written as the
// straight-line program y0 = x, y1 = y0 * x, ..., yk = y(k-1) * x: d/dx x^(k+1) =
// (k+1) x^k, which is k + 1 at x = 1.
func dplLetChain(k int) string {
	var b strings.Builder
	b.WriteString("1.rd[1](x:real. let y0:real = x in ")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "let y%d:real = y%d * x in ", i, i-1)
	}
	fmt.Fprintf(&b, "y%d)\n", k)
	return b.String()
}

// TestLongLetChains: a generated straight-line program of 100,000 lets (2.6 and 3.2
// MB) loads — the parsers and checkers loop along the chain, and workbench.MaxSource
// admits it — and runs to its answer on the stages that run it in linear time; the
// reduction semantics, quadratic, runs the gradual chain to its answer at 2,000 lets
// and stops at its time limit at 100,000, cleanly.
func TestLongLetChains(t *testing.T) {
	k := 100_000
	if testing.Short() {
		// 10,000 lets already run the parsers', checkers' and stages' loops along the
		// chain; the full run covers 100,000 (and MaxSource admitting 3 MB).
		k = 10_000
	}
	w := newBench(t)
	tests := []struct {
		lang, variant, src, want string
		stages                   []string
	}{
		{"gtlc", "ed", gradualLetChain(k), strconv.Itoa(k - 1), []string{"closures", "machine", "cps2", "interp"}},
		{"gtlc", "ed", gradualLetChain(2000), "1999", []string{"reduction", "closures"}},
		{"dpl", "tape", dplLetChain(k), strconv.Itoa(k + 1), []string{"machine", "cps2", "interp"}},
	}
	if !testing.Short() {
		tests = append(tests, struct {
			lang, variant, src, want string
			stages                   []string
		}{"dpl", "tape", dplLetChain(k), strconv.Itoa(k + 1), []string{"closures"}})
	}
	for _, tt := range tests {
		c, p := load(t, w, tt.lang, tt.src)
		for _, name := range tt.stages {
			o, err := p.Run(stage(t, w, c, name), tt.variant, interderive.Options{})
			if err != nil || o.Observation != tt.want {
				t.Errorf("%s, %d bytes, on %s: %v (%v), want %s", tt.lang, len(tt.src), name, o.Observation, err, tt.want)
			}
		}
	}
	if testing.Short() {
		return
	}
	for _, tt := range []struct{ lang, variant, src string }{
		{"gtlc", "ed", gradualLetChain(k)},
		{"dpl", "tape", dplLetChain(k)},
	} {
		c, p := load(t, w, tt.lang, tt.src)
		if _, err := p.Run(stage(t, w, c, "reduction"), tt.variant, interderive.Options{Timeout: time.Second}); !errors.Is(err, interderive.ErrTimeout) {
			t.Errorf("%s on reduction: %v, want a timeout", tt.lang, err)
		}
	}
}
