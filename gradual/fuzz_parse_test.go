package gradual

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// fuzzSeeds are programs and near-programs of both languages, besides the example
// files.
var fuzzSeeds = []string{
	"fib (k - 1) + fib (k - 2)",
	"inc x + 1",
	"inc f x",
	`\x. x y`,
	"λx:Int -> Int. x",
	"let x = 1 in x",
	"let x:Int = 1 in x < 2",
	`letrec f:Int -> Int = \n:Int. if zero? n then 1 else n * f (dec n) in f 5`,
	"(x : Dyn)^l0",
	"(x : ?)^3:14",
	"<Int <= Dyn>^l2 <Dyn <= Int>^l1 4",
	"<Int <= Dyn>^l f x",
	"<(Dyn -> Dyn)?^l ; (id -> Int?^l)> f",
	"<(Int -> Int)! ; fail^l> f",
	"blame l",
	"1 + if b then 1 else 2",
	"f \\x. x",
	"1 < 2 < 3",
	"(((x",
	"99999999999999999999",
	"x\xff\x00",
	"",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for name := range exampleFiles(f) {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, lang := range []Lang{GTLC, CastCalculus} {
			e, err := Parse(src, lang)
			if err != nil {
				var list interderive.ErrorList
				if !errors.As(err, &list) || len(list) == 0 || len(list) > maxErrors {
					t.Fatalf("Parse(%q, %v): error %v is not an ErrorList of 1 to %d errors", src, lang, err, maxErrors)
				}
				for _, e := range list {
					if e.Pos.Line < 1 || e.Pos.Col < 1 {
						t.Fatalf("Parse(%q, %v): error without a position: %v", src, lang, e)
					}
				}
				if e != nil {
					t.Fatalf("Parse(%q, %v) returned both a tree and an error", src, lang)
				}
				continue
			}
			out := Format(e)
			if strings.Contains(out, "...") {
				t.Fatalf("Parse(%q, %v) accepted a tree too deep to print: %q", src, lang, out)
			}
			again, err := Parse([]byte(out), lang)
			if err != nil {
				t.Fatalf("Parse(%q, %v) = %q, which does not parse: %v", src, lang, out, err)
			}
			if d := pxDiff(e, again); d != "" {
				t.Fatalf("Parse(%q, %v) = %q, which parses differently (-first +second):\n%s", src, lang, out, d)
			}
			if out2 := Format(again); out2 != out {
				t.Fatalf("Format is not stable: %q then %q", out, out2)
			}
		}
	})
}
