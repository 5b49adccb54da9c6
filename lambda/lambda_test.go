package lambda_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/gen/lambdagen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/lambda"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func parse(t *testing.T, src string) lambda.Expr {
	t.Helper()
	e, err := lambda.Parse([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return e
}

// TestFormat: programs print with as few parentheses as the grammar allows (the
// expected forms are the grammar of doc.go applied by hand).
func TestFormat(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`1 + 2 * 3`, `1 + 2 * 3`},
		{`(1 + 2) * 3`, `(1 + 2) * 3`},
		{`1 - (2 - 3)`, `1 - (2 - 3)`},
		{`(1 - 2) - 3`, `1 - 2 - 3`},
		{`(f x) y`, `f x y`},
		{`f (x y)`, `f (x y)`},
		{`f (-2)`, `f (-2)`},
		{`f -2`, `f - 2`},
		{`3 - -2`, `3 - -2`},
		{`-2 + 1`, `-2 + 1`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`\x : Int -> Int . x`, `\x:Int -> Int. x`},
		{`λx:(Int -> Int) -> Int. x`, `\x:(Int -> Int) -> Int. x`},
		{`(\x:Int. x) 1`, `(\x:Int. x) 1`},
		{`1 + (\x:Int. x) 2`, `1 + (\x:Int. x) 2`},
		{`f (\x:Int. x)`, `f \x:Int. x`},
		{`f (\x:Int. x) 1`, `f (\x:Int. x) 1`},
		{`1 + (let x = 2 in x)`, `1 + let x = 2 in x`},
		{`(let x = 2 in x) + 1`, `(let x = 2 in x) + 1`},
		{`if0 x then 1 else 2`, `if0 x then 1 else 2`},
		{`letrec f : Int -> Int = \n:Int. f n in f 1`, `letrec f:Int -> Int = \n:Int. f n in f 1`},
		{"-- a comment\n1 -- another\n", `1`},
	} {
		if got := lambda.Format(parse(t, tt.src)); got != tt.want {
			t.Errorf("%s prints as %s, want %s", tt.src, got, tt.want)
		}
	}
}

// wantError checks that err is a list of positioned errors whose first is at pos and
// says msg.
func wantError(t *testing.T, src string, err error, pos, msg string) {
	t.Helper()
	var list interderive.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Errorf("%s: %v, want an error at %s", src, err, pos)
		return
	}
	if got := list[0].Pos.String(); got != pos || !strings.Contains(list[0].Msg, msg) {
		t.Errorf("%s: %s: %s, want %s: ...%s...", src, got, list[0].Msg, pos, msg)
	}
}

// TestParseErrors: syntax errors are positioned at the token at fault.
func TestParseErrors(t *testing.T) {
	deep := strings.Repeat("(", lambda.MaxNesting+1) + "1" + strings.Repeat(")", lambda.MaxNesting+1)
	chain := "f" + strings.Repeat(" x", lambda.MaxNesting)
	for _, tt := range []struct{ src, pos, msg string }{
		{`1 +`, "1:4", "expected an expression"},
		{`\x. x`, "1:3", "the parameter needs a type"},
		{`let x:Int = 1 in x`, "1:6", "a let takes no type"},
		{`letrec f:Int = 1 in f`, "1:16", "letrec must bind a function"},
		{`99999999999999999999`, "1:1", "out of range"},
		{`1 # 2`, "1:3", `unexpected character '#'`},
		{`(1`, "1:3", "expected ), found end of input"},
		{`1 2 )`, "1:5", `unexpected ")" after the expression`},
		{"1\x00", "1:2", "illegal NUL character"},
		{deep, "1:65537", "nests too deeply"},
		// f x1 ... xn is n applications around f: f, 1:1, is the node too deep.
		{chain, "1:1", "nests too deeply"},
	} {
		_, err := lambda.Parse([]byte(tt.src))
		wantError(t, tt.src[:min(len(tt.src), 40)], err, tt.pos, tt.msg)
	}
}

// TestTypeErrors: a program without a type is an error at the subterm at fault.
func TestTypeErrors(t *testing.T) {
	for _, tt := range []struct{ src, pos, msg string }{
		{`1 2`, "1:1", "applied, but of type Int, not a function"},
		{`(\x:Int. x) (\y:Int. y)`, "1:14", "the argument has type Int -> Int, but the function takes Int"},
		{`x`, "1:1", "unbound variable x"},
		{`1 + \x:Int. x`, "1:5", "an operand of + has type Int -> Int, not Int"},
		{`if0 \x:Int. x then 1 else 2`, "1:5", "the condition of if0 has type Int -> Int"},
		{`if0 0 then 1 else \x:Int. x`, "1:19", "the branches of if0 differ: Int and Int -> Int"},
		{`letrec f:Int = \x:Int. x in f`, "1:1", "f is declared Int, not a function type"},
		{`letrec f:Int -> Int = \x:Int -> Int. 1 in f`, "1:23", "its parameter has type Int -> Int"},
		{`letrec f:Int -> Int = \x:Int. \y:Int. y in f`, "1:31", "its body has type Int -> Int"},
		// The parameter hides the function: f 1 applies an integer.
		{`letrec f:Int -> Int = \f:Int. f 1 in f 2`, "1:31", "applied, but of type Int"},
		{`let x = 1 in \y:Int. y x`, "1:22", "applied, but of type Int"},
	} {
		_, err := lambda.TypeOf(parse(t, tt.src))
		wantError(t, tt.src, err, tt.pos, tt.msg)
	}
}

// TestTypeOf: the types of well-typed programs, by the rules of doc.go.
func TestTypeOf(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`1`, "Int"},
		{`\x:Int. x`, "Int -> Int"},
		{`\f:Int -> Int. \x:Int. f x`, "(Int -> Int) -> Int -> Int"},
		{`let x = \y:Int. y in x`, "Int -> Int"},
		{`letrec f:Int -> Int -> Int = \n:Int. \m:Int. f m n in f`, "Int -> Int -> Int"},
		{`letrec f:Int -> Int = \f:Int. f + 1 in f`, "Int -> Int"},
		{`if0 1 then \x:Int. x else \y:Int. 2`, "Int -> Int"},
	} {
		ty, err := lambda.TypeOf(parse(t, tt.src))
		if err != nil || lambda.FormatType(ty) != tt.want {
			t.Errorf("%s : %v (%v), want %s", tt.src, ty, err, tt.want)
		}
	}
}

// TestUnfold: the letrec rule's function, with the parameter renamed where it is named
// like the function (the erratum), built once.
func TestUnfold(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`letrec g:Int -> Int = \n:Int. g n in g`, `\n:Int. letrec g:Int -> Int = \n:Int. g n in g n`},
		{`letrec f:Int -> Int = \f:Int. f + 1 in f`, `\f':Int. letrec f:Int -> Int = \f:Int. f + 1 in f' + 1`},
		// f' is taken: f''.
		{`letrec f:Int -> Int = \f:Int. let f' = 1 in f + f' in f`, `\f'':Int. letrec f:Int -> Int = \f:Int. let f' = 1 in f + f' in let f' = 1 in f'' + f'`},
	} {
		l := parse(t, tt.src).(*lambda.Letrec)
		f := lambda.Unfold(l)
		if got := lambda.Format(f); got != tt.want {
			t.Errorf("Unfold(%s) = %s, want %s", tt.src, got, tt.want)
		}
		inner := lambda.Unfolding(f)
		if inner == nil || lambda.Unfold(inner) != f || lambda.Unfold(l) != f {
			t.Errorf("%s: the unfolded function is not shared (Unfolding %v)", tt.src, inner)
		}
		if lambda.Unfolding(l.Fun) != nil {
			t.Errorf("%s: the letrec's own function counts as unfolded", tt.src)
		}
	}
}

// TestSubst: substitution of closed values stops where the variable is rebound.
func TestSubst(t *testing.T) {
	one := &lambda.IntLit{N: 1}
	for _, tt := range []struct{ src, x, want string }{
		{`\y:Int. x + y`, "x", `\y:Int. 1 + y`},
		{`\x:Int. x`, "x", `\x:Int. x`},
		{`let x = x in x`, "x", `let x = 1 in x`},
		{`let y = x in x`, "x", `let y = 1 in 1`},
		{`letrec x:Int -> Int = \n:Int. x n in x`, "x", `letrec x:Int -> Int = \n:Int. x n in x`},
		{`letrec f:Int -> Int = \x:Int. x in f x`, "x", `letrec f:Int -> Int = \x:Int. x in f 1`},
		{`if0 x then x else y`, "x", `if0 1 then 1 else y`},
	} {
		if got := lambda.Format(lambda.Subst(parse(t, tt.src), tt.x, one)); got != tt.want {
			t.Errorf("(%s)[%s := 1] = %s, want %s", tt.src, tt.x, got, tt.want)
		}
	}
	// A closed value, once substituted, is not walked again: substituting into a
	// term that holds it leaves it as it is (the same node).
	v := parse(t, `\z:Int. z`).(*lambda.Lam)
	e := lambda.Subst(parse(t, `x y`), "x", v)
	if got := lambda.Subst(e, "y", one).(*lambda.App).Fun; got != v {
		t.Errorf("a substituted value was copied: %s", lambda.Format(got))
	}
}

// TestAlphaEqual: equality up to renaming of bound variables.
func TestAlphaEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`\x:Int. x`, `\y:Int. y`, true},
		{`\x:Int. \y:Int. x`, `\y:Int. \x:Int. y`, true},
		{`\x:Int. \y:Int. x`, `\x:Int. \y:Int. y`, false},
		{`\x:Int. x`, `\x:Int -> Int. x`, false},
		{`let x = 1 in x`, `let y = 1 in y`, true},
		{`let x = 1 in z`, `let y = 1 in z`, true},
		{`x`, `y`, false},
		{`letrec f:Int -> Int = \n:Int. f n in f`, `letrec g:Int -> Int = \m:Int. g m in g`, true},
		{`1 + 2`, `1 - 2`, false},
	} {
		if got := lambda.AlphaEqual(parse(t, tt.a), parse(t, tt.b)); got != tt.want {
			t.Errorf("AlphaEqual(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
}

// TestFreeVars: the free variables, by the binders of doc.go.
func TestFreeVars(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`\x:Int. x + y`, "y"},
		{`let x = x in x z`, "x z"},
		{`letrec f:Int -> Int = \n:Int. f (n + m) in f k`, "k m"},
		{`(\x:Int. x) x`, "x"},
	} {
		fv := lambda.FreeVars(parse(t, tt.src))
		var names []string
		for _, x := range strings.Fields(tt.want) {
			names = append(names, x)
			if !fv[x] {
				t.Errorf("%s: %s is not free (%v)", tt.src, x, fv)
			}
		}
		if len(fv) != len(names) {
			t.Errorf("%s: free %v, want %v", tt.src, fv, names)
		}
	}
}

// TestRoundTrip: a random program prints as a program that parses back to it, and
// printing is deterministic.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := lambdagen.Program(t, lambdagen.Config{})
		text := lambda.Format(e)
		back, err := lambda.Parse([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if !lambda.AlphaEqual(e, back) || lambda.Format(back) != text {
			t.Fatalf("%s reads back as %s", text, lambda.Format(back))
		}
	})
}

// FuzzParse: the parser never panics; what it accepts prints as a program that parses
// back to it; the type checker never panics either.
func FuzzParse(f *testing.F) {
	testenv.AddFiles(f, "../testdata/lambda/*.lam")
	f.Add([]byte(`letrec f:Int -> Int = \n:Int. if0 n then 1 else n * f (n - 1) in f 5`))
	f.Fuzz(func(t *testing.T, src []byte) {
		e, err := lambda.Parse(src)
		if err != nil {
			return
		}
		_, _ = lambda.TypeOf(e)
		text := lambda.Format(e)
		back, err := lambda.Parse([]byte(text))
		if err != nil || !lambda.AlphaEqual(e, back) {
			t.Fatalf("%q prints as %q, which reads back as %v (%v)", src, text, back, err)
		}
	})
}
