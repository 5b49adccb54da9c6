package redex

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/sem"
)

// BenchmarkModelMachine times the derived machine alone on imported models' short
// programs, the runs of bench --peer redex --model whose ratio to Redex a run's own
// cost weighs on most (docs/performance.md): stlc.rkt's longest test (line 153,
// three contractions), stlc+lists.rkt's (three), and omega.rkt's call/cc example
// (six); stlc.rkt's value 5, a run that makes no contraction; and letrec.rkt's
// longest test, imperative-fact (96 contractions), on the rule file written by hand
// from it (testdata/rules/letrec.sem).
//
//	go test -run '^$' -bench ModelMachine -benchmem -count 10 ./internal/redex
func BenchmarkModelMachine(b *testing.B) {
	for _, bc := range []struct{ name, file, program string }{
		{"letrec", "", "((store) (output) (let ((n 5) (acc 1)) (letrec ((imperative-fact (λ () (if (= n 0) acc (begin (set! acc (* acc n)) (set! n (- n 1)) (imperative-fact)))))) (imperative-fact))))"},
		{"stlc-value", "stlc.rkt", "5"}, // a run's own cost: no transition but halt
		{"stlc", "stlc.rkt", "((λ (x num) (if0 x x (+ x 1))) 2)"},
		{"stlc+lists", "stlc+lists.rkt", "((+ ((+ 1) 2)) ((+ 3) 4))"},
		{"omega", "omega.rkt", "((lambda (y) (y 3)) (call/cc (lambda (k) (k (lambda (z) 7)))))"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l, err := benchLanguage(b, bc.file)
			if err != nil {
				b.Fatal(err)
			}
			t, err := l.ReadTerm([]byte(bc.program))
			if err != nil {
				b.Fatal(err)
			}
			st, _ := sem.StageOf(machine.Stage{})
			opts := interderive.Options{Fuel: 1 << 20, Timeout: 10 * time.Second, Memory: 1 << 30}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := st.Eval(l, t, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchLanguage is the rule file imported from the model file (in testdata/models),
// or, for "", letrec.sem, written by hand.
func benchLanguage(b *testing.B, file string) (*sem.Language, error) {
	if file == "" {
		src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "letrec.sem"))
		if err != nil {
			return nil, err
		}
		return sem.Load(src)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "models", file))
	if err != nil {
		return nil, err
	}
	im, err := imported(b, file, string(src))
	if err != nil {
		return nil, err
	}
	return sem.Load([]byte(im.Sem))
}
