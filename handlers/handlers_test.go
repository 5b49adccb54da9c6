package handlers

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// layers is the spec's two-layer program (§5).
const layers = `op fca : real -> real
op fcb : real -> real
heap a : real = 2
heap b : real = 3
rev handle(1) <x>. let h <= fca(x) in fcb(h)
with { return o -> [0.5 * (o - 4)]
     ; fca(x) -> let w <= get[a]() in [<w * x, <w, x>>]
               | y, z -> let <w, x> <= [z] in let u <= put[a](w - y * x) in [w * y]
     ; fcb(x) -> let w <= get[b]() in [<w * x, <w, x>>]
               | y, z -> let <w, x> <= [z] in let u <= put[b](w - y * x) in [w * y] }
`

func TestParseErrors(t *testing.T) {
	// Each position is counted by hand in the source (line:column, columns in runes).
	tests := []struct {
		name, src, pos, msg string
	}{
		{"empty", ``, "1:1", "expected a command"},
		{"only decls", "op f : real -> real\n", "2:1", "expected a command"},
		{"unclosed pure", `[1 + 2`, "1:7", "expected ']' to close the term"},
		{"wrong closer", `[1 + 2)`, "1:7", "expected ']' to close the term"},
		{"empty term", `[]`, "1:2", "expected a term"},
		{"term error shifted", "\n  [1 + ]", "2:8", ""},
		{"term error on a later line", "[1 +\n  + 2]", "2:3", ""},
		{"if refused", `[if lt(<1, 2>) then 1 else 2]`, "1:2", "if is not a term of this language"},
		{"call refused", `[f(1)]`, "1:2", "unknown operator f"},
		{"letrec refused", `[letrec f(x:real):real = x in f(1)]`, "1:2", "letrec is not a term"},
		{"let without in", `let x <= [1] [x]`, "1:14", "expected 'in'"},
		{"let arrow", `let x = [1] in [x]`, "1:7", "expected '<=' in a command let"},
		{"rev without handle", `rev (1) <x>. [x] with { return x -> [x] }`, "1:5", "expected 'handle'"},
		{"no return clause", `rev handle(1) <x>. [x] with { }`, "1:31", "expected a clause"},
		{"no return clause 2", "op f : real -> real\nrev handle(1) <x>. f(x) with { f(x) -> [<x, x>] | y, z -> [y] }", "2:30", "no return clause"},
		{"two return clauses", `rev handle(1) <x>. [x] with { return x -> [x]; return y -> [y] }`, "1:48", "one return clause"},
		{"handled twice", `rev handle(<1, 2>) <x, x>. [x] with { return x -> [x] }`, "1:24", "bound twice"},
		{"clause without backward", "op f : real -> real\nrev handle(1) <x>. f(x) with { return x -> [x]; f(x) -> [<x, x>] }", "2:66", "expected '|'"},
		{"duplicate declaration", "op f : real -> real\nheap f : real = 1\n[1]", "2:6", "already declared at 1:4"},
		{"heap value not a value", "heap a : real = x\n[1]", "1:17", "expected a value"},
		{"bad type", "op f : int -> real\n[1]", "1:8", "expected a type"},
		{"get with argument", "heap a : real = 1\nget[a](1)", "2:8", "get takes no argument"},
		{"trailing", `[1] [2]`, "1:5", "unexpected '[' after the program"},
		{"hash", `[x#1]`, "1:3", "generated"},
		{"bad character", "[1] ?", "1:5", "unexpected character '?'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src))
			var list interderive.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("Parse(%q) = %v, want an ErrorList", tt.src, err)
			}
			if got := list[0].Pos.String(); got != tt.pos {
				t.Errorf("position %s, want %s (%v)", got, tt.pos, err)
			}
			if !strings.Contains(list[0].Msg, tt.msg) {
				t.Errorf("message %q, want it to contain %q", list[0].Msg, tt.msg)
			}
		})
	}
}

func TestTermPositions(t *testing.T) {
	// "heap a : real = 1\n" then "let y <= [a0 + 2] in ..." on line 2: the + is at
	// column 14; in put[a](...) on line 3 the variable y is at column 12.
	src := "heap a : real = 1\nlet y <= [a0 + 2] in\n  put[a](y)"
	p, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	l := p.Body.(*Let)
	if got := l.Bound.(*Pure).M.Pos().String(); got != "2:14" {
		t.Errorf("the + is at %s, want 2:14", got)
	}
	if got := l.Body.(*Perform).Arg.Pos().String(); got != "3:10" {
		t.Errorf("put's argument is at %s, want 3:10", got)
	}
	// The type error of the unbound a0 is reported there, with its caret.
	_, err = Check(p)
	if err == nil {
		t.Fatal("a0 is unbound: want a type error")
	}
	d := interderive.Describe("f.rh", []byte(src), err)
	want := "f.rh:2:11: "
	if !strings.HasPrefix(d, want) || !strings.Contains(d, "\n\tlet y <= [a0 + 2] in\n\t          ^") {
		t.Errorf("Describe = %q, want it at 2:11 with a caret under a0", d)
	}
}

func TestCheck(t *testing.T) {
	decl := "op f : real -> real\nheap a : real = 2\n"
	tests := []struct {
		name, src, typ, err string
	}{
		// The spec's layers: rev handle(1) <x> has the type of 1.
		{"layers", layers, "real", ""},
		{"pure", `[<1, ()>]`, "real * unit", ""},
		{"let", `let x <= [1] in [x + x]`, "real", ""},
		{"let annotated", `let x:real <= [1] in [x]`, "real", ""},
		{"let annotated wrong", `let x:unit <= [1] in [x]`, "", "x is declared unit but bound to a command of type real"},
		{"let tuple", `let <a, b, c> <= [<1, (), <2, 3>>] in [c]`, "real * real", ""},
		{"get put", decl + `let v <= get[a]() in put[a](v + 1)`, "unit", ""},
		{"put wrong", decl + `put[a](())`, "", "put[a] takes real, not unit"},
		{"unknown location", decl + `get[b]()`, "", "unknown heap location b"},
		{"unknown operation", `g(1)`, "", "unknown operation g"},
		// Two handled variables: the type is the argument's, real * real.
		{"two inputs", decl + `rev handle(<1, 1>) <x1, x2>. let h <= f(x1) in [h + x2] with { return o -> [o]; f(x) -> [<x, ()>] | y, z -> [y] }`, "real * real", ""},
		{"arity", decl + `rev handle(1) <x1, x2>. [x1] with { return o -> [o] }`, "", "binds 2 variables, but its argument has type real"},
		// The body sees only its handled variables (Fig. 3).
		{"body closed", decl + `let v <= [1] in rev handle(1) <x>. [x + v] with { return o -> [o] }`, "", "unbound"},
		{"argument sees outer", decl + `let v <= [1] in rev handle(v) <x>. [x] with { return o -> [o] }`, "real", ""},
		// Clauses are closed.
		{"clause closed", decl + `let v <= [1] in rev handle(1) <x>. f(x) with { return o -> [o + v] }`, "", "unbound"},
		{"return type", decl + `rev handle(1) <x>. [x] with { return o -> [()] }`, "", "return clause has type unit"},
		{"forward not pair", decl + `rev handle(1) <x>. f(x) with { return o -> [o]; f(x) -> [x] | y, z -> [y] }`, "", "forward clause of f : real -> real has type real"},
		{"forward wrong B", decl + `rev handle(1) <x>. f(x) with { return o -> [o]; f(x) -> [<(), x>] | y, z -> [x] }`, "", "forward clause of f"},
		// D is the type of the second component of Qf's result: here unit * real.
		{"residual", decl + `rev handle(1) <x>. f(x) with { return o -> [o]; f(x) -> [<x, <(), x>>] | y, z -> [y + snd(z)] }`, "real", ""},
		{"backward type", decl + `rev handle(1) <x>. f(x) with { return o -> [o]; f(x) -> [<x, x>] | y, z -> [()] }`, "", "backward clause of f : real -> real has type unit"},
		{"clause undeclared", decl + `rev handle(1) <x>. [x] with { return o -> [o]; g(x) -> [<x, x>] | y, z -> [y] }`, "", "clause for g, which is not a declared operation"},
		// Unhandled operations are refused; get and put go to the heap.
		{"unhandled", decl + `f(1)`, "", "operation f is performed outside every handler"},
		{"forwarded to nothing", decl + `rev handle(1) <x>. f(x) with { return o -> [o] }`, "", "operation f is performed outside"},
		{"forwarded to the heap", decl + `rev handle(1) <x>. let u <= put[a](x) in [x] with { return o -> [o] }`, "real", ""},
		{"forwarded to an outer handler", decl + `rev handle(1) <x>. (rev handle(x) <y>. f(y) with { return o -> [o] }) with { return o -> [o]; f(x) -> [<x, ()>] | y, z -> [y] }`, "real", ""},
		{"heap init type", "heap a : real * real = 1\n[1]", "", "declared real * real but its initial value has type real"},
		{"sigm", `[sigm(0) + swish(1) + sigm_r(<0, 1>) + swish_r(<0, 1>)]`, "real", ""},
		{"rd", `[1.rd[<1, 2>](x:real*real. fst(x) + snd(x))]`, "real * real", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			typ, err := Check(p)
			if tt.err != "" {
				var list interderive.ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("Check = %v, %v; want an ErrorList containing %q", typ, err, tt.err)
				}
				if !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Check: %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := typ.String(); got != tt.typ {
				t.Errorf("type %s, want %s", got, tt.typ)
			}
		})
	}
}

func TestDefaultClause(t *testing.T) {
	// spec §2: x -> let y <= Op(x) in [<y, 0_B>] | y, z -> [0_A], for Op : real * real -> unit.
	sig := Signature{Kind: UserOp, Name: "g", Dom: dpl.Times(dpl.Real, dpl.Real), Cod: dpl.Unit}
	c := DefaultClause(sig)
	if got, want := FormatCmd(c.Fwd), "let y:unit <= g(x) in [<y, ()>]"; got != want {
		t.Errorf("forward %s, want %s", got, want)
	}
	if got, want := FormatCmd(c.Bwd), "[<0, 0>]"; got != want {
		t.Errorf("backward %s, want %s", got, want)
	}
	if !dpl.Equal(c.D, dpl.Unit) {
		t.Errorf("D = %s, want unit", c.D)
	}
}

func TestRoundTrip(t *testing.T) {
	srcs := []string{
		layers,
		`[1]`,
		`let <a, b, c> <= [<1, 2, 3>] in [a + b * c]`,
		"heap a : real * real = <-1, 0.5>\nheap u : unit = ()\nlet v <= get[a]() in put[a](v)",
		"op f : real -> real\nrev handle(<1, 2>) <x, y>. let h <= (rev handle(x) <z>. f(z) with { return o -> [o] }) in [h + y] with { return o -> [o]; f(x) -> [<x, ()>] | y, z -> [y] }",
		`let x <= (let y <= [1] in [y]) in [x]`,
		`[swish(1) + sigm_r(<0, 1>)]`,
	}
	for _, src := range srcs {
		p, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		printed := Format(p)
		q, err := ParseGenerated([]byte(printed))
		if err != nil {
			t.Fatalf("%q printed as %q: %v", src, printed, err)
		}
		if !AlphaEqualPrograms(p, q) {
			t.Errorf("%q printed as %q reads back as %q", src, printed, Format(q))
		}
		// Printing is idempotent.
		if again := Format(q); again != printed {
			t.Errorf("printed twice: %q then %q", printed, again)
		}
	}
}

func TestSubstAvoidsCapture(t *testing.T) {
	// (let y <= [x] in [x + y])[y/x] = let y' <= [y] in [y + y'], not [y + y].
	p, err := Parse([]byte(`let y <= [x] in [x + y]`))
	if err != nil {
		t.Fatal(err)
	}
	got := Subst(p.Body, "x", &dpl.Var{Name: "y"}, &dpl.Names{})
	want, err := Parse([]byte(`let w <= [y] in [y + w]`))
	if err != nil {
		t.Fatal(err)
	}
	if !AlphaEqual(got, want.Body) {
		t.Errorf("got %s, want %s", FormatCmd(got), FormatCmd(want.Body))
	}
	// A let that rebinds x stops the substitution.
	p, _ = Parse([]byte(`let x <= [x] in [x]`))
	got = Subst(p.Body, "x", &dpl.RealLit{R: 7}, &dpl.Names{})
	if s := FormatCmd(got); s != "let x <= [7] in [x]" {
		t.Errorf("got %s", s)
	}
}

func TestAlphaEqual(t *testing.T) {
	tests := []struct {
		a, b string
		eq   bool
	}{
		{`let x <= [1] in [x]`, `let y <= [1] in [y]`, true},
		{`let x <= [1] in [x]`, `let y <= [1] in [1]`, false},
		{`let x <= [1] in let y <= [2] in [x]`, `let y <= [1] in let x <= [2] in [y]`, true},
		{`let x <= [1] in let y <= [2] in [x]`, `let y <= [1] in let x <= [2] in [x]`, false},
		{"op f : real -> real\nrev handle(1) <x>. f(x) with { return o -> [o]; f(a) -> [<a, a>] | b, c -> [b] }",
			"op f : real -> real\nrev handle(1) <y>. f(y) with { return p -> [p]; f(u) -> [<u, u>] | v, w -> [v] }", true},
		{"op f : real -> real\nrev handle(1) <x>. f(x) with { return o -> [o]; f(a) -> [<a, a>] | b, c -> [b] }",
			"op f : real -> real\nrev handle(1) <y>. f(y) with { return p -> [p]; f(u) -> [<u, u>] | v, w -> [snd(w)] }", false},
	}
	for _, tt := range tests {
		a, err := Parse([]byte(tt.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Parse([]byte(tt.b))
		if err != nil {
			t.Fatal(err)
		}
		if got := AlphaEqualPrograms(a, b); got != tt.eq {
			t.Errorf("AlphaEqual(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.eq)
		}
	}
}

func TestObserve(t *testing.T) {
	// spec §3/§5: "VALUE with a = V, b = V" in declaration order; reals as dpl prints them.
	a := Answer{Value: &dpl.RealLit{R: 6}, Heap: []Cell{{"a", &dpl.RealLit{R: -1}}, {"b", &dpl.RealLit{R: 1}}}}
	if got, want := a.Observe(), "6 with a = -1, b = 1"; got != want {
		t.Errorf("Observe = %q, want %q", got, want)
	}
	pair := &dpl.Pair{X: &dpl.RealLit{R: -1}, Y: &dpl.RealLit{R: -0.5}}
	if got, want := (Answer{Value: pair, Heap: []Cell{{"a", &dpl.RealLit{R: 2.5}}}}).Observe(), "<-1, -0.5> with a = 2.5"; got != want {
		t.Errorf("Observe = %q, want %q", got, want)
	}
	if got, want := (Answer{Value: &dpl.UnitLit{}}).Observe(), "()"; got != want {
		t.Errorf("Observe = %q, want %q", got, want)
	}
	if got := (Answer{Undefined: &dpl.Undefined{Redex: &dpl.UnitLit{}}}).Observe(); got != "undefined" {
		t.Errorf("Observe = %q, want undefined", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{layers, `[1]`, `let <a, b> <= [<1, 2>] in [a]`, "heap a : real = -1\nput[a](2)", "[sigm(", "rev handle(1) <x>. [x] with { return o -> [o] }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Parse([]byte(src))
		if err != nil {
			var list interderive.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Parse error %T, want an ErrorList", err)
			}
			return
		}
		printed := Format(p)
		q, err := ParseGenerated([]byte(printed))
		if err != nil {
			t.Fatalf("%q printed as %q: %v", src, printed, err)
		}
		if !AlphaEqualPrograms(p, q) {
			t.Fatalf("%q printed as %q reads back differently", src, printed)
		}
		_, _ = Check(p)
	})
}
