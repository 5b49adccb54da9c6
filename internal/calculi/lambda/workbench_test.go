package lambda_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/workbench"
)

// The calculus through the workbench's engines, from the registry, as the command
// runs it: nothing of it but its registry entry is known to them.

func bench(t *testing.T) (*workbench.Workbench, workbench.Calculus) {
	t.Helper()
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := w.LanguageNamed("lam")
	if err != nil || c.Name() != "lambda" {
		t.Fatalf("the extension lam: %v, %v", c, err)
	}
	return w, c
}

// TestRegistered: the registry holds the calculus under its name and extension, with
// the six stages in derivation order and its variant; an unknown evaluation order is
// refused, naming the known one.
func TestRegistered(t *testing.T) {
	w, c := bench(t)
	if byName, err := w.CalculusNamed("lambda"); err != nil || byName != c {
		t.Errorf("lambda by name: %v", err)
	}
	var names []string
	for _, s := range w.StagesOf(c) {
		names = append(names, s.Name())
	}
	if want := []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}; !slices.Equal(names, want) {
		t.Errorf("stages %v, want %v", names, want)
	}
	if v, err := w.VariantFor(c, ""); err != nil || v != "cbv" {
		t.Errorf("the default variant: %q, %v", v, err)
	}
	if _, err := w.VariantFor(c, "cbn"); err == nil || !strings.Contains(err.Error(), "cbv") {
		t.Errorf("cbn: %v", err)
	}
	var text strings.Builder
	w.Describe().WriteText(&text)
	if !strings.Contains(text.String(), "lambda") || !strings.Contains(text.String(), "--evaluation") {
		t.Errorf("interderive calculi does not list the λ-calculus and its flag:\n%s", text.String())
	}
}

// TestWorkbenchCheck: check runs the corpus: 17 files that run, on 6 stages each, and
// 2 type errors, checked once each.
func TestWorkbenchCheck(t *testing.T) {
	w, _ := bench(t)
	files, err := w.SourceFiles([]string{corpus})
	if err != nil {
		t.Fatal(err)
	}
	plans, errs := w.PlanFiles(files, "", nil, workbench.CheckOptions{})
	var failures strings.Builder
	report := workbench.RunCheck(files, plans, errs, workbench.CheckOptions{}, nil, func(i int, fs []workbench.Failure) {
		workbench.WriteCheckFile(&failures, files[i], plans[i], errs[i], fs)
	})
	if got, want := report.Summary(), "19 files, 104 runs: 104 passed, 0 failed"; got != want {
		t.Errorf("check: %s, want %s\n%s", got, want, failures.String())
	}
}

// TestWorkbenchCompare: compare finds the stages in agreement on a corpus file.
func TestWorkbenchCompare(t *testing.T) {
	w, c := bench(t)
	cmp, err := w.Compare(c, load(t, `letrec fact:Int -> Int = \n:Int. if0 n then 1 else n * fact (n - 1) in fact 5`), nil, "", interderive.Options{})
	if err != nil || len(cmp.Disagreements) > 0 || len(cmp.Partial) > 0 || len(cmp.Rows) != 6 {
		t.Errorf("compare: %v, %+v", err, cmp)
	}
	for _, r := range cmp.Rows {
		if r.Answer() != "120" {
			t.Errorf("%s answers %s", r.Stage, r.Answer())
		}
	}
}

// TestWorkbenchFuzz: fuzz checks lockstep and the calculus's properties on random
// programs, and finds nothing.
func TestWorkbenchFuzz(t *testing.T) {
	w, _ := bench(t)
	plans, err := w.PlanFuzz(workbench.FuzzOptions{Calculi: []string{"lambda"}, Size: 5})
	if err != nil || len(plans) != 1 {
		t.Fatalf("plan: %v, %d plans", err, len(plans))
	}
	if want := []string{"lockstep", "preservation"}; !slices.Equal(plans[0].Props, want) {
		t.Errorf("properties %v, want %v", plans[0].Props, want)
	}
	count := 200
	if testing.Short() {
		count = 50 // both properties still run; the full run draws 200 programs
	}
	r := w.Fuzz(plans[0], workbench.FuzzConfig{Count: count, Jobs: 1, Seed: 1}, nil)
	if r.Found != nil {
		t.Errorf("%s: %v\n%s", r.Found.Prop, r.Found.Err, r.Found.Source)
	}
	if r.Checked == 0 {
		t.Error("fuzz checked nothing")
	}
}

// TestWorkbenchTrace: trace --stage all shows every stage's own steps, aligned.
func TestWorkbenchTrace(t *testing.T) {
	w, c := bench(t)
	var out strings.Builder
	if err := w.WriteSideBySide(&out, c, load(t, `(\x:Int. x + 1) 41`), "cbv", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`decompose: []  with redex  (\x:Int. x + 1) 41`,
		`lookup: x[ρ1]  ~>  41[ε]`,
		`eval       x + 1  ρ={x ↦ 41}`,
		`beta`, `delta`, `42`,
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the side-by-side trace lacks %q:\n%s", line, out.String())
		}
	}
}
