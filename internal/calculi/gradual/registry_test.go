package gradual_test

import (
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/workbench"
)

// names are the names of stages, in order.
func names(stages []interderive.Stage) []string {
	var out []string
	for _, s := range stages {
		out = append(out, s.Name())
	}
	return out
}

// TestListedStagesAreTheRegistrys: the stages this package's tests list, in order, are
// the ones the registry runs the calculus on.
func TestListedStagesAreTheRegistrys(t *testing.T) {
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(gradual.ListedStages()), names(w.StagesOf(gradual.Calculus)); !slices.Equal(got, want) {
		t.Errorf("the tests list the stages %v, the registry %v", got, want)
	}
}
