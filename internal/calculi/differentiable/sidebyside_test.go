package differentiable

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/reduction"
)

// rdRows is, for a lane, the rows where it reports an rd's trace term, in order.
func rdRows(l workbench.Lane) []int {
	var rows []int
	for i, steps := range l.Steps {
		for _, s := range steps {
			if strings.HasPrefix(strings.TrimLeft(s, "| "), "trace:") {
				rows = append(rows, i)
			}
		}
	}
	return rows
}

// checkDPLSideBySide checks what holds of every side-by-side trace: a lane per stage,
// the same contractions in every lane (the stages run in lockstep), a row per
// contraction and one after the last, the same answer, and every rd reported in the
// same row by every lane (when its contraction is complete).
func checkDPLSideBySide(t *testing.T, s workbench.SideBySide) {
	t.Helper()
	var stages []string
	for _, st := range ListedStages() {
		stages = append(stages, st.Name())
	}
	if len(s.Lanes) != len(stages) {
		t.Fatalf("%d lanes, want %d", len(s.Lanes), len(stages))
	}
	ref := s.Lanes[0]
	for i, l := range s.Lanes {
		if l.Stage != stages[i] {
			t.Errorf("lane %d is %s, want %s", i, l.Stage, stages[i])
		}
		if !slices.Equal(l.Rules, ref.Rules) {
			t.Errorf("%s: rules %v, want the reduction semantics' %v", l.Stage, l.Rules, ref.Rules)
		}
		if len(l.Steps) != len(l.Rules)+1 {
			t.Errorf("%s: %d rows for %d contractions", l.Stage, len(l.Steps), len(l.Rules))
		}
		if l.Answer != ref.Answer || l.Error != ref.Error {
			t.Errorf("%s: answer %q (error %q), want %q (error %q)", l.Stage, l.Answer, l.Error, ref.Answer, ref.Error)
		}
		if got, want := rdRows(l), rdRows(ref); !slices.Equal(got, want) {
			t.Errorf("%s: rd reported in rows %v, the reduction semantics in %v", l.Stage, got, want)
		}
	}
	for i := range s.Rows() {
		if _, agree := s.Rule(i); !agree {
			t.Errorf("row %d: the stages disagree", i+1)
		}
	}
}

// TestDPLSideBySide runs small programs on every stage side by side. The answers are
// derived by hand; the traces are the spec's (§6).
func TestDPLSideBySide(t *testing.T) {
	tests := []struct {
		name, src, ad string
		answer        string   // every lane's
		rules         []string // the first contractions
		whole         bool     // rules are all of them
		traces        []string // the reduction lane's rd, in order
		lines         []string // lines the reduction lane shows
	}{
		{
			// d/dx x² at 3 = 2·3 = 6. Contractions: rd, its body's sym/op (x * x is
			// mul(<x, x>), whose trace is itself), then the derivative let x = 3 in
			// let y = mul_r(<<x, x>, 1>) in ... fst + snd: let, op, let, let, fst, let,
			// snd, let, plus.
			name: "square", src: "1.rd[3](x:real. x * x)", ad: "pruned", answer: "6", whole: true,
			rules:  []string{"rd", "sym/op", "let", "op", "let", "let", "fst", "let", "snd", "let", "plus"},
			traces: []string{"mul(<x, x>)"},
			lines:  []string{"decompose: []  with redex  1.rd[3](x:real. mul(<x, x>))", "| decompose: []  with redex  mul(<x, x>)   (layer 1, symbolic)", "contraction 1 (rd) completes", "plug:      6"},
		},
		{
			// x · (d/dy (x + y)) = x · 1, and d/dx of that at 1 is 1 (not 2: no
			// perturbation confusion).
			name: "nested rd", src: "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", ad: "pruned", answer: "1",
			traces: []string{"x + y", "let s#1:real = 0 + 1 in mul(<x, s#1>)"},
		},
		{
			name: "gradient pair", src: "1.rd[<2, 3>](z:real * real. fst(z) * snd(z))", ad: "figure6", answer: "<3, 2>",
		},
		{
			// d/dx (x² + x) at 3 = 7. The let's bound x * x is a redex in a nontrivial
			// context: Figure 5 traces it (sym/op), evaluates it in a nested ordinary
			// layer (op, 9) and binds a fresh s; then the let itself grows the trace.
			name: "let in rd", src: "1.rd[3](x:real. let y:real = x * x in y + x)", ad: "pruned", answer: "7",
			rules:  []string{"rd", "sym/op", "op", "sym/let", "sym/plus"},
			traces: []string{"let s#1:real = mul(<x, x>) in let y:real = s#1 in y + x"},
			lines:  []string{"| | decompose: []  with redex  mul(<3, 3>)   (layer 2, ordinary)", "| trace +=   let s#1:real = mul(<x, x>) in", "| trace +=   let y:real = s#1 in"},
		},
		{
			// A condition decided by the current value (3 <. 0 is false), never traced.
			name: "if in rd", src: "1.rd[3](x:real. if x <. 0 then 0 else x * x)", ad: "pruned", answer: "6",
			traces: []string{"mul(<x, x>)"},
		},
		{
			// A call in a nontrivial context: Figure 5 nests a symbolic layer and an
			// ordinary one. d/dx (x² + x) at 2 = 5.
			name: "call in context", src: "letrec sq(a:real):real = a * a in 1.rd[2](x:real. sq(x) + x)", ad: "pruned", answer: "5",
		},
		{
			// The trace log(x) is fine; its derivative's log_r(<-1, 1>) is undefined, as
			// log is at -1.
			name: "undefined", src: "1.rd[-1](x:real. log(x))", ad: "pruned", answer: "undefined: log_r(<-1, 1>)",
			traces: []string{"log(x)"},
		},
	}
	w := newBench(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := load(t, tt.src)
			s, err := w.SideBySide(Calculus, prog, tt.ad, "", interderive.Options{Fuel: 10_000})
			if err != nil {
				t.Fatal(err)
			}
			checkDPLSideBySide(t, s)
			for _, l := range s.Lanes {
				if l.Answer != tt.answer {
					t.Errorf("%s: answer %q, want %q (error %q)", l.Stage, l.Answer, tt.answer, l.Error)
				}
			}
			red := s.Lanes[0]
			if got := red.Rules[:min(len(tt.rules), len(red.Rules))]; !slices.Equal(got, tt.rules) || tt.whole && len(red.Rules) != len(tt.rules) {
				t.Errorf("rules %v, want %v", red.Rules, tt.rules)
			}
			var shown []string
			for _, steps := range red.Steps {
				for _, line := range steps {
					shown = append(shown, strings.TrimLeft(line, "| "))
				}
			}
			// The reduction lane shows every rd's trace and derivative as the reference
			// semantics reports them.
			var traces []string
			ad, _ := dpl.LookupDifferentiator(tt.ad)
			_, _ = reduction.EvalDiffHooks(ad, prog.term, interderive.Options{Fuel: 10_000}, reduction.DiffHooks{Step: func(ev reduction.DiffEvent) {
				if ev.Trace == nil {
					return
				}
				traces = append(traces, dpl.Format(ev.Trace))
				for _, want := range []string{"trace:      " + dpl.Format(ev.Trace), "derivative: " + dpl.Format(ev.Derivative)} {
					if !slices.Contains(shown, want) {
						t.Errorf("the reduction lane lacks %q", want)
					}
				}
			}})
			if tt.traces != nil && !slices.Equal(traces, tt.traces) {
				t.Errorf("traces %q, want %q", traces, tt.traces)
			}
			for _, want := range tt.lines {
				if !slices.ContainsFunc(red.Steps, func(steps []string) bool { return slices.Contains(steps, want) }) {
					t.Errorf("the reduction lane lacks the line %q", want)
				}
			}

			// The JSON encodes and decodes to the same trace.
			js, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var back workbench.SideBySide
			if err := json.Unmarshal(js, &back); err != nil {
				t.Fatal(err)
			}
			if back.Program != s.Program || len(back.Lanes) != len(s.Lanes) || !slices.Equal(back.Lanes[2].Rules, s.Lanes[2].Rules) {
				t.Errorf("JSON round trip lost the trace:\n%s", js)
			}

			// The text names every contraction, no disagreement, every lane's answer.
			var text bytes.Buffer
			s.WriteText(&text)
			if strings.Contains(text.String(), "DISAGREE") || !strings.Contains(text.String(), "contraction 1: "+red.Rules[0]) ||
				!strings.Contains(text.String(), "interp     "+tt.answer) {
				t.Errorf("text:\n%s", text.String())
			}

			// The page has a column per stage and a row per contraction.
			var page bytes.Buffer
			if err := s.WriteHTML(&page); err != nil {
				t.Fatal(err)
			}
			html := page.String()
			for _, want := range []string{"<th>reduction</th>", "<th>machine</th>", "<th>interp</th>", "<b>rd</b>", `id="row` + strconv.Itoa(len(red.Rules)) + `"`} {
				if !strings.Contains(html, want) {
					t.Errorf("the page lacks %q", want)
				}
			}
		})
	}
}

// TestDPLSideBySideCorpus: on the corpus's differentiable programs, the lanes agree
// and report every rd in the same row. The fuel is small, as the reduction lane shows
// the whole term at every step: a program that runs out stops in every lane after the
// same contractions; and each item is printed within 64 KiB (shared-tuple.dpl's terms
// print in 2^40 leaves).
func TestDPLSideBySideCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	w := newBench(t)
	files, err := w.SourceFiles([]string{"../../../testdata/differentiable"})
	if err != nil {
		t.Fatal(err)
	}
	rds := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := Calculus.Load(ext, src)
		if err != nil {
			continue // a type error, on purpose
		}
		s, err := w.SideBySide(Calculus, prog, dpl.Pruned.Name(), "", interderive.Options{Fuel: 500, Output: 64 << 10})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(file, func(t *testing.T) { checkDPLSideBySide(t, s) })
		rds += len(rdRows(s.Lanes[0]))
	}
	if rds < 20 {
		t.Errorf("only %d rd completed within the fuel: the check says little", rds)
	}
}

// TestDPLSideBySideErrors: an unknown strategy is refused; a run out of fuel is an
// error in every lane, after the same contractions.
func TestDPLSideBySideErrors(t *testing.T) {
	w := newBench(t)
	prog := load(t, "letrec f(n:real):real = f(n) in 1.rd[1](x:real. f(x))")
	if _, err := w.SideBySide(Calculus, prog, "nowhere", "", interderive.Options{}); err == nil {
		t.Error("an unknown strategy was accepted")
	}
	s, err := w.SideBySide(Calculus, prog, "pruned", "", interderive.Options{Fuel: 50})
	if err != nil {
		t.Fatal(err)
	}
	checkDPLSideBySide(t, s)
	for _, l := range s.Lanes {
		if !strings.Contains(l.Error, "out of fuel after 50 contractions") || len(l.Rules) != 50 {
			t.Errorf("%s: error %q after %d contractions", l.Stage, l.Error, len(l.Rules))
		}
	}
}
