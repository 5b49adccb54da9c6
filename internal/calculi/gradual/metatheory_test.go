package gradual

import (
	"strings"
	"testing"

	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/gradual/custom"
)

// TestMetatheoryBlameSafe checks BlameSafe's judgements on programs whose labels are
// shared, or also carried by explicit coercions and blame, as the fuzzer's are.
func TestMetatheoryBlameSafe(t *testing.T) {
	table := `(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`
	for _, c := range []struct {
		src   string
		sem   g.Semantics
		blame g.Label
		want  string // a part of the error; "" for none
	}{
		{table, g.LUD, "l1", ""}, // <Dyn <= Bool -> Bool> does not respect <:UD
		{table, g.EUD, "l2", ""}, // <Dyn -> Int <= Dyn> respects neither relation
		{table, g.LD, "l1", "its cast <Dyn <= Bool -> Bool> respects the subtyping of ld"},
		{table, g.ED, "l3", "its cast <Dyn <= Int> respects"},
		{table, g.ED, "l9", "names no cast"},
		{table, custom.EDN{}, "l1", ""}, // a custom semantics: its strategy is not known
		{table, custom.EDN{}, "l9", "names no cast"},
		// A label shared by casts is blamed safely if one of them does not respect the
		// relation, and wrongly if all of them do.
		{`<Dyn <= Int>^l1 <Int <= Dyn>^l1 <Dyn <= Int>^l2 1`, g.LD, "l1", ""},
		{`if true then (<Int -> Dyn <= Int -> Int>^l1 (\x:Int. x)) 1 else <Dyn <= Int>^l1 2`, g.LD, "l1", "its casts"},
		// A label in an explicit coercion or blame is not judged.
		{`<Int?^l1> <Dyn <= Int>^l1 1`, g.LD, "l1", ""},
		{`if true then <Dyn <= Int>^l1 1 else blame l1`, g.ED, "l1", ""},
	} {
		e, err := g.Parse([]byte(c.src), g.CastCalculus)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		err = BlameSafe(c.sem, e, g.Answer{Blamed: true, Blame: c.blame})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s under %s, blame %s: %v", c.src, c.sem.Name(), c.blame, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s under %s, blame %s: %v, want an error with %q", c.src, c.sem.Name(), c.blame, err, c.want)
		}
		if err := BlameSafe(c.sem, e, g.Answer{Value: &g.IntLit{N: 1}}); err != nil {
			t.Errorf("%s: a value: %v", c.src, err)
		}
	}
}

// brokenSeq is a semantics whose seq drops its second argument.
type brokenSeq struct{ g.Semantics }

func (brokenSeq) Seq(c1, _ g.Coercion) g.Coercion { return c1 }

// TestMetatheorySeqCorrect: the compositions of the README's associativity example are
// correct under ED, and a seq that drops c2 is caught.
func TestMetatheorySeqCorrect(t *testing.T) {
	co := func(src string) g.Coercion {
		c, err := g.ParseCoercion(src)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c1, c2, c3 := co("Int?^l1 -> id"), co("Bool! -> id"), co("Bool?^l3 -> Int!")
	for _, sem := range []g.Semantics{g.ED, g.EUD, g.LD} {
		for _, p := range [][2]g.Coercion{{c1, c2}, {c2, c3}} {
			if rules, err := SeqCorrect(sem, p[0], p[1]); err != nil || len(rules) == 0 {
				t.Errorf("%s: %v (rules %v)", sem.Name(), err, rules)
			}
		}
	}
	if _, err := SeqCorrect(brokenSeq{g.ED}, c2, c3); err == nil || !strings.Contains(err.Error(), "but reduction reaches") {
		t.Errorf("a broken seq: %v", err)
	}
}
