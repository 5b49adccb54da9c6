package compiled_test

import (
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// TestOwnAtoms: a rule file with an atom type of its calculus's own
// (sem/testdata/hooks/colors.sem: colors equal up to case, each printed as it was
// written, and a hook that builds them) runs on every compiled stage, the colors'
// values kept in this process: the answers, printed, and the contractions derived by
// hand (rulescases.ColorCases, which sem's TestOwnAtomType runs on the tables).
// (pick Red RED) is RED, as written, not the Red met first: a value crosses back as
// itself, not as the first of its class. The colors' classes are found by comparing
// a color with one of each class (Equal), and by the colors' Key.
func TestOwnAtoms(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	for name, hooks := range map[string]func(testing.TB) *sem.Hooks{"compared": rulescases.ColorHooks, "keyed": rulescases.ColorHooksKeyed} {
		t.Run(name, func(t *testing.T) {
			l, s := loadWith(t, "colors.sem", rulescases.ColorSource(t), hooks(t))
			casesOnCompiled(t, l, s, rulescases.ColorCases)
		})
	}
}

// TestOwnAtomsRandom: random programs of colors.sem (rules.Generator, which draws
// the colors from the atom type's samples, some in two cases, and, every other one,
// colorProgram's, well formed) on every
// compiled stage, in lockstep with the tables' machine: the same contractions, and
// the same answer as printed (sameRun), or the same error. The rules that compare
// colors (purple, same) and the hook's (next) must fire.
func TestOwnAtomsRandom(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	l, s := loadWith(t, "colors.sem", rulescases.ColorSource(t), rulescases.ColorHooks(t))
	gen := rapid.Custom(func(t *rapid.T) *sem.Term { return rules.Generator{Lang: l, Depth: 5}.Draw(t) })
	n, fired := randomAgainstTables(t, s, l, func(i int) *sem.Term {
		if i%2 == 1 { // every other program well formed: no stuck term
			return rulescases.Read(t, l, colorProgram.Example(i))
		}
		return gen.Example(i)
	}, sameRun)
	for _, r := range []string{"purple", "same", "next"} {
		if fired[r] == 0 {
			t.Errorf("rule %s fired in none of %d programs (fired: %v)", r, n, fired)
		}
	}
}

// TestTwoOwnAtomTypes: two atom types of the calculus's own in one sort (color, of
// rulescases.ColorHooks, and shape: circle and square, as written), each with its
// tag (tagOwn0, tagOwn0 - 1), on every compiled stage. By hand: (paint circle Red)
// is Red, by the first rule (circle is the literal); (paint square blue) is square,
// by the second; (paint GREEN red) is stuck, a color where a shape goes, as the
// tables have it.
func TestTwoOwnAtomTypes(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	h := rulescases.ColorHooks(t)
	if err := h.AddAtom(&sem.AtomType{Name: "shape", Samples: []any{"circle"},
		Read:   func(s string, quoted bool) (any, bool) { return s, !quoted && (s == "circle" || s == "square") },
		Format: func(v any) string { return v.(string) },
		Equal:  func(a, b any) bool { return a == b }}); err != nil {
		t.Fatal(err)
	}
	l, s := loadWith(t, "shapes.sem", []byte("(language shapes)\n(sort t (atom color c) (atom shape s) (con paint t t))\n(kind E v)\n(value E c)\n(value E s)\n"+
		"(frame E (paint (hole) t))\n(frame E (paint v (hole)))\n(rule circle E (paint circle c) c)\n(rule paint E (paint s c) s)\n"+
		"(stuck E (paint c v) \"paint on a color\")\n(stuck E (paint s s_2) \"paint with a shape\")\n"), h)
	tables, _ := sem.StageOf(machine.Stage{})
	for _, tc := range []struct{ prog, want string }{
		{"(paint circle Red)", "Red"},
		{"(paint square blue)", "square"},
		{"(paint GREEN red)", "stuck"},
	} {
		want := rulescases.RunDerived(tables, l, rulescases.Read(t, l, tc.prog), 100)
		if tc.want == "stuck" && (want.Err == nil || !strings.Contains(want.Err.Error(), "paint on a color")) || tc.want != "stuck" && (want.Err != nil || sem.Format(want.Value) != tc.want) {
			t.Fatalf("%s on the tables: %s, want %s", tc.prog, want, tc.want)
		}
		for _, st := range stages {
			if got := rulescases.RunDerived(stageOf(t, s, st.stage), l, rulescases.Read(t, l, tc.prog), 100); !sameRun(got, want) {
				t.Errorf("%s on %s: %s, want %s", tc.prog, st.stage.Name(), got, want)
			}
		}
	}
}

// colorProgram draws a program of colors.sem that is well formed: a color or a
// boolean, its colors written in several cases, with applications of λs whose
// variables shadow each other (x and y).
var colorProgram = rapid.Custom(func(t *rapid.T) string {
	colors := []string{"red", "RED", "Red", "green", "GREEN", "blue", "Blue", "purple", "PURPLE"}
	var color, boolean func(depth int, vars []string) string
	color = func(depth int, vars []string) string {
		n := 4
		if depth <= 0 {
			n = 0
		}
		switch rapid.IntRange(0, n).Draw(t, "color") {
		case 0:
			if len(vars) > 0 && rapid.Bool().Draw(t, "var") {
				return rapid.SampledFrom(vars).Draw(t, "x")
			}
			return rapid.SampledFrom(colors).Draw(t, "literal")
		case 1:
			return "(mix " + color(depth-1, vars) + " " + color(depth-1, vars) + ")"
		case 2:
			return "(pick " + color(depth-1, vars) + " " + color(depth-1, vars) + ")"
		case 3:
			return "(next " + color(depth-1, vars) + ")"
		default:
			x := rapid.SampledFrom([]string{"x", "y"}).Draw(t, "binder")
			return "(app (lam " + x + " " + color(depth-1, append(vars, x)) + ") " + color(depth-1, vars) + ")"
		}
	}
	boolean = func(depth int, vars []string) string {
		if rapid.Bool().Draw(t, "pick") && depth > 0 {
			return "(pick " + boolean(depth-1, vars) + " " + boolean(depth-1, vars) + ")"
		}
		return "(same " + color(depth, vars) + " " + color(depth, vars) + ")"
	}
	if rapid.Bool().Draw(t, "boolean") {
		return boolean(3, nil)
	}
	return color(4, nil)
})

// sameRun is alike, the answers printed alike too: equal atoms of a calculus's own
// may print differently, and each must print as the value it is.
func sameRun(a, b rulescases.Run) bool {
	return alike(a, b) && (a.Err != nil || sem.Format(a.Value) == sem.Format(b.Value))
}

// FuzzOwnAtoms runs a program text, whatever it is, of colors.sem on every compiled
// stage, in lockstep with the tables' machine (sameRun); a text that does not read
// is skipped. The seeds are rulescases.ColorCases;
//
//	go test -run XXX -fuzz FuzzOwnAtoms ./internal/compiled
//
// searches further.
func FuzzOwnAtoms(f *testing.F) {
	testenv.NeedCompiledEngine(f)
	l, s := loadWith(f, "colors.sem", rulescases.ColorSource(f), rulescases.ColorHooks(f))
	for _, tc := range rulescases.ColorCases {
		f.Add(tc.Prog)
	}
	fuzzAgainstTables(f, s, l, "colors.sem", sameRun)
}
