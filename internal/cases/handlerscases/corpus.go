package handlerscases

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// CorpusDir is the corpus, relative to a stage package's directory.
const CorpusDir = "../testdata/handlers"

// Expectation is what a corpus file's comments promise (testdata/handlers/README.md).
type Expectation struct {
	Answer string   // expect: ...
	Approx bool     // expect-approx: the answer's reals to a relative 1e-9
	Rules  []string // rules that must fire
	Fuel   int      // 0: the default
}

var directive = regexp.MustCompile(`^--\s*(expect|expect-approx|rules|fuel):\s*(.*)$`)

// ParseExpectation reads a corpus file's directives.
func ParseExpectation(src []byte) (Expectation, error) {
	var e Expectation
	for _, line := range strings.Split(string(src), "\n") {
		m := directive.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		arg := strings.TrimSpace(m[2])
		switch m[1] {
		case "expect", "expect-approx":
			if e.Answer != "" {
				return e, errors.New("two expectations")
			}
			e.Answer, e.Approx = arg, m[1] == "expect-approx"
		case "rules":
			for _, r := range strings.Split(arg, ",") {
				e.Rules = append(e.Rules, strings.TrimSpace(r))
			}
		case "fuel":
			n, err := strconv.Atoi(arg)
			if err != nil || n <= 0 {
				return e, errors.New("fuel: not a positive number")
			}
			e.Fuel = n
		}
	}
	if e.Answer == "" {
		return e, errors.New("no expectation")
	}
	return e, nil
}

var number = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)

// ApproxEqual compares two answers number by number, to a relative tol.
func ApproxEqual(want, got string, tol float64) bool {
	shape := func(s string) string { return number.ReplaceAllString(s, "#") }
	if shape(want) != shape(got) {
		return false
	}
	ws, gs := number.FindAllString(want, -1), number.FindAllString(got, -1)
	for i := range ws {
		w, err1 := strconv.ParseFloat(ws[i], 64)
		g, err2 := strconv.ParseFloat(gs[i], 64)
		if err1 != nil || err2 != nil || math.Abs(w-g) > tol*math.Max(math.Abs(w), 1e-300) && !(w == 0 && math.Abs(g) <= tol) {
			return false
		}
	}
	return true
}

// RunCorpus runs every file of the corpus on a stage, under every strategy, and checks
// its expectation and the rules it names.
func RunCorpus(t *testing.T, stage handlers.Stage) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(CorpusDir, "*.rh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", CorpusDir, err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := ParseExpectation(src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		p, err := handlers.Parse(src)
		if err == nil {
			_, err = handlers.Check(p)
		}
		if exp.Answer == "type error" {
			if err == nil {
				t.Errorf("%s: want a type error", f)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, ad := range dpl.Differentiators() {
			fired := map[string]bool{}
			a, err := stage.Eval(ad, p, interderive.Options{Fuel: exp.Fuel, OnContract: func(r string) { fired[r] = true }})
			got := ""
			switch {
			case errors.Is(err, interderive.ErrOutOfFuel):
				got = "out of fuel"
			case err != nil:
				t.Errorf("%s under %s: %v", f, ad.Name(), err)
				continue
			default:
				got = a.Observe()
			}
			if exp.Approx && !ApproxEqual(exp.Answer, got, 1e-9) || !exp.Approx && got != exp.Answer {
				t.Errorf("%s under %s: %s, want %s", f, ad.Name(), got, exp.Answer)
			}
			for _, r := range exp.Rules {
				if !fired[r] {
					t.Errorf("%s under %s: rule %s did not fire", f, ad.Name(), r)
				}
			}
		}
	}
}
