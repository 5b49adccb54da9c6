package sem_test

import (
	"errors"
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
// the answers and Racket's run-time errors; here a hook given no number is the rule
// file's error, naming the hook (a file that declares number-add on a sort of
// integers).
func TestNumberHooks(t *testing.T) {
	src := `(language ints)
(sort e (integer n) (con plus e e))
(hook number-add (e e) e)
(kind E v)
(value E n)
(frame E (plus (hole) e))
(frame E (plus v (hole)))
(rule plus E (plus n_1 n_2) (number-add n_1 n_2))
`
	l, err := sem.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	term, err := l.ReadTerm([]byte("(plus 1 2)"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := sem.StageOf(machine.Stage{})
	_, err = st.Eval(l, term, interderive.Options{})
	var fe *sem.FunctionError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "hook number-add failed on (number-add 1 2), called by rule plus: number-add of 1 and 2, not two numbers") {
		t.Errorf("number-add of integers: %v", err)
	}
}
