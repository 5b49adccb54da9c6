package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// letChain is SDPL-Meta's let-chain y_i = y_(i-1) * x, i = 1..k, differentiated at
// x = 1: y_k = x^(k+1), so d/dx at 1 is k + 1.
func letChain(k int) string {
	var b strings.Builder
	b.WriteString("1.rd[1](x:real. let y0:real = x in ")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "let y%d:real = y%d * x in ", i, i-1)
	}
	fmt.Fprintf(&b, "y%d)", k)
	return b.String()
}

// TestDifferentiableDefaults: the default strategy (tape, spec §4) runs ordinary
// programs; a strategy that gives up for size is a resource limit (exit status 3)
// whose message names the strategy that would run the program.
func TestDifferentiableDefaults(t *testing.T) {
	chain := write(t, "chain.dpl", letChain(400))
	if stdout, stderr, code := runCmd("run", chain); code != 0 || stdout != "401\n" {
		t.Errorf("the k = 400 let-chain under the default: exit %d, %q %s, want 401", code, stdout, stderr)
	}
	_, stderr, code := runCmd("run", "--ad", "pruned", chain)
	if code != exitFuel || !strings.Contains(stderr, "--ad tape") {
		t.Errorf("the k = 400 let-chain under pruned: exit %d, %s; want 3 and a hint naming --ad tape", code, stderr)
	}
	// pow(x, n) = x^n by recursion on n: three steps for n = 3. d/dx x^3 = 3x^2 is 12 at
	// 2; nested, d/dy of (d/dx x^3 at y) = 6y is 12 at y = 2.
	const pow = "letrec pow(p:real * real):real = if snd(p) <. 0.5 then 1 else fst(p) * pow(<fst(p), snd(p) + -1>) in "
	for _, tt := range []struct{ src, want string }{
		{pow + "grad[2](x:real. pow(<x, 3>))", "12"},
		{pow + "grad[2](y:real. grad[y](x:real. pow(<x, 3>)))", "12"},
	} {
		path := write(t, "pow.dpl", tt.src)
		for _, stage := range []string{"reduction", "closures", "machine", "cps2", "interp"} {
			if stdout, stderr, code := runCmd("run", "--stage", stage, path); code != 0 || strings.TrimSpace(stdout) != tt.want {
				t.Errorf("%s on %s: exit %d, %q %s, want %s", tt.src, stage, code, stdout, stderr, tt.want)
			}
		}
	}
}

// TestExitStatuses: a stuck run is an internal error (4), every resource limit is 3.
func TestExitStatuses(t *testing.T) {
	for _, tt := range []struct {
		err  error
		code int
	}{
		{interderive.Stuck("1 1", "application of a non-function"), exitStuck},
		{&interderive.FuelError{Steps: 3}, exitFuel},
		{&interderive.TimeoutError{Steps: 3}, exitFuel},
		{&interderive.DepthError{What: "recursion", Limit: 3}, exitFuel},
		{errors.New("something else"), exitStatic},
	} {
		var e *exitError
		a := &app{stderr: io.Discard}
		if err := a.finish("p", tt.err); !errors.As(err, &e) || e.code != tt.code {
			t.Errorf("%v: %v, want exit status %d", tt.err, err, tt.code)
		}
	}
}
