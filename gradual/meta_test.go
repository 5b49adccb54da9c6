package gradual

import "testing"

// TestMakesNoClosure decides by hand, for each function, whether a call of it can
// make a closure that holds the call's environment: only a lambda or a letrec in its
// body can, except the letrec an unfolding starts with (it binds the function called).
func TestMakesNoClosure(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		unfold    bool // the function is Unfold of the letrec src is
		want      bool
	}{
		{"arithmetic", `\x:Int. if x < 2 then x else x - 1`, false, true},
		{"a call", `\f:Int -> Int. f 3 + 1`, false, true},
		{"a let", `\x:Int. let y:Int = x + 1 in y * y`, false, true},
		{"a coercion", `\x:Dyn. <Int?^p> x`, false, true},
		{"a lambda returned", `\x:Int. \y:Int. x + y`, false, false},
		{"a lambda passed", `\f:(Int -> Int) -> Int. f (\y:Int. y)`, false, false},
		{"a lambda deep inside", `\x:Int. if x < 2 then x else (\y:Int. y) x`, false, false},
		{"a letrec inside", `\x:Int. letrec g: Int -> Int = \y:Int. y in g x`, false, false},
		{"fib unfolded", `letrec fib: Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib 5`, true, true},
		{"an unfolding making a lambda", `letrec f: Int -> Int = \k:Int. (\y:Int. y) k in f 5`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustParse(t, tc.src, CastCalculus)
			var f *Lam
			if tc.unfold {
				f = Unfold(e.(*Letrec))
			} else {
				f = e.(*Lam)
			}
			if got := MakesNoClosure(f); got != tc.want {
				t.Errorf("MakesNoClosure(%s) = %v, want %v", Format(f), got, tc.want)
			}
			if got := MakesNoClosure(f); got != tc.want { // the cached answer
				t.Errorf("MakesNoClosure(%s), asked again, = %v, want %v", Format(f), got, tc.want)
			}
		})
	}
}

// TestUnfold checks the right-hand side of the Letrec rule by hand, with the erratum
// of spec §4: where the parameter is named like the function, it is α-renamed first,
// to a name that occurs nowhere in the body (in the third case f' is taken: f with
// two primes).
func TestUnfold(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`letrec f:Int -> Int = \x:Int. f x in f 1`,
			`\x:Int. letrec f:Int -> Int = \x:Int. f x in f x`},
		{`letrec f:Int -> Int = \f:Int. f + 1 in f 3`,
			`\f':Int. letrec f:Int -> Int = \f:Int. f + 1 in f' + 1`},
		{`letrec f:Int -> Int = \f:Int. (\f':Int. f + f') f in f 3`,
			`\f'':Int. letrec f:Int -> Int = \f:Int. (\f':Int. f + f') f in (\f':Int. f'' + f') f''`},
		// Only the parameter's free occurrences are renamed: an inner binder of the
		// same name keeps its own.
		{`letrec f:Int -> Int = \f:Int. (\f:Int. f) f in f 3`,
			`\f':Int. letrec f:Int -> Int = \f:Int. (\f:Int. f) f in (\f:Int. f) f'`},
	} {
		l := mustParse(t, tc.src, CastCalculus).(*Letrec)
		want := mustParse(t, tc.want, CastCalculus)
		got := Unfold(l)
		if Format(got) != Format(want) {
			t.Errorf("Unfold(%s) = %s, want %s", tc.src, Format(got), Format(want))
		}
		if inner := got.Body.(*Letrec); Unfold(inner) != got {
			t.Errorf("Unfold of the unfolded letrec of %s is not the same function", tc.src)
		}
	}
}
