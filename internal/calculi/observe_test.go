package calculi_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/workbench"
)

// watcher records what a run shows to its observer: the lines of its steps and the
// reports, in order.
type watcher struct {
	steps, reports []string
}

func (w *watcher) Step(line string)         { w.steps = append(w.steps, line) }
func (w *watcher) About(n int, line string) { w.steps = append(w.steps, fmt.Sprint(n, " ", line)) }
func (w *watcher) Report(_ int, label string, _ any, line string) {
	w.reports = append(w.reports, label+": "+line)
}

// reportsOnly is a watcher that wants only the reports.
type reportsOnly struct{ watcher }

func (*reportsOnly) ReportsOnly() {}

// TestReportsOnly: an observer that wants only reports (interderive.ReportObserver, as
// lockstep's is) is shown no step, on every stage of every calculus, and gets the
// reports an observer of everything gets, after the same contractions. By hand: the
// gradual and λ programs report nothing; the differentiable one evaluates two rd, each
// reporting its trace and its derivative: four reports.
func TestReportsOnly(t *testing.T) {
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, src string
		reports   int
	}{
		{"a.gtlc", `(\x:Int. inc x) 3`, 0},
		{"a.cast", `(\x:Dyn. x) (<Dyn <= Int>^l1 1)`, 0},
		{"a.dpl", "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", 4},
		{"a.lam", `let inc = \x:Int. x + 1 in inc 2`, 0},
	} {
		c, l, err := w.LanguageFor(tc.file, "")
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Load(l.Ext, []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		variant, _ := w.VariantFor(c, "")
		for _, s := range w.StagesOf(c) {
			run := func(obs interderive.Observer) []string {
				var rules []string
				if _, err := p.Run(s, variant, interderive.Options{Observer: obs, OnContract: func(r string) { rules = append(rules, r) }}); err != nil {
					t.Fatalf("%s on %s: %v", tc.src, s.Name(), err)
				}
				return rules
			}
			all, quiet := &watcher{}, &reportsOnly{}
			allRules, quietRules := run(all), run(quiet)
			switch {
			case !slices.Equal(allRules, quietRules):
				t.Errorf("%s on %s: contractions %v, but %v when all is shown", tc.src, s.Name(), quietRules, allRules)
			case len(quiet.steps) > 0:
				t.Errorf("%s on %s: a reports-only observer is shown %q", tc.src, s.Name(), quiet.steps)
			case !slices.Equal(quiet.reports, all.reports) || len(all.reports) != tc.reports:
				t.Errorf("%s on %s: reports %q, and %q when all is shown; want %d", tc.src, s.Name(), quiet.reports, all.reports, tc.reports)
			case s.Name() == "reduction" && len(all.steps) == 0:
				t.Errorf("%s on reduction: no step shown to an observer of everything", tc.src)
			}
		}
	}
}
