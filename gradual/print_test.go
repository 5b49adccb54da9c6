package gradual

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestFormat(t *testing.T) {
	f, g, x, y, b := pxVar("f"), pxVar("g"), pxVar("x"), pxVar("y"), pxVar("b")
	one, two, three := pxInt(1), pxInt(2), pxInt(3)
	idInt := pxLam("x", Int, x)
	ifb := pxIf(b, one, two)
	tests := []struct {
		e    Expr
		want string
	}{
		{one, "1"},
		{pxInt(-5), "-5"},
		{pxBool(false), "false"},
		{pxLam("x", Dyn, x), `\x:Dyn. x`},
		{pxLam("f", pxArr(Int, Int), pxApp(f, one)), `\f:Int -> Int. f 1`},
		{pxLam("x", Int, pxLam("y", Bool, x)), `\x:Int. \y:Bool. x`},
		{pxLet("x", nil, one, x), "let x = 1 in x"},
		{pxLet("x", Int, one, pxLet("y", nil, x, y)), "let x:Int = 1 in let y = x in y"},
		{pxLetrec("f", pxArr(Int, Int), pxLam("n", Int, pxApp(f, pxVar("n"))), pxApp(f, one)),
			`letrec f:Int -> Int = \n:Int. f n in f 1`},
		{pxIf(pxIf(x, y, b), ifb, ifb), "if if x then y else b then if b then 1 else 2 else if b then 1 else 2"},
		// Application.
		{pxApps(f, x, y), "f x y"},
		{pxApp(f, pxApp(g, x)), "f (g x)"},
		{pxApp(idInt, pxInt(5)), `(\x:Int. x) 5`},
		{pxApp(f, idInt), `f \x:Int. x`},
		{pxApps(f, idInt, y), `f (\x:Int. x) y`},
		{pxApp(f, pxInt(-5)), "f (-5)"},
		{pxApp(pxUn(OpInc, f), x), "(inc f) x"},
		{pxApp(f, pxUn(OpInc, x)), "f (inc x)"},
		{pxApp(f, pxBin(OpSub, x, one)), "f (x - 1)"},
		{pxApp(f, pxAsc(x, Int, "")), "f (x : Int)"},
		// Prefix operators.
		{pxUn(OpInc, pxApp(f, x)), "inc f x"},
		{pxUn(OpZero, pxUn(OpDec, x)), "zero? dec x"},
		{pxUn(OpInc, idInt), `inc \x:Int. x`},
		{pxUn(OpInc, pxBin(OpAdd, x, one)), "inc (x + 1)"},
		// Binary operators.
		{pxBin(OpAdd, pxUn(OpInc, x), one), "inc x + 1"},
		{pxBin(OpAdd, pxApp(f, pxBin(OpSub, x, one)), pxApp(f, pxBin(OpSub, x, two))), "f (x - 1) + f (x - 2)"},
		{pxBin(OpSub, one, pxBin(OpSub, two, three)), "1 - (2 - 3)"},
		{pxBin(OpSub, pxBin(OpSub, one, two), three), "1 - 2 - 3"},
		{pxBin(OpAdd, one, pxBin(OpMul, two, three)), "1 + 2 * 3"},
		{pxBin(OpMul, pxBin(OpAdd, one, two), three), "(1 + 2) * 3"},
		{pxBin(OpMul, one, pxBin(OpMul, two, three)), "1 * (2 * 3)"},
		{pxBin(OpLt, pxBin(OpLt, x, y), b), "(x < y) < b"},
		{pxBin(OpEq, x, pxBin(OpEq, y, b)), "x = (y = b)"},
		{pxBin(OpEq, pxBin(OpAdd, x, one), pxBin(OpMul, y, two)), "x + 1 = y * 2"},
		{pxBin(OpSub, one, pxInt(-5)), "1 - -5"},
		{pxBin(OpAdd, ifb, one), "(if b then 1 else 2) + 1"},
		{pxBin(OpAdd, one, ifb), "1 + if b then 1 else 2"},
		{pxBin(OpAdd, pxBin(OpAdd, one, ifb), two), "1 + (if b then 1 else 2) + 2"},
		{pxBin(OpAdd, pxUn(OpInc, idInt), y), `inc (\x:Int. x) + y`},
		{pxBin(OpLt, x, pxLet("y", nil, one, y)), "x < let y = 1 in y"},
		// Ascription.
		{pxAsc(x, pxArr(Int, Int), "l"), "(x : Int -> Int)^l"},
		{pxAsc(pxAsc(idInt, Dyn, "l0"), pxArr(Bool, Bool), "l1"), `((\x:Int. x : Dyn)^l0 : Bool -> Bool)^l1`},
		{pxAsc(x, Bool, "3:14"), "(x : Bool)^3:14"},
		// The cast calculus.
		{pxCast(Int, Dyn, "l2", pxCast(Dyn, Int, "l1", pxInt(4))), "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4"},
		{pxCast(Int, Dyn, "l", pxApp(f, x)), "<Int <= Dyn>^l f x"},
		{pxApp(pxCast(pxArr(Int, Int), Dyn, "l", f), x), "(<Int -> Int <= Dyn>^l f) x"},
		{pxApp(f, pxCast(Int, Dyn, "l", x)), "f (<Int <= Dyn>^l x)"},
		{pxBin(OpLt, x, pxCast(Int, Dyn, "l", y)), "x < <Int <= Dyn>^l y"},
		{pxBin(OpMul, pxCast(Int, Dyn, "l", x), y), "<Int <= Dyn>^l x * y"},
		{pxCoerce(&Inj{T: Int}, pxInt(4)), "<Int!> 4"},
		{pxCoerce(&Seq{Fst: &Proj{T: DynDyn, L: "l"}, Snd: &Func{Dom: Id, Cod: &Proj{T: Int, L: "l"}}}, f),
			"<(Dyn -> Dyn)?^l ; id -> Int?^l> f"},
		{pxBlame("l"), "blame l"},
		{pxApp(f, pxBlame("3:14")), "f blame 3:14"},
		{pxApp(pxBlame("l"), x), "blame l x"},
	}
	for _, tt := range tests {
		if got := Format(tt.e); got != tt.want {
			t.Errorf("Format = %q, want %q", got, tt.want)
		}
	}
}

func TestFormatType(t *testing.T) {
	tests := []struct {
		t    Type
		want string
	}{
		{Int, "Int"},
		{Bool, "Bool"},
		{Dyn, "Dyn"},
		{Bot, "_"},
		{pxArr(Int, Int), "Int -> Int"},
		{pxArr(pxArr(Int, Int), Int), "(Int -> Int) -> Int"},
		{pxArr(Int, pxArr(Int, Int)), "Int -> Int -> Int"},
		{pxArr(pxArr(Dyn, Dyn), pxArr(Bool, Dyn)), "(Dyn -> Dyn) -> Bool -> Dyn"},
	}
	for _, tt := range tests {
		if got := FormatType(tt.t); got != tt.want {
			t.Errorf("FormatType = %q, want %q", got, tt.want)
		}
	}
}

func TestFormatCoercion(t *testing.T) {
	a, b, c := &Inj{T: Int}, &Proj{T: Int, L: "l"}, Id
	tests := []struct {
		c    Coercion
		want string
	}{
		{Id, "id"},
		{&Inj{T: Int}, "Int!"},
		{&Inj{T: Dyn}, "Dyn!"},
		{&Inj{T: DynDyn}, "(Dyn -> Dyn)!"},
		{&Proj{T: Int, L: "l1"}, "Int?^l1"},
		{&Proj{T: pxArr(Bool, Bool), L: "3:14"}, "(Bool -> Bool)?^3:14"},
		{&Fail{L: "l"}, "fail^l"},
		{&Func{Dom: c, Cod: a}, "id -> Int!"},
		{&Func{Dom: &Func{Dom: c, Cod: c}, Cod: c}, "(id -> id) -> id"},
		{&Func{Dom: c, Cod: &Func{Dom: c, Cod: c}}, "id -> id -> id"},
		{&Func{Dom: &Seq{Fst: a, Snd: b}, Cod: c}, "(Int! ; Int?^l) -> id"},
		{&Func{Dom: c, Cod: &Seq{Fst: a, Snd: b}}, "id -> (Int! ; Int?^l)"},
		{&Seq{Fst: &Func{Dom: c, Cod: c}, Snd: a}, "id -> id ; Int!"},
		{&Seq{Fst: a, Snd: &Seq{Fst: b, Snd: c}}, "Int! ; Int?^l ; id"},
		{&Seq{Fst: &Seq{Fst: a, Snd: b}, Snd: c}, "(Int! ; Int?^l) ; id"},
		{&Seq{Fst: &Proj{T: DynDyn, L: "l"}, Snd: &Func{Dom: c, Cod: b}}, "(Dyn -> Dyn)?^l ; id -> Int?^l"},
	}
	for _, tt := range tests {
		if got := FormatCoercion(tt.c); got != tt.want {
			t.Errorf("FormatCoercion = %q, want %q", got, tt.want)
		}
		if got := fmt.Sprint(tt.c); got != tt.want {
			t.Errorf("String = %q, want %q", got, tt.want)
		}
	}
}

// TestFormatIdentity checks that programs already in canonical form print as written.
func TestFormatIdentity(t *testing.T) {
	tests := []struct {
		lang Lang
		src  string
	}{
		{GTLC, "fib (k - 1) + fib (k - 2)"},
		{GTLC, `letrec fib:Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib 10`},
		{GTLC, `let f = ((\x:Int. inc x : Dyn)^l0 : Bool -> Bool)^l1 in f true`},
		{GTLC, `(\x:Int. inc x) true`},
		{GTLC, `f \x:Dyn. g \y:Dyn. x y`},
		{GTLC, "inc f x + dec g y * 2 < 3"},
		{CastCalculus, "(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 \\x:Bool. x) (<Dyn <= Int>^l3 1)"},
		{CastCalculus, "<Bool?^l2> <Int!> 4"},
		{CastCalculus, "<(Int! -> Int?^l) -> Bool! ; fail^l> f"},
		{CastCalculus, "if zero? x then blame l else blame 3:14"},
	}
	for _, tt := range tests {
		e := mustParse(t, tt.src, tt.lang)
		if got := Format(e); got != tt.src {
			t.Errorf("Format(Parse(%q)) = %q", tt.src, got)
		}
	}
}

// TestFormatDeep: past maxPrintDepth levels (4·MaxNesting) Format prints "...", so
// that a term a run built arbitrarily deep prints without exhausting the stack; a
// chain of lets does not nest.
func TestFormatDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("terms maxPrintDepth deep take a second to build and print: the full run checks the cut")
	}
	const n = maxPrintDepth + 10000
	var e Expr = pxVar("x")
	for range n {
		e = pxUn(OpInc, e)
	}
	if got, want := Format(e), strings.Repeat("inc ", maxPrintDepth)+"..."; got != want {
		t.Errorf("Format of a %d-deep term: got %d bytes ending %q, want %d bytes", n, len(got), got[max(0, len(got)-20):], len(want))
	}
	e = pxVar("x")
	for range n {
		e = pxApp(pxVar("f"), e)
	}
	if got := Format(e); !strings.Contains(got, "...") || len(got) > 4*n {
		t.Errorf("Format of a deep application: %d bytes, no ...", len(got))
	}
	var ty Type = Int
	for range n {
		ty = pxArr(Int, ty)
	}
	if got := FormatType(ty); !strings.HasPrefix(got, strings.Repeat("Int -> ", maxPrintDepth-1)) || !strings.HasSuffix(got, "...") || len(got) > 8*n {
		t.Errorf("FormatType of a deep type: %d bytes, not cut off at depth %d", len(got), maxPrintDepth)
	}
	var c Coercion = Id
	for range n {
		c = &Func{Dom: Id, Cod: c}
	}
	if got := FormatCoercion(c); !strings.HasSuffix(got, "...") {
		t.Errorf("FormatCoercion of a deep coercion does not end with ...")
	}
	// A chain of n lets prints whole.
	e = pxInt(0)
	for range n {
		e = &Let{Name: "x", Bound: pxInt(1), Body: e}
	}
	if got, want := Format(e), strings.Repeat("let x = 1 in ", n)+"0"; got != want {
		t.Errorf("Format of a chain of %d lets: %d bytes, want %d", n, len(got), len(want))
	}
}

func TestFormatMalformed(t *testing.T) {
	// Malformed trees must not crash the printer.
	for _, e := range []Expr{nil, (*Var)(nil), &App{}, &Letrec{Name: "f"}, &Cast{}, &Coerce{}, &Lam{Param: "x"}} {
		_ = Format(e)
	}
	_ = FormatType(nil)
	_ = FormatType((*Arrow)(nil))
	_ = FormatCoercion(nil)
	_ = FormatCoercion(&Seq{})
	_ = (*Inj)(nil).String()
}

// Random trees.

var (
	genNames  = []string{"x", "y", "f", "g", "zero", "x'", "_t", "lets", "in_", "ifz", "fib"}
	genLabels = []Label{"l", "l1", "pass", "l'", "_", "3:14", "10:2"}
)

func genType(t *rapid.T, depth int) Type {
	switch n := rapid.IntRange(0, 4).Draw(t, "type"); {
	case n == 0:
		return Int
	case n == 1:
		return Bool
	case n == 2 || depth <= 0:
		return Dyn
	}
	return &Arrow{From: genType(t, depth-1), To: genType(t, depth-1)}
}

func genLabel(t *rapid.T) Label { return rapid.SampledFrom(genLabels).Draw(t, "label") }

func genCoercion(t *rapid.T, depth int) Coercion {
	n := rapid.IntRange(0, 5).Draw(t, "coercion")
	if depth <= 0 {
		n %= 3
	}
	switch n {
	case 0:
		return Id
	case 1:
		return &Inj{T: genType(t, 2)}
	case 2:
		if rapid.Bool().Draw(t, "fail") {
			return &Fail{L: genLabel(t)}
		}
		return &Proj{T: genType(t, 2), L: genLabel(t)}
	case 3:
		return &Func{Dom: genCoercion(t, depth-1), Cod: genCoercion(t, depth-1)}
	}
	return Then(genCoercion(t, depth-1), genCoercion(t, depth-1))
}

func genExpr(t *rapid.T, lang Lang, depth int) Expr {
	name := func() string { return rapid.SampledFrom(genNames).Draw(t, "name") }
	sub := func() Expr { return genExpr(t, lang, depth-1) }
	n := rapid.IntRange(0, 15).Draw(t, "expr")
	if depth <= 0 {
		n %= 4
	}
	switch n {
	case 0:
		return &IntLit{N: rapid.Int64Range(0, math.MaxInt64).Draw(t, "n")}
	case 1:
		return &BoolLit{B: rapid.Bool().Draw(t, "b")}
	case 2:
		return &Var{Name: name()}
	case 3:
		if lang == CastCalculus {
			return &Blame{L: genLabel(t)}
		}
		return &Var{Name: name()}
	case 4:
		return &Lam{Param: name(), T: genType(t, 2), Body: sub()}
	case 5, 6:
		return &App{Fun: sub(), Arg: sub()}
	case 7:
		return &Unary{Op: Op(rapid.IntRange(int(OpInc), int(OpZero)).Draw(t, "op")), X: sub()}
	case 8, 9:
		return &Binary{Op: Op(rapid.IntRange(int(OpAdd), int(OpLt)).Draw(t, "op")), X: sub(), Y: sub()}
	case 10:
		return &If{Cond: sub(), Then: sub(), Else: sub()}
	case 11:
		var ty Type
		if lang == CastCalculus || rapid.Bool().Draw(t, "typed") {
			ty = genType(t, 2)
		}
		return &Let{Name: name(), T: ty, Bound: sub(), Body: sub()}
	case 12:
		return &Letrec{Name: name(), T: genType(t, 2), Fun: &Lam{Param: name(), T: genType(t, 2), Body: sub()}, Body: sub()}
	case 13:
		if lang == GTLC {
			var l Label
			if rapid.Bool().Draw(t, "labelled") {
				l = genLabel(t)
			}
			return &Asc{X: sub(), T: genType(t, 3), L: l}
		}
		return &Cast{Target: genType(t, 2), Source: genType(t, 2), L: genLabel(t), X: sub()}
	case 14:
		if lang == CastCalculus {
			return &Coerce{C: genCoercion(t, 3), X: sub()}
		}
		return &App{Fun: sub(), Arg: sub()}
	}
	return &Unary{Op: OpInc, X: sub()}
}

// TestRoundTripProperty: for random trees of both languages, Parse(Format(e)) == e.
func TestRoundTripProperty(t *testing.T) {
	for _, lang := range []Lang{GTLC, CastCalculus} {
		t.Run(lang.String(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				e := genExpr(t, lang, 6)
				src := Format(e)
				got, err := Parse([]byte(src), lang)
				if err != nil {
					t.Fatalf("Parse(%q): %v", src, err)
				}
				if d := pxDiff(e, got); d != "" {
					t.Fatalf("round trip of %q (-want +got):\n%s", src, d)
				}
			})
		})
	}
}

// TestCoercionRoundTripProperty: for random canonical coercions, parsing the printed
// form gives the coercion back.
func TestCoercionRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCoercion(t, 5)
		src := FormatCoercion(c)
		got, err := ParseCoercion(src)
		if err != nil {
			t.Fatalf("ParseCoercion(%q): %v", src, err)
		}
		if !EqualCoercions(got, c) {
			t.Fatalf("round trip of %q gave %v", src, got)
		}
		ty := genType(t, 5)
		back, err := ParseType(FormatType(ty))
		if err != nil || !Identical(back, ty) {
			t.Fatalf("type round trip of %q: %v, %v", FormatType(ty), back, err)
		}
	})
}
