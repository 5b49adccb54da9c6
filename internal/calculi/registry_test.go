package calculi_test

import (
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/workbench"
)

// newBench is the command's workbench: every calculus on every stage.
func newBench(t testing.TB) *workbench.Workbench {
	t.Helper()
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// load loads a program of the language of extension lang, and returns it with its
// calculus.
func load(t testing.TB, w *workbench.Workbench, lang, src string) (workbench.Calculus, workbench.Program) {
	t.Helper()
	c, _, err := w.LanguageNamed(lang)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Load(lang, []byte(src))
	if err != nil {
		t.Fatalf("%s, %d bytes: %v", lang, len(src), err)
	}
	return c, p
}

// stage is the stage of a calculus of that name.
func stage(t testing.TB, w *workbench.Workbench, c workbench.Calculus, name string) interderive.Stage {
	t.Helper()
	s, err := w.StageFor(c, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
