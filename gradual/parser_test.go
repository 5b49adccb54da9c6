package gradual

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/interderive/interderive"
)

// Tree builders for expected values (positions left zero).

func pxInt(n int64) Expr                  { return &IntLit{N: n} }
func pxBool(b bool) Expr                  { return &BoolLit{B: b} }
func pxVar(x string) Expr                 { return &Var{Name: x} }
func pxApp(f, a Expr) Expr                { return &App{Fun: f, Arg: a} }
func pxUn(op Op, x Expr) Expr             { return &Unary{Op: op, X: x} }
func pxBin(op Op, x, y Expr) Expr         { return &Binary{Op: op, X: x, Y: y} }
func pxIf(c, t, e Expr) Expr              { return &If{Cond: c, Then: t, Else: e} }
func pxLam(x string, t Type, b Expr) *Lam { return &Lam{Param: x, T: t, Body: b} }
func pxAsc(x Expr, t Type, l Label) Expr  { return &Asc{X: x, T: t, L: l} }
func pxLet(x string, t Type, b, body Expr) Expr {
	return &Let{Name: x, T: t, Bound: b, Body: body}
}
func pxLetrec(f string, t Type, fun *Lam, body Expr) Expr {
	return &Letrec{Name: f, T: t, Fun: fun, Body: body}
}
func pxCast(t, s Type, l Label, x Expr) Expr { return &Cast{Target: t, Source: s, L: l, X: x} }
func pxCoerce(c Coercion, x Expr) Expr       { return &Coerce{C: c, X: x} }
func pxBlame(l Label) Expr                   { return &Blame{L: l} }

// pxApps builds the left-nested application f a1 ... an.
func pxApps(f Expr, args ...Expr) Expr {
	for _, a := range args {
		f = pxApp(f, a)
	}
	return f
}

// pxStrip returns a copy of e with every position zeroed.
func pxStrip(e Expr) Expr {
	switch e := e.(type) {
	case *IntLit:
		return &IntLit{N: e.N}
	case *BoolLit:
		return &BoolLit{B: e.B}
	case *Var:
		return &Var{Name: e.Name}
	case *Lam:
		return pxStripLam(e)
	case *App:
		return &App{Fun: pxStrip(e.Fun), Arg: pxStrip(e.Arg)}
	case *Unary:
		return &Unary{Op: e.Op, X: pxStrip(e.X)}
	case *Binary:
		return &Binary{Op: e.Op, X: pxStrip(e.X), Y: pxStrip(e.Y)}
	case *If:
		return &If{Cond: pxStrip(e.Cond), Then: pxStrip(e.Then), Else: pxStrip(e.Else)}
	case *Asc:
		return &Asc{X: pxStrip(e.X), T: e.T, L: e.L}
	case *Let:
		return &Let{Name: e.Name, T: e.T, Bound: pxStrip(e.Bound), Body: pxStrip(e.Body)}
	case *Letrec:
		return &Letrec{Name: e.Name, T: e.T, Fun: pxStripLam(e.Fun), Body: pxStrip(e.Body)}
	case *Cast:
		return &Cast{Target: e.Target, Source: e.Source, L: e.L, X: pxStrip(e.X)}
	case *Coerce:
		return &Coerce{C: e.C, X: pxStrip(e.X)}
	case *Blame:
		return &Blame{L: e.L}
	}
	return e
}

func pxStripLam(e *Lam) *Lam {
	if e == nil {
		return nil
	}
	return &Lam{Param: e.Param, T: e.T, Body: pxStrip(e.Body)}
}

// pxDiff compares two trees up to positions.
func pxDiff(want, got Expr) string {
	return cmp.Diff(pxStrip(want), pxStrip(got), cmpopts.IgnoreUnexported(Letrec{}, Lam{}))
}

func pxArr(a, b Type) Type { return &Arrow{From: a, To: b} }

func TestParseStructure(t *testing.T) {
	f, g, x, y, k, n := pxVar("f"), pxVar("g"), pxVar("x"), pxVar("y"), pxVar("k"), pxVar("n")
	one, two := pxInt(1), pxInt(2)
	tests := []struct {
		lang Lang
		src  string
		want Expr
	}{
		// Precedence examples from the spec.
		{GTLC, "fib (k - 1) + fib (k - 2)",
			pxBin(OpAdd, pxApp(pxVar("fib"), pxBin(OpSub, k, one)), pxApp(pxVar("fib"), pxBin(OpSub, k, two)))},
		{GTLC, "inc x + 1", pxBin(OpAdd, pxUn(OpInc, x), one)},
		{GTLC, "inc f x", pxUn(OpInc, pxApp(f, x))},
		{GTLC, "zero? dec x", pxUn(OpZero, pxUn(OpDec, x))},
		{GTLC, "inc x * 2", pxBin(OpMul, pxUn(OpInc, x), two)},
		{GTLC, "f x y", pxApps(f, x, y)},
		{GTLC, "f (g x)", pxApp(f, pxApp(g, x))},
		{GTLC, "f (x)", pxApp(f, x)},
		{GTLC, "1 + 2 * 3", pxBin(OpAdd, one, pxBin(OpMul, two, pxInt(3)))},
		{GTLC, "1 - 2 - 3", pxBin(OpSub, pxBin(OpSub, one, two), pxInt(3))},
		{GTLC, "1 * 2 * 3", pxBin(OpMul, pxBin(OpMul, one, two), pxInt(3))},
		{GTLC, "1 - (2 - 3)", pxBin(OpSub, one, pxBin(OpSub, two, pxInt(3)))},
		{GTLC, "1 + 2 < 3 * 4", pxBin(OpLt, pxBin(OpAdd, one, two), pxBin(OpMul, pxInt(3), pxInt(4)))},
		{GTLC, "x = y + 1", pxBin(OpEq, x, pxBin(OpAdd, y, one))},
		{GTLC, "(1 < 2) = true", pxBin(OpEq, pxBin(OpLt, one, two), pxBool(true))},
		{GTLC, "true", pxBool(true)},
		{GTLC, "false", pxBool(false)},
		{GTLC, "0", pxInt(0)},
		{GTLC, "007", pxInt(7)},
		{GTLC, "9223372036854775807", pxInt(9223372036854775807)},
		{GTLC, "x' _y zero_", pxApps(pxVar("x'"), pxVar("_y"), pxVar("zero_"))},
		// Binders extend as far right as possible.
		{GTLC, `\x. x y`, pxLam("x", Dyn, pxApp(x, y))},
		{GTLC, `λx:Int. inc x`, pxLam("x", Int, pxUn(OpInc, x))},
		{GTLC, `\x:?. x`, pxLam("x", Dyn, x)},
		{GTLC, `\f:Int -> Int. f`, pxLam("f", pxArr(Int, Int), f)},
		{GTLC, `\x. \y. x`, pxLam("x", Dyn, pxLam("y", Dyn, x))},
		{GTLC, `(\x. x) y`, pxApp(pxLam("x", Dyn, x), y)},
		{GTLC, "if zero? n then 1 else n * f (dec n)",
			pxIf(pxUn(OpZero, n), one, pxBin(OpMul, n, pxApp(f, pxUn(OpDec, n))))},
		{GTLC, "if x then if y then 1 else 2 else 3", pxIf(x, pxIf(y, one, two), pxInt(3))},
		{GTLC, "let x = 1 in x + 1", pxLet("x", nil, one, pxBin(OpAdd, x, one))},
		{GTLC, "let x:Int = 1 in let y = x in y", pxLet("x", Int, one, pxLet("y", nil, x, y))},
		{GTLC, "letrec f:Int -> Int = \\n:Int. f n in f 1",
			pxLetrec("f", pxArr(Int, Int), pxLam("n", Int, pxApp(f, n)), pxApp(f, one))},
		{GTLC, "letrec f:Dyn = \\n. n in f", pxLetrec("f", Dyn, pxLam("n", Dyn, n), f)},
		// The convenience forms: an open form as the last argument, the right operand of
		// a binary operator, or the operand of a prefix operator.
		{GTLC, `f \x. x`, pxApp(f, pxLam("x", Dyn, x))},
		{GTLC, `f y \x. x y`, pxApps(f, y, pxLam("x", Dyn, pxApp(x, y)))},
		{GTLC, "1 + if x then 1 else 2", pxBin(OpAdd, one, pxIf(x, one, two))},
		{GTLC, "1 < let y = 1 in y", pxBin(OpLt, one, pxLet("y", nil, one, y))},
		{GTLC, "2 * if x then 1 else 2 + 3", pxBin(OpMul, two, pxIf(x, one, pxBin(OpAdd, two, pxInt(3))))},
		{GTLC, `inc \x. x`, pxUn(OpInc, pxLam("x", Dyn, x))},
		// Ascription.
		{GTLC, "(x : Int)", pxAsc(x, Int, "")},
		{GTLC, "(x : Dyn -> Bool)^l0", pxAsc(x, pxArr(Dyn, Bool), "l0")},
		{GTLC, "(x : Bool)^3:14", pxAsc(x, Bool, "3:14")},
		{GTLC, "(f x : Int) y", pxApp(pxAsc(pxApp(f, x), Int, ""), y)},
		{GTLC, `(\x. x : Int -> Int)`, pxAsc(pxLam("x", Dyn, x), pxArr(Int, Int), "")},
		// Comments and white space.
		{GTLC, "f -- the function\n\tx -- its argument", pxApp(f, x)},
		{GTLC, "-- only a comment line\n1", one},
		// The cast calculus.
		{CastCalculus, "<Int <= Dyn>^l f x", pxCast(Int, Dyn, "l", pxApp(f, x))},
		{CastCalculus, "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4",
			pxCast(Int, Dyn, "l2", pxCast(Dyn, Int, "l1", pxInt(4)))},
		{CastCalculus, "(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\\x:Bool. x)) (<Dyn <= Int>^l3 1)",
			pxApp(pxCast(pxArr(Dyn, Int), Dyn, "l2", pxCast(Dyn, pxArr(Bool, Bool), "l1", pxLam("x", Bool, x))),
				pxCast(Dyn, Int, "l3", one))},
		{CastCalculus, "<? <= Int>^3:14 1", pxCast(Dyn, Int, "3:14", one)},
		{CastCalculus, "<Int!> 4", pxCoerce(&Inj{T: Int}, pxInt(4))},
		{CastCalculus, "<id> f x", pxCoerce(Id, pxApp(f, x))},
		{CastCalculus, "<(Dyn -> Dyn)?^l ; (id -> Int?^l)> f",
			pxCoerce(&Seq{Fst: &Proj{T: DynDyn, L: "l"}, Snd: &Func{Dom: Id, Cod: &Proj{T: Int, L: "l"}}}, f)},
		{CastCalculus, "<Bool?^l2> <Int!> 4", pxCoerce(&Proj{T: Bool, L: "l2"}, pxCoerce(&Inj{T: Int}, pxInt(4)))},
		{CastCalculus, "blame l", pxBlame("l")},
		{CastCalculus, "blame 3:14", pxBlame("3:14")},
		{CastCalculus, "f (blame l)", pxApp(f, pxBlame("l"))},
		{CastCalculus, "f blame l", pxApp(f, pxBlame("l"))},
		{CastCalculus, "inc <Int <= Dyn>^l x", pxUn(OpInc, pxCast(Int, Dyn, "l", x))},
		{CastCalculus, "x < <Int <= Dyn>^l y", pxBin(OpLt, x, pxCast(Int, Dyn, "l", y))},
		{CastCalculus, "1 + <Int <= Dyn>^l f x * 2",
			pxBin(OpAdd, one, pxBin(OpMul, pxCast(Int, Dyn, "l", pxApp(f, x)), two))},
		{CastCalculus, "(<Int -> Int <= Dyn>^l f) x", pxApp(pxCast(pxArr(Int, Int), Dyn, "l", f), x)},
		{CastCalculus, "let x:Int = 1 in x", pxLet("x", Int, one, x)},
		{CastCalculus, "letrec f:Int -> Int = \\n:Int. f n in f 1",
			pxLetrec("f", pxArr(Int, Int), pxLam("n", Int, pxApp(f, n)), pxApp(f, one))},
		{CastCalculus, `\x:Int. x < 1`, pxLam("x", Int, pxBin(OpLt, x, one))},
	}
	for _, tt := range tests {
		got, err := Parse([]byte(tt.src), tt.lang)
		if err != nil {
			t.Errorf("Parse(%q, %v): %v", tt.src, tt.lang, err)
			continue
		}
		if d := pxDiff(tt.want, got); d != "" {
			t.Errorf("Parse(%q, %v) mismatch (-want +got):\n%s", tt.src, tt.lang, d)
		}
	}
}

func TestParsePositions(t *testing.T) {
	p := func(line, col int32) Pos { return Pos{Line: line, Col: col} }
	// f x y
	e := mustParse(t, "f x y", GTLC)
	outer := e.(*App)
	inner := outer.Fun.(*App)
	checkPos(t, "f x y: outer App", outer.P, p(1, 5))
	checkPos(t, "f x y: inner App", inner.P, p(1, 3))
	checkPos(t, "f x y: f", inner.Fun.Pos(), p(1, 1))

	// An App is at its argument's first token, which may be a parenthesis; a Binary is
	// at its operator.
	e = mustParse(t, "fib (k - 1) + fib (k - 2)", GTLC)
	add := e.(*Binary)
	checkPos(t, "+", add.P, p(1, 13))
	checkPos(t, "fib (k - 1)", add.X.Pos(), p(1, 5))
	checkPos(t, "k - 1", add.X.(*App).Arg.Pos(), p(1, 8))
	checkPos(t, "k", add.X.(*App).Arg.(*Binary).X.Pos(), p(1, 6))
	checkPos(t, "fib (k - 2)", add.Y.Pos(), p(1, 19))

	// Asc is at its (, also with an explicit label.
	e = mustParse(t, "1 + (x : Int)^l", GTLC)
	checkPos(t, "1 + ...", e.Pos(), p(1, 3))
	checkPos(t, "(x : Int)^l", e.(*Binary).Y.Pos(), p(1, 5))
	checkPos(t, "x in (x : Int)", e.(*Binary).Y.(*Asc).X.Pos(), p(1, 6))

	// Columns count runes; a tab is one column.
	e = mustParse(t, "λx. x y", GTLC)
	checkPos(t, "λ", e.Pos(), p(1, 1))
	checkPos(t, "x y", e.(*Lam).Body.Pos(), p(1, 7))
	e = mustParse(t, "\tf\tx", GTLC)
	checkPos(t, "tab: App", e.Pos(), p(1, 4))
	checkPos(t, "tab: f", e.(*App).Fun.Pos(), p(1, 2))

	// Lines.
	e = mustParse(t, "let f = \\x. x in\n  f 1", GTLC)
	let := e.(*Let)
	checkPos(t, "let", let.P, p(1, 1))
	checkPos(t, "\\x. x", let.Bound.Pos(), p(1, 9))
	checkPos(t, "f 1", let.Body.Pos(), p(2, 5))
	checkPos(t, "f", let.Body.(*App).Fun.Pos(), p(2, 3))

	e = mustParse(t, "if b then 1 else 2", GTLC)
	checkPos(t, "if", e.Pos(), p(1, 1))
	checkPos(t, "else branch", e.(*If).Else.Pos(), p(1, 18))

	e = mustParse(t, "letrec f:Int = \\x:Int. x in f", GTLC)
	checkPos(t, "letrec", e.Pos(), p(1, 1))
	checkPos(t, "letrec's lambda", e.(*Letrec).Fun.P, p(1, 16))

	// Prefix operators are at their first token.
	e = mustParse(t, "f (<Int <= Dyn>^l x)", CastCalculus)
	checkPos(t, "f (<...> x)", e.Pos(), p(1, 3))
	checkPos(t, "cast", e.(*App).Arg.Pos(), p(1, 4))
	checkPos(t, "cast operand", e.(*App).Arg.(*Cast).X.Pos(), p(1, 19))
	e = mustParse(t, "  <Int!> zero? x", CastCalculus)
	checkPos(t, "coercion", e.Pos(), p(1, 3))
	checkPos(t, "zero?", e.(*Coerce).X.Pos(), p(1, 10))
	checkPos(t, "zero? operand", e.(*Coerce).X.(*Unary).X.Pos(), p(1, 16))
	e = mustParse(t, "x\n= blame l", CastCalculus)
	checkPos(t, "=", e.Pos(), p(2, 1))
	checkPos(t, "blame", e.(*Binary).Y.Pos(), p(2, 3))
}

func mustParse(t *testing.T, src string, lang Lang) Expr {
	t.Helper()
	e, err := Parse([]byte(src), lang)
	if err != nil {
		t.Fatalf("Parse(%q, %v): %v", src, lang, err)
	}
	return e
}

func checkPos(t *testing.T, what string, got, want Pos) {
	t.Helper()
	if got != want {
		t.Errorf("%s: position %v, want %v", what, got, want)
	}
}

func TestParseErrors(t *testing.T) {
	deepParens := strings.Repeat("(", MaxNesting+1000) + "x" + strings.Repeat(")", MaxNesting+1000)
	tooDeep := fmt.Sprintf("expression nests too deeply (limit %d)", MaxNesting)
	at := func(col int) string { return fmt.Sprintf("1:%d", col) }
	tests := []struct {
		lang Lang
		src  string
		pos  string // LINE:COL of the first error
		msg  string // a part of its message
	}{
		{GTLC, "", "1:1", "expected an expression"},
		{GTLC, "   \n", "2:1", "expected an expression"},
		{GTLC, "-- nothing but a comment", "1:25", "expected an expression"},
		{GTLC, "\n\n  )", "3:3", "expected an expression"},
		{GTLC, "(1 : Int", "1:9", "expected )"},
		{GTLC, "(x : Int)^", "1:11", "expected a blame label"},
		{GTLC, "(x : Int)^if", "1:11", "expected a blame label"},
		{GTLC, "1 < 2 < 3", "1:7", "non-associative"},
		{GTLC, "1 = 2 < 3", "1:7", "non-associative"},
		{GTLC, "f x )", "1:5", `unexpected ")"`},
		{GTLC, "f x y z w )", "1:11", `unexpected ")"`},
		{GTLC, "x $", "1:3", "unexpected character '$'"},
		{GTLC, "x # y", "1:3", "unexpected character '#'"},
		{GTLC, "x\xff", "1:2", "invalid UTF-8"},
		{GTLC, "\xc3", "1:1", "invalid UTF-8"},
		{GTLC, "x -- comment \xff\ny", "1:14", "invalid UTF-8"},
		{GTLC, "x\x00", "1:2", "NUL"},
		{GTLC, "λ\x00", "1:2", "NUL"},
		{GTLC, "99999999999999999999", "1:1", "integer literal out of range"},
		{GTLC, "f 9223372036854775808", "1:3", "integer literal out of range"},
		{GTLC, "if x then y", "1:12", "expected else"},
		{GTLC, "if x y else z", "1:8", "expected then"},
		{GTLC, "let = 1 in x", "1:5", "expected a variable name"},
		{GTLC, "let x = 1", "1:10", "expected in"},
		{GTLC, "letrec f:Int = 1 in f", "1:16", "letrec must bind a function"},
		{GTLC, "letrec f = \\x. x in f", "1:10", "letrec needs one"},
		{GTLC, "\\1. x", "1:2", "expected a parameter name"},
		{GTLC, "\\x:Int x", "1:8", "expected '.'"},
		{GTLC, "\\x:Int ->. x", "1:10", "expected a type"},
		{GTLC, "f inc x", "1:3", "must be parenthesised"},
		{GTLC, "x +", "1:4", "expected an expression"},
		{GTLC, "x + * y", "1:5", "expected an expression"},
		{GTLC, "Int", "1:1", `expected an expression, found "Int"`},
		{GTLC, "then", "1:1", `expected an expression, found "then"`},
		// Constructs of the other language.
		{GTLC, "<Int <= Dyn>^l x", "1:1", "cast-calculus syntax"},
		{GTLC, "f (<Int!> x)", "1:4", "cast-calculus syntax"},
		{GTLC, "blame l", "1:1", "blame is cast-calculus syntax"},
		{CastCalculus, "(x : Int)", "1:4", "ascription is GTLC syntax; in the cast calculus write <T <= S>^l e"},
		{CastCalculus, "\\x. x", "1:3", "unannotated lambda is GTLC syntax"},
		{CastCalculus, "let x = 1 in x", "1:7", "let without a type is GTLC syntax"},
		{CastCalculus, "<Int <= Dyn> 4", "1:14", "expected ^ and a blame label"},
		{CastCalculus, "<Int <= Dyn>^ 4", "1:15", "expected a blame label"},
		{CastCalculus, "<Int <= Dyn 4", "1:13", "expected > to close the cast"},
		{CastCalculus, "<id 4", "1:5", "expected > to close the coercion"},
		{CastCalculus, "<Int!> ", "1:8", "expected an expression"},
		{CastCalculus, "blame", "1:6", "expected a blame label"},
		{CastCalculus, "f <Int <= Dyn>^l x", "1:4", `expected an expression, found "Int"`},
		// Nesting limits.
		// Nesting limits: the token at which the nesting passes MaxNesting (each level
		// of parentheses one column, of inc or \x. four; the tree of f x1 ... xn is
		// too deep at the application of x(n-MaxNesting), at column 2(n-MaxNesting)+1).
		{GTLC, deepParens, at(MaxNesting + 1), tooDeep},
		{CastCalculus, deepParens, at(MaxNesting + 1), tooDeep},
		{GTLC, strings.Repeat("inc ", MaxNesting+1000) + "x", at(4*MaxNesting + 1), tooDeep},
		{GTLC, strings.Repeat(`\x. `, MaxNesting+1000) + "x", at(4*MaxNesting + 1), tooDeep},
		{GTLC, "\\x:" + strings.Repeat("(", MaxNesting+1000) + "Int" + strings.Repeat(")", MaxNesting+1000) + ". x", at(MaxNesting + 3), tooDeep},
		{GTLC, "f" + strings.Repeat(" x", MaxNesting+500), "1:1001", tooDeep},
		{GTLC, strings.Repeat("let x = (", MaxNesting+1000) + "1" + strings.Repeat(") in x", MaxNesting+1000), at(9*(MaxNesting/2) + 1), tooDeep},
		// A million parentheses: an error, positioned.
		{GTLC, strings.Repeat("(", 1_000_000) + "1" + strings.Repeat(")", 1_000_000), at(MaxNesting + 1), tooDeep},
		{CastCalculus, strings.Repeat("(", 1_000_000) + "1" + strings.Repeat(")", 1_000_000), at(MaxNesting + 1), tooDeep},
	}
	for _, tt := range tests {
		if testing.Short() && len(tt.src) > 10_000 {
			continue // the nesting limits take seconds of stack growth: the full run checks them
		}
		_, err := Parse([]byte(tt.src), tt.lang)
		name := tt.src
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		var list interderive.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("Parse(%q, %v) = %v, want an ErrorList", name, tt.lang, err)
			continue
		}
		if got := list[0].Pos.String(); got != tt.pos || !strings.Contains(list[0].Msg, tt.msg) {
			t.Errorf("Parse(%q, %v): first error %v, want %s: ...%s...", name, tt.lang, list[0], tt.pos, tt.msg)
		}
	}
}

func TestParseCollectsErrors(t *testing.T) {
	_, err := Parse([]byte("f $ x # y"), GTLC)
	var list interderive.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("want an ErrorList, got %v", err)
	}
	if len(list) != 2 || list[0].Pos.String() != "1:3" || list[1].Pos.String() != "1:7" {
		t.Errorf("errors = %v, want two, at 1:3 and 1:7", list)
	}
	_, err = Parse([]byte(strings.Repeat("$", 50)), GTLC)
	if !errors.As(err, &list) || len(list) != maxErrors {
		t.Errorf("50 bad characters: got %d errors, want %d", len(list), maxErrors)
	}
	if _, err := Parse([]byte("x"), Lang(7)); err == nil {
		t.Errorf("Parse with an unknown language succeeded")
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		src  string
		want Type
	}{
		{"Int", Int},
		{"Bool", Bool},
		{"Dyn", Dyn},
		{"?", Dyn},
		{"(Int)", Int},
		{"Int -> Bool -> Dyn", pxArr(Int, pxArr(Bool, Dyn))},
		{"(Int -> Int) -> Int", pxArr(pxArr(Int, Int), Int)},
		{"? -> ?", DynDyn},
		{"  Int->Int -- comment", pxArr(Int, Int)},
	}
	for _, tt := range tests {
		got, err := ParseType(tt.src)
		if err != nil {
			t.Errorf("ParseType(%q): %v", tt.src, err)
			continue
		}
		if !Identical(got, tt.want) {
			t.Errorf("ParseType(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
	for _, tt := range []struct{ src, pos string }{
		{"", "1:1"}, {"Int ->", "1:7"}, {"(Int", "1:5"}, {"Int Int", "1:5"}, {"x", "1:1"}, {"Int -> $", "1:8"},
	} {
		_, err := ParseType(tt.src)
		var list interderive.ErrorList
		if !errors.As(err, &list) || list[0].Pos.String() != tt.pos {
			t.Errorf("ParseType(%q) = %v, want an error at %s", tt.src, err, tt.pos)
		}
	}
}

func TestParseCoercion(t *testing.T) {
	injInt, projInt := &Inj{T: Int}, &Proj{T: Int, L: "l"}
	tests := []struct {
		src  string
		want Coercion
	}{
		{"id", Id},
		{"Int!", injInt},
		{"?!", &Inj{T: Dyn}},
		{"Dyn!", &Inj{T: Dyn}},
		{"(Dyn -> Dyn)!", &Inj{T: DynDyn}},
		{"Bool?^l1", &Proj{T: Bool, L: "l1"}},
		{"(Int -> Int)?^3:14", &Proj{T: pxArr(Int, Int), L: "3:14"}},
		{"fail^l", &Fail{L: "l"}},
		{"((Int))!", injInt},
		{"((id))", Id},
		{"id -> Int!", &Func{Dom: Id, Cod: injInt}},
		{"id -> id -> id", &Func{Dom: Id, Cod: &Func{Dom: Id, Cod: Id}}},
		{"(id -> id) -> id", &Func{Dom: &Func{Dom: Id, Cod: Id}, Cod: Id}},
		{"(Dyn -> Dyn)?^l ; (id -> Int?^l)",
			&Seq{Fst: &Proj{T: DynDyn, L: "l"}, Snd: &Func{Dom: Id, Cod: projInt}}},
		// ; is right-nested, however it was written.
		{"Int! ; Int?^l ; id", &Seq{Fst: injInt, Snd: &Seq{Fst: projInt, Snd: Id}}},
		{"(Int! ; Int?^l) ; id", &Seq{Fst: injInt, Snd: &Seq{Fst: projInt, Snd: Id}}},
		{"Int! ; (Int?^l ; id)", &Seq{Fst: injInt, Snd: &Seq{Fst: projInt, Snd: Id}}},
		// -> binds tighter than ;.
		{"Int! -> Int! ; Bool?^l", &Seq{Fst: &Func{Dom: injInt, Cod: injInt}, Snd: &Proj{T: Bool, L: "l"}}},
		{"id -> (Int! ; Int?^l)", &Func{Dom: Id, Cod: &Seq{Fst: injInt, Snd: projInt}}},
		{"(id -> id ; id) -> id", &Func{Dom: &Seq{Fst: &Func{Dom: Id, Cod: Id}, Snd: Id}, Cod: Id}},
	}
	for _, tt := range tests {
		got, err := ParseCoercion(tt.src)
		if err != nil {
			t.Errorf("ParseCoercion(%q): %v", tt.src, err)
			continue
		}
		if !EqualCoercions(got, tt.want) {
			t.Errorf("ParseCoercion(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
	for _, tt := range []struct{ src, pos, msg string }{
		{"", "1:1", "expected a coercion"},
		{"Int", "1:4", "expected ! or ?^l"},
		{"Int?", "1:5", "expected ^"},
		{"Int?^", "1:6", "expected a blame label"},
		{"fail", "1:5", "expected ^"},
		{"id ;", "1:5", "expected a coercion"},
		{"(id", "1:4", "expected ) in coercion"},
		{"Int -> Int!", "1:5", "expected ! or ?^l"},
		{"id id", "1:4", "unexpected"},
	} {
		_, err := ParseCoercion(tt.src)
		var list interderive.ErrorList
		if !errors.As(err, &list) || list[0].Pos.String() != tt.pos || !strings.Contains(list[0].Msg, tt.msg) {
			t.Errorf("ParseCoercion(%q) = %v, want an error at %s: ...%s...", tt.src, err, tt.pos, tt.msg)
		}
	}
}

// exampleFiles returns the example programs of the project (the specification's
// examples and the test programs), with their language.
func exampleFiles(t testing.TB) map[string]Lang {
	files := map[string]Lang{}
	for _, dir := range []string{"../../shared/examples/gradual", "../testdata/gradual", "../testdata/gradual/examples"} {
		for ext, lang := range map[string]Lang{".gtlc": GTLC, ".cast": CastCalculus} {
			names, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
			for _, name := range names {
				files[name] = lang
			}
		}
	}
	return files
}

func TestParseExamples(t *testing.T) {
	files := exampleFiles(t)
	if len(files) == 0 {
		t.Skip("no example files found")
	}
	t.Logf("%d example files", len(files))
	for name, lang := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Parse(src, lang)
		if expectsSyntaxError(src) {
			if err == nil {
				t.Errorf("%s: expects a syntax error, but parses", name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		again, err := Parse([]byte(Format(e)), lang)
		if err != nil {
			t.Errorf("%s: reparsing %q: %v", name, Format(e), err)
			continue
		}
		if d := pxDiff(e, again); d != "" {
			t.Errorf("%s: round trip mismatch (-want +got):\n%s", name, d)
		}
	}
}

// expectsSyntaxError reports whether a test program announces, in a "-- expect" line,
// that it does not parse.
func expectsSyntaxError(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "-- expect") &&
			(strings.Contains(line, "syntax error") || strings.Contains(line, "parse error")) {
			return true
		}
	}
	return false
}

func TestParseExampleTrees(t *testing.T) {
	// Two example programs, written out by hand.
	src := "-- expect: 55\nletrec fib: Int -> Int = \\k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in\nfib 10\n"
	fib, k := pxVar("fib"), pxVar("k")
	want := pxLetrec("fib", pxArr(Int, Int),
		pxLam("k", Int, pxIf(pxBin(OpLt, k, pxInt(2)), k,
			pxBin(OpAdd, pxApp(fib, pxBin(OpSub, k, pxInt(1))), pxApp(fib, pxBin(OpSub, k, pxInt(2)))))),
		pxApp(fib, pxInt(10)))
	if d := pxDiff(want, mustParse(t, src, GTLC)); d != "" {
		t.Errorf("typed-fib (-want +got):\n%s", d)
	}
	src = "let f = (((\\x:Int. inc x) : Dyn)^l0 : Bool -> Bool)^l1 in\nf true"
	want = pxLet("f", nil,
		pxAsc(pxAsc(pxLam("x", Int, pxUn(OpInc, pxVar("x"))), Dyn, "l0"), pxArr(Bool, Bool), "l1"),
		pxApp(pxVar("f"), pxBool(true)))
	if d := pxDiff(want, mustParse(t, src, GTLC)); d != "" {
		t.Errorf("eg1 (-want +got):\n%s", d)
	}
}

func TestLangString(t *testing.T) {
	if GTLC.String() != "gtlc" || CastCalculus.String() != "cast" {
		t.Errorf("Lang strings: %q %q", GTLC, CastCalculus)
	}
}

// TestParseInternsNames checks that the occurrences of a name share one string (the
// lexer interns identifiers), which castval.Env.Lookup relies on to compare them
// without a call.
func TestParseInternsNames(t *testing.T) {
	e := mustParse(t, `\k:Int. k + k`, GTLC)
	lam := e.(*Lam)
	sum := lam.Body.(*Binary)
	for _, x := range []*Var{sum.X.(*Var), sum.Y.(*Var)} {
		if unsafe.StringData(x.Name) != unsafe.StringData(lam.Param) {
			t.Errorf("occurrence of %s at %v does not share the parameter's string", x.Name, x.P)
		}
	}
}
