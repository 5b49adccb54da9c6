package workbench

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/testenv"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The counter is the calculus of these tests, small enough that every run is derived
// by hand. A program is a natural number n, written in decimal in a *.count file
// (comments from -- to the end of a line) or as n bars in a *.tally file; a negative
// number is a type error. A run counts n down to 0:
//
//   - under the variant "one", each contraction "dec" takes 1 off: n contractions;
//   - under "two", each contraction "dec2" takes 2 off while 2 are left, and a last
//     "dec" the 1 that may remain: ceil(n/2) contractions;
//   - in the mode "quick" (under "one" only; Options.Merging = Merged) every
//     contraction is named "skip"; "plain" is the reference mode.
//
// The answer is the number K of contractions: observation "done after K", value
// "done(K)", Answer the int K.
//
// The stages, in derivation order:
//
//   - ref, the reference: before each contraction a Step "count k" (k left), after
//     contraction i an About(i, "now k") (k left after it); after the last
//     contraction, if there was one, Report(1, "total", K, "| total K") and
//     About(1, "| closed");
//   - quiet: the same contractions, no Step or About, the same Report;
//   - wrong, which parts from ref on purpose: for 7 <= n <= 40 its third contraction is
//     named "oops"; for n = 4 it reports the total K+1; for n = 5 it answers K+1;
//   - stuck, which gets stuck for n >= 5 when 2 are left (before contracting).
//
// Random programs are 0 to 10·size. rapid draws the top of a range of integers by a
// path its shrinker cannot follow (the bias that picks the bounds), so that a failure
// planted at the top would stay unshrunk: the planted failures leave it out (at size
// 5, 50 is no counterexample).
type counter struct {
	name  string
	exts  []string // its languages: decimal first, then bars
	flag  string
	props []Property
}

// newCounter is the counter of the tests: named "counter", of languages count and
// tally, its variant flag --speed.
func newCounter() *counter {
	return &counter{name: "counter", exts: []string{"count", "tally"}, flag: "speed", props: []Property{smallProperty()}}
}

func (c *counter) Name() string { return c.name }
func (c *counter) Doc() string  { return "counts down to zero" }

func (c *counter) Languages() []Language {
	var ls []Language
	for i, e := range c.exts {
		doc := "a number in decimal"
		if i > 0 {
			doc = "a number in bars"
		}
		ls = append(ls, Language{Ext: e, Doc: doc})
	}
	return ls
}

func (c *counter) Variant() Parameter {
	return Parameter{Flag: c.flag, Doc: "the speed of the count", Noun: "speed", Values: []string{"one", "two"}, Default: "one"}
}

// plain and quick are the counter's modes.
var (
	plain = Mode{Name: "plain", Reference: true, Apply: func(o *interderive.Options) { o.Merging = interderive.Unmerged }}
	quick = Mode{Name: "quick", Apply: func(o *interderive.Options) { o.Merging = interderive.Merged }}
)

func (c *counter) Modes(variant string) []Mode {
	if variant == "one" {
		return []Mode{plain, quick}
	}
	return []Mode{plain}
}

func (c *counter) Supports(s interderive.Stage) bool {
	_, ok := s.(fakeStage)
	return ok && s.Name() != "unsupported"
}

func (c *counter) Load(lang string, src []byte) (Program, error) {
	if err := CheckSize(src); err != nil {
		return nil, err
	}
	if len(c.exts) > 1 && lang == c.exts[1] {
		text := strings.TrimSpace(string(src))
		if strings.Trim(text, "|") != "" {
			return nil, &LoadError{Phase: "syntax", Err: interderive.ErrorList{interderive.Errorf(interderive.Pos{Line: 1, Col: 1}, "not a tally")}}
		}
		return counterProgram{n: len(text), lang: lang, bars: true}, nil
	}
	var text strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		line, _, _ = strings.Cut(line, "--")
		text.WriteString(line + " ")
	}
	s := strings.TrimSpace(text.String())
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return nil, &LoadError{Phase: "syntax", Err: interderive.ErrorList{interderive.Errorf(interderive.Pos{Line: 1, Col: 1}, "%q is not a number", s)}}
	case n < 0:
		return nil, &LoadError{Phase: "type", Err: interderive.ErrorList{interderive.Errorf(interderive.Pos{Line: 1, Col: 1}, "a count is not negative")}}
	}
	return counterProgram{n: n, lang: lang}, nil
}

func (c *counter) Generate(t *rapid.T, size int, _ string) Program {
	return counterProgram{n: rapid.IntRange(0, 10*size).Draw(t, "n"), lang: c.exts[0]}
}

func (c *counter) Properties() []Property { return c.props }

func (c *counter) Equal(a, b any) bool { return a == b }

// smallProperty is a property that fails on purpose: every number drawn from 0 to
// 10·size is below 30, or the top. Its smallest counterexample is 30.
func smallProperty() Property {
	return Property{Name: "small", Doc: "every number is small", Failure: "a number is not small",
		Check: func(t *rapid.T, size int, _ string, _ []interderive.Stage) *Counterexample {
			m := rapid.IntRange(0, 10*size).Draw(t, "m")
			if m < 30 || m == 10*size {
				return nil
			}
			return &Counterexample{Lang: "count", Source: strconv.Itoa(m), Comment: []string{fmt.Sprintf("%d is not small", m)}, Err: fmt.Errorf("%d is not small", m)}
		}}
}

// counterProgram is a loaded counter program.
type counterProgram struct {
	n    int
	lang string
	bars bool
}

func (p counterProgram) Lang() string { return p.lang }

func (p counterProgram) Source(b interderive.PrintBudget) (string, error) {
	s := strconv.Itoa(p.n)
	if p.bars {
		s = strings.Repeat("|", p.n)
	}
	if b.Max > 0 && len(s) > b.Max {
		return interderive.Cut(s, b.Max), &interderive.OutputError{Limit: b.Max}
	}
	return s, nil
}

func (p counterProgram) Run(s interderive.Stage, variant string, opts interderive.Options) (Outcome, error) {
	if _, ok := s.(fakeStage); !ok {
		return Outcome{}, fmt.Errorf("no stage %s", s.Name())
	}
	stage := s.Name()
	by := map[string]int{"one": 1, "two": 2}[variant]
	if by == 0 {
		return Outcome{}, fmt.Errorf("no variant %q", variant)
	}
	c := interderive.NewCounter(opts)
	obs := opts.Observer
	shows := obs != nil && stage == "ref"
	k, i := p.n, 0
	for k > 0 {
		d, rule := 1, "dec"
		if by == 2 && k >= 2 {
			d, rule = 2, "dec2"
		}
		if opts.Merging == interderive.Merged {
			rule = "skip"
		}
		if stage == "wrong" && p.n >= 7 && p.n <= 40 && i == 2 {
			rule = "oops"
		}
		if opts.Engine == interderive.EngineCompiled && p.n == 11 && i == 1 {
			rule = "dec-compiled" // an engine's bug, on every stage (LockstepOn)
		}
		if stage == "stuck" && p.n >= 5 && k == 2 {
			return Outcome{Steps: c.Steps()}, interderive.Stuck("2", "nothing counts down from 2")
		}
		if shows {
			obs.Step(fmt.Sprintf("count %d", k))
		}
		if err := c.Contract(rule); err != nil {
			return Outcome{Steps: c.Steps()}, err
		}
		i, k = i+1, k-d
		if shows {
			obs.About(i, fmt.Sprintf("now %d", k))
		}
	}
	steps := c.Steps()
	total, answer := steps, steps
	if stage == "wrong" && p.n == 4 {
		total++
	}
	if stage == "wrong" && p.n == 5 {
		answer++
	}
	if obs != nil && steps > 0 {
		obs.Report(1, "total", total, fmt.Sprintf("| total %d", total))
		if shows {
			obs.About(1, "| closed")
		}
	}
	return Outcome{Observation: fmt.Sprintf("done after %d", answer), Value: fmt.Sprintf("done(%d)", answer), Answer: answer, Steps: steps}, nil
}

// fakeStage is a stage of the tests, named.
type fakeStage string

func (s fakeStage) Name() string { return string(s) }
func (s fakeStage) Doc() string  { return "the " + string(s) + " stage" }

// The stages of the counter, in derivation order.
var (
	refStage, quietStage, wrongStage, stuckStage = fakeStage("ref"), fakeStage("quiet"), fakeStage("wrong"), fakeStage("stuck")
)

// newBench is a workbench of the given calculi and the four stages of the counter,
// failing the test if New refuses them.
func newBench(t *testing.T, calculi ...Calculus) *Workbench {
	t.Helper()
	if len(calculi) == 0 {
		calculi = []Calculus{newCounter()}
	}
	w, err := New(calculi, []interderive.Stage{refStage, quietStage, wrongStage, stuckStage})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// load loads a counter program, failing the test if it does not load.
func load(t *testing.T, c Calculus, lang, src string) Program {
	t.Helper()
	p, err := c.Load(lang, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCounter checks the counter itself against the hand derivations above, since
// every other test relies on it.
func TestCounter(t *testing.T) {
	c := newCounter()
	for _, tc := range []struct {
		src, stage, variant string
		mode                Mode
		rules               string
		answer              string
		err                 error
	}{
		{"3", "ref", "one", plain, "dec dec dec", "done after 3", nil},
		{"5", "ref", "two", plain, "dec2 dec2 dec", "done after 3", nil},
		{"2", "quiet", "one", quick, "skip skip", "done after 2", nil},
		{"7", "wrong", "one", plain, "dec dec oops dec dec dec dec", "done after 7", nil},
		{"5", "wrong", "one", plain, "dec dec dec dec dec", "done after 6", nil},
		{"6", "stuck", "one", plain, "dec dec dec dec", "", interderive.ErrStuck},
		{"0", "ref", "one", plain, "", "done after 0", nil},
	} {
		var rules []string
		o := interderive.Options{OnContract: func(r string) { rules = append(rules, r) }}
		tc.mode.Apply(&o)
		out, err := load(t, c, "count", tc.src).Run(fakeStage(tc.stage), tc.variant, o)
		if got := strings.Join(rules, " "); got != tc.rules || out.Observation != tc.answer || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
			t.Errorf("%s on %s under %s: rules %q, answer %q, error %v; want %q, %q, %v", tc.src, tc.stage, tc.variant, got, out.Observation, err, tc.rules, tc.answer, tc.err)
		}
	}
}

// isFuel reports whether a run ran out of fuel.
func isFuel(err error) bool { return errors.Is(err, interderive.ErrOutOfFuel) }

// isStuck reports whether a run got stuck.
func isStuck(err error) bool { return errors.Is(err, interderive.ErrStuck) }
