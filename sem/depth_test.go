package sem_test

import (
	"errors"
	"runtime/debug"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/sem"
)

// towerSem has a class matched as deep as its term: c is boxes around an integer.
const towerSem = `(language tower)
(sort t (integer n) (con box t) (con open t))
(kind E v)
(value E n)
(value E (box v))
(frame E (box (hole)))
(frame E (open (hole)))
(class c t (box c_1) n)
(rule open E (open c) c)
(stuck E (open v) "not a tower")
`

// TestMatchDepth: a class matched against a term a run built deeper than any program
// recurses once a level, in sem's matcher and in the closures' (semval); up to
// sem.MaxMatchDepth levels it runs within half of the Go stack (the bound's
// derivation: MatchFrame bytes a level), and past it a guarded run stops with a
// resource limit (sem.TooDeep, exit status 3) instead of a fatal stack overflow.
func TestMatchDepth(t *testing.T) {
	l, err := sem.Load([]byte(towerSem))
	if err != nil {
		t.Fatal(err)
	}
	box, _ := l.Con("box")
	var class *sem.Class
	for _, c := range l.Classes {
		if c.Name == "c" {
			class = c
		}
	}
	if class == nil {
		t.Fatal("no class c")
	}
	tower := func(n int) *sem.Term {
		t := sem.Int(sem.Pos{}, 1)
		for range n {
			t = sem.App(sem.Pos{}, box, t)
		}
		return t
	}
	within, past := tower(sem.MaxMatchDepth-1), tower(sem.MaxMatchDepth+1)
	defer debug.SetMaxStack(debug.SetMaxStack(interderive.StackLimit / 2))
	for _, tt := range []struct {
		name    string
		inClass func(*sem.Term) bool
	}{
		{"sem", func(t *sem.Term) bool { return l.InClass(t, class) }},
		{"semval", func(t *sem.Term) bool { m := semval.NewMeta(l); return m.InClass(semval.Leaf(t, nil), class) }},
	} {
		var in bool
		if _, err := sem.Guard(func() (sem.Answer, error) { in = tt.inClass(within); return sem.Answer{}, nil }); err != nil || !in {
			t.Errorf("%s: a tower of MaxMatchDepth-1 boxes: in the class %v, %v; want true", tt.name, in, err)
		}
		_, err := sem.Guard(func() (sem.Answer, error) { tt.inClass(past); return sem.Answer{}, nil })
		if !errors.Is(err, interderive.ErrTooDeep) || !errors.Is(err, interderive.ErrResourceLimit) {
			t.Errorf("%s: a tower of MaxMatchDepth+1 boxes: %v, want a depth limit", tt.name, err)
		}
	}
}
