package abductive_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// lines records an observer's lines, each prefixed by its kind.
type lines struct{ got []string }

func (l *lines) Step(line string)         { l.got = append(l.got, "step "+line) }
func (l *lines) About(_ int, line string) { l.got = append(l.got, "about "+line) }
func (l *lines) Report(_ int, label string, _ any, line string) {
	l.got = append(l.got, "report "+label+": "+line)
}

// TestObserved: what the stages show an observer besides their contractions, for
// (\x:F. x + {1}) 2, written out by hand from each stage's definition: the reduction
// semantics' decompositions, contracta and plugged terms (the beta leaves the mark
// ^{ℓ1}: the function's body has {1}); the calculus of closures' environment steps and
// decompositions, its environments named; the machine's states, the mark a frame.
func TestObserved(t *testing.T) {
	p := load(t, `(\x:F. x + {1}) 2`)
	want := map[string][]string{
		"reduction": {
			`step decompose: []  with redex  (\x:F. x + {1}) 2`,
			`about contract:  (2 + {1})^{ℓ1}`,
			`about plug:      (2 + {1})^{ℓ1}`,
			`step decompose: (2 + [])^{ℓ1}  with redex  {1}`,
			`about contract:  ℓ1`,
			`about plug:      (2 + ℓ1)^{ℓ1}`,
			`step decompose: []^{ℓ1}  with redex  2 + ℓ1`,
			`about contract:  ⟨2 + ℓ1⟩`,
			`about plug:      ⟨2 + ℓ1⟩^{ℓ1}`,
		},
		"closures": {
			`step expand: ((\x:F. x + {1}) 2)[ε]  ~>  ((\x:F. x + {1})[ε]) · (2)`,
			`step ρ1 = (x ↦ 2) : ε`,
			`step decompose: []  with redex  ((\x:F. x + {1})[ε]) · (2)`,
			`step contract:  ((x + {1})[ρ1])^{ℓ1}`,
			`step expand: (x + {1})[ρ1]  ~>  (x[ρ1]) + ({1}[ρ1])`,
			`step lookup: x[ρ1]  ~>  2`,
			`step decompose: ((2) + ([]))^{ℓ1}  with redex  {1}[ρ1]`,
			`step contract:  ℓ1`,
			`step decompose: ([])^{ℓ1}  with redex  (2) + (ℓ1)`,
			`step contract:  ⟨2 + ℓ1⟩`,
		},
		"machine": {
			"step eval       (\\x:F. x + {1}) 2  ρ={}\n           K=[]",
			"step eval       \\x:F. x + {1}  ρ={}\n           K=[[] 2]",
			"step continue   \\x:F. x + {1}\n           K=[[] 2]",
			"step eval       2  ρ={}\n           K=[\\x:F. x + {1} []]",
			"step continue   2\n           K=[\\x:F. x + {1} []]",
			"step eval       x + {1}  ρ={x ↦ 2}\n           K=[[]^{ℓ1}]",
			"step eval       x  ρ={x ↦ 2}\n           K=[[]^{ℓ1}, [] + {1}]",
			"step continue   2\n           K=[[]^{ℓ1}, [] + {1}]",
			"step eval       {1}  ρ={x ↦ 2}\n           K=[[]^{ℓ1}, 2 + []]",
			"step continue   ℓ1\n           K=[[]^{ℓ1}, 2 + []]",
			"step continue   ⟨2 + ℓ1⟩\n           K=[[]^{ℓ1}]",
			"step continue   ⟨2 + ℓ1⟩\n           K=[]",
		},
		"cps2":   nil,
		"interp": nil,
	}
	for _, s := range stages(t) {
		var obs lines
		if _, err := p.Run(s, "labelled", interderive.Options{Observer: &obs}); err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if w := want[s.Name()]; !slices.Equal(obs.got, w) {
			t.Errorf("%s shows\n  %s\nwant\n  %s", s.Name(), strings.Join(obs.got, "\n  "), strings.Join(w, "\n  "))
		}
	}
}
