package driver

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

func TestDPLLanguage(t *testing.T) {
	l := DPL()
	if l.Name() != "dpl" || l.DefaultVariant() != "tape" || !slices.Equal(l.Variants(), []string{"tape", "pruned", "figure6"}) ||
		!slices.Equal(l.Stages(), []string{"reduction", "closures", "machine", "cps2", "interp"}) {
		t.Fatalf("dpl: %s %v %s %v", l.Name(), l.Variants(), l.DefaultVariant(), l.Stages())
	}
	for _, tt := range []struct{ src, phase string }{{"1 +", "syntax"}, {"1 + ()", "type"}} {
		_, err := l.Load([]byte(tt.src))
		var le *LoadError
		if !errors.As(err, &le) || le.Phase != tt.phase {
			t.Errorf("Load(%q): %v, want a %s error", tt.src, err, tt.phase)
		}
	}
}

func TestDPLRun(t *testing.T) {
	tests := []struct {
		src, observation, value string
		steps                   int
	}{
		// rd, sym/op, then the derivative's let, op, let, let, fst, let, snd, let, plus.
		{"1.rd[2](x:real. x * x)", "4", "4", 11},
		{"<1, ()>", "<1, ()>", "<1, ()>", 0},
		{"1 + log(0)", "undefined", "undefined: log(0)", 1},
		{"1.rd[0](x:real. if x <. 0 then 0 else x)", "undefined", "undefined: lt(<0, 0>)", 2},
	}
	for _, tt := range tests {
		p, err := DPL().Load([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		for _, variant := range DPL().Variants() {
			out, err := p.Run("reduction", variant, interderive.Options{})
			if err != nil || out.Observation != tt.observation || out.Value != tt.value || out.Steps != tt.steps {
				t.Errorf("%s/%s: %+v (%v), want %s / %s in %d steps", tt.src, variant, out, err, tt.observation, tt.value, tt.steps)
			}
		}
	}
	p, _ := DPL().Load([]byte("letrec f(x:real):real = f(x) in f(1)"))
	if _, err := p.Run("reduction", "pruned", interderive.Options{Fuel: 50}); !IsFuel(err) {
		t.Errorf("a divergent program: %v, want out of fuel", err)
	}
	if _, err := p.Run("reduction", "forward", interderive.Options{}); err == nil {
		t.Errorf("an unknown strategy ran")
	}
	if _, err := p.Run("machine", "pruned", interderive.Options{}); err == nil {
		t.Errorf("an unknown stage ran")
	}
}

// TestDPLTrace: the trace shows every step, the nested symbolic evaluation indented
// under the rd that starts it, and the trace term and derivative of every rd.
func TestDPLTrace(t *testing.T) {
	p, err := DPL().Load([]byte("1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	out, err := p.Trace(&b, "reduction", "pruned", interderive.Options{})
	if err != nil || out.Observation != "1" {
		t.Fatalf("%+v (%v)", out, err)
	}
	run, _ := p.Run("reduction", "pruned", interderive.Options{})
	if run != out {
		t.Errorf("trace outcome %+v, run outcome %+v", out, run)
	}
	for _, want := range []string{
		"differentiation pruned, stage reduction",
		"step 1: rd\n  context    []\n",
		"  | step 2: sym/rd   (layer 1, symbolic)\n  |   context    mul(<x, []>)\n  |   redex      1.rd[1](y:real. x + y)\n",
		"  |   | step 3: sym/plus   (layer 2, symbolic)\n",
		"  |   trace      x + y\n  |   derivative 0 + 1\n  |   trace +=   let s#1:real = 0 + 1 in\n",
		"  trace      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
		"\nanswer     1\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the trace lacks %q:\n%s", want, b.String())
		}
	}
}

// TestDPLTraceDerived: every derived stage traces the program of TestDPLTrace as its
// lane of the side-by-side trace, and --symbolic lists its rd's as they complete. The
// contractions are the reference semantics' (TestDPLTrace): rd, then in the rd's
// symbolic layer sym/rd, whose own layer traces x + y (sym/plus); the inner rd sits in
// the nontrivial context mul(<x, []>), so Figure 5 evaluates its derivative 0 + 1
// (plus, contraction 4) before the inner rd is complete; then mul(<x, s#1>) ends the
// outer trace (sym/op, 5), and the outer rd is complete.
func TestDPLTraceDerived(t *testing.T) {
	p, err := DPL().Load([]byte("1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"))
	if err != nil {
		t.Fatal(err)
	}
	run, _ := p.Run("reduction", "pruned", interderive.Options{})
	for _, stage := range []string{"closures", "machine", "cps2", "interp"} {
		var b strings.Builder
		out, err := p.Trace(&b, stage, "pruned", interderive.Options{})
		if err != nil || out != run {
			t.Fatalf("%s: trace outcome %+v (%v), run outcome %+v", stage, out, err, run)
		}
		for _, want := range []string{
			"differentiation pruned, stage " + stage + "\n",
			"contraction 1: rd\n", "contraction 2: sym/rd\n", "contraction 3: sym/plus\n",
			"contraction 4: plus\n", "contraction 5: sym/op\n",
			"trace:      x + y\n", "derivative: 0 + 1\n",
			"trace:      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
			"\nanswer     1\n",
		} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the trace lacks %q:\n%s", stage, want, b.String())
			}
		}
		// Out of fuel after 3 contractions: the rows so far, and the fuel error.
		b.Reset()
		var fe *interderive.FuelError
		out, err = p.Trace(&b, stage, "pruned", interderive.Options{Fuel: 3})
		if !errors.As(err, &fe) || out.Steps != 3 || !strings.Contains(b.String(), "contraction 3: sym/plus\n") || strings.Contains(b.String(), "contraction 4") {
			t.Errorf("%s with fuel 3: %+v, %v\n%s", stage, out, err, b.String())
		}
		b.Reset()
		out, err = p.(SymbolicTracer).TraceSymbolic(&b, stage, "pruned", interderive.Options{})
		if err != nil || out != run {
			t.Fatalf("%s: symbolic trace outcome %+v (%v), run outcome %+v", stage, out, err, run)
		}
		for _, want := range []string{
			"\nrd (complete after contraction 4)\n  trace      x + y\n  derivative 0 + 1\n",
			"\nrd (complete after contraction 5)\n  trace      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
		} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the symbolic trace lacks %q:\n%s", stage, want, b.String())
			}
		}
	}
}

// TestMaxSource: a program past the size limit is refused before parsing, with a
// positioned message; one at the limit is parsed (here: a comment, then 1). The limit
// comes from the machine's memory, and admits the let-chains of 100,000 lets of
// TestLongLetChains (3 MB).
func TestMaxSource(t *testing.T) {
	if interderive.DefaultMemory() >= 2<<30 && MaxSource() < 4<<20 {
		t.Errorf("MaxSource() = %d with %d bytes of memory, below 4 MiB", MaxSource(), interderive.DefaultMemory())
	}
	limit := MaxSource()
	if testing.Short() {
		limit = 1 << 20 // the same check, against a smaller limit
	}
	for _, l := range Languages() {
		body := []byte("\n1")
		at := append(bytes.Repeat([]byte("-"), limit-len(body)), body...)
		if err := checkSizeAt(at, limit); err != nil {
			t.Errorf("%s: a program of exactly %d bytes: %v", l.Name(), limit, err)
		}
		if limit == MaxSource() {
			if _, err := l.Load(at); err != nil {
				t.Errorf("%s: a program of exactly MaxSource() bytes: %v", l.Name(), err)
			}
		}
		over := append(at, '\n')
		err := checkSizeAt(over, limit)
		if limit == MaxSource() {
			_, err = l.Load(over)
		}
		var le *LoadError
		var list interderive.ErrorList
		if !errors.As(err, &le) || !errors.As(err, &list) || len(list) != 1 || list[0].Pos != (interderive.Pos{Line: 2, Col: 2}) {
			t.Errorf("%s: %v, want a positioned syntax error at 2:2", l.Name(), err)
		}
	}
}
