package sem_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/sem"
)

// TestNumberAtom: Racket's numbers read, print and compare as Racket's reader,
// printer and equal? do (the expectations are Racket's, written from its
// documentation: 4/6 reads as 2/3, 2.0 prints with its point, 1 is not 1.0).
func TestNumberAtom(t *testing.T) {
	a := sem.NumberAtom
	for _, tc := range []struct {
		in, out string
		ok      bool
	}{
		{"3", "3", true}, {"-2", "-2", true}, {"4/6", "2/3", true}, {"6/3", "2", true},
		{"1.5", "1.5", true}, {"2.0", "2.0", true}, {"1e3", "1000.0", true},
		{"1/0", "", false}, {"x", "", false}, {"0x10", "", false}, {"1/2.5", "", false},
	} {
		v, ok := a.Read(tc.in, false)
		if ok != tc.ok || ok && a.Format(v) != tc.out {
			t.Errorf("%s: read %v (%v), want %q (%v)", tc.in, v, ok, tc.out, tc.ok)
		}
	}
	if _, ok := a.Read("3", true); ok {
		t.Error(`the string "3" read as a number`)
	}
	one, _ := a.Read("1", false)
	oneF, _ := a.Read("1.0", false)
	if a.Equal(one, oneF) || !a.Equal(one, big.NewRat(2, 2)) {
		t.Error("equal? of 1 and 1.0 is false, of 1 and 2/2 true")
	}
}

// TestNumberHooks: the arithmetic of testdata/rules/numbers.sem, whose corpus holds
// the answers; here the hooks' failures, each the rule file's error naming the hook
// and Racket's reason, on every derived stage's first (the reduction semantics'
// errors are the same: the corpus's lockstep).
func TestNumberHooks(t *testing.T) {
	l := load(t, "numbers.sem")
	st, _ := sem.StageOf(machine.Stage{})
	for _, tc := range []struct{ prog, want string }{
		{"(/ 1 0)", "hook number-div failed on (number-div 1 0), called by rule divide: /: division by zero"},
		{"(sqrt (- 0 4))", "hook number-sqrt failed on (number-sqrt -4), called by rule sqrt: sqrt of -4: a complex number"},
		{"(sqrt 16)", ""},
	} {
		term, err := l.ReadTerm([]byte(tc.prog))
		if err != nil {
			t.Fatal(err)
		}
		a, err := st.Eval(l, term, interderive.Options{})
		switch {
		case tc.want == "" && (err != nil || a.String() != "4"):
			t.Errorf("%s: %v, %v; want 4", tc.prog, a, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v; want %q", tc.prog, err, tc.want)
		}
	}
}
