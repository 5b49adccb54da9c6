package custom_test

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/gradual/custom"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestSeqAgreesWithRules checks, for every registered semantics, that its one-pass
// composition is the normal form its own rules reach, on random well-typed normal
// forms (D injections), and that translations are normal.
func TestSeqAgreesWithRules(t *testing.T) {
	for _, sem := range custom.All() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				m := gradualgen.Type(t, 2, "T")
				if rapid.Bool().Draw(t, "through-dyn") {
					m = g.Fn(gradualgen.Type(t, 1, "T-dom"), g.Dyn)
				}
				s := gradualgen.Consistent(t, m, 2, "S")
				u := gradualgen.Consistent(t, m, 2, "U")
				c1 := gradualgen.Normal(t, sem, s, m, 3)
				c2 := gradualgen.Normal(t, sem, m, u, 3)
				want, _, ok := g.Normalize(sem, g.Then(c1, c2), 10_000)
				if !ok {
					t.Fatalf("no normal form")
				}
				if got := sem.Seq(c1, c2); !g.EqualCoercions(got, want) {
					t.Fatalf("seq(%s, %s) = %s, rules give %s", g.FormatCoercion(c1), g.FormatCoercion(c2), g.FormatCoercion(got), g.FormatCoercion(want))
				}
				if tr := sem.Translate(u, s, "l"); !g.IsNormal(sem, tr) {
					t.Fatalf("<<%s <= %s>> = %s is not normal", u, s, g.FormatCoercion(tr))
				}
			})
		})
	}
}

// TestEDNTranslate: the domain fails at once, the codomain lazily (by hand, from the
// definition of mkArrN).
func TestEDNTranslate(t *testing.T) {
	sem := custom.EDN{}
	tests := []struct {
		target, source g.Type
		want           string
	}{
		{g.Fn(g.Int, g.Bool), g.Fn(g.Int, g.Int), "id -> fail^l"}, // ED: fail^l
		{g.Fn(g.Bool, g.Int), g.Fn(g.Int, g.Int), "fail^l"},       // as ED
		{g.Dyn, g.Fn(g.Int, g.Int), "(Int -> Int)!"},
	}
	for _, tt := range tests {
		want, err := g.ParseCoercion(tt.want)
		if err != nil {
			t.Fatal(err)
		}
		if got := sem.Translate(tt.target, tt.source, "l"); !g.EqualCoercions(got, want) {
			t.Errorf("<<%s <= %s>> = %s, want %s", tt.target, tt.source, g.FormatCoercion(got), tt.want)
		}
	}
	if _, rule, ok := sem.Contract(&g.Func{Dom: g.Id, Cod: &g.Fail{L: "l"}}); ok {
		t.Errorf("id -> fail^l contracts by %s; EDN has no FailR", rule)
	}
}
