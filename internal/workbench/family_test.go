package workbench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// counters is a family of counters (Family): a program's definition is a name, given
// by the flag --start or by a "-- from: NAME" line; the calculus it makes is a
// counter named "counters" (of the extension cnt), whatever the name, but "bad" (an
// error) and "other" (a calculus of another name, which Define refuses). Its
// programs' comments start with "#" when the name is "hash" (Commenter).
type counters struct{ *counter }

func newCounters() counters {
	return counters{&counter{name: "counters", exts: []string{"cnt"}, flag: "pace"}}
}

func (counters) DefinitionFlag() (string, string) { return "start", "the counter's definition" }

func (f counters) Define(def, path string, src []byte) (Calculus, error) {
	if def == "" {
		for _, line := range strings.Split(string(src), "\n") {
			if name, ok := strings.CutPrefix(line, "-- from: "); ok {
				def = name
			}
		}
	}
	switch def {
	case "":
		return nil, fmt.Errorf("%s: no definition", path)
	case "bad":
		return nil, errors.New("bad: an ill-formed definition")
	case "other":
		return &counter{name: "other", exts: f.exts, flag: f.flag}, nil
	case "hash":
		return hashCounter{&counter{name: f.name, exts: f.exts, flag: f.flag}}, nil
	}
	return &counter{name: f.name, exts: f.exts, flag: f.flag}, nil
}

// hashCounter is a counter whose comments start with "#".
type hashCounter struct{ *counter }

func (hashCounter) LineComment() string { return "#" }

// Load reads "#" comments as the counter reads "--" ones.
func (c hashCounter) Load(lang string, src []byte) (Program, error) {
	return c.counter.Load(lang, []byte(strings.ReplaceAll(string(src), "#", "--")))
}

// TestDefine: the calculus of a family's program, by the flag or by what the program
// says; a calculus that is not a family is its own; a definition that fails, or makes
// a calculus of another name, is an error.
func TestDefine(t *testing.T) {
	fam := newCounters()
	w := newBench(t, newCounter(), fam)
	tests := []struct {
		name string
		c    Calculus
		def  string
		src  string
		want string // the calculus's name, or the error's text
		err  bool
	}{
		{"not a family", newCounter(), "x", "", "counter", false},
		{"by the flag", fam, "one", "", "counters", false},
		{"by the program", fam, "", "-- from: one\n3", "counters", false},
		{"the flag first", fam, "bad", "-- from: one\n3", "bad: an ill-formed definition", true},
		{"none", fam, "", "3", "p.cnt: no definition", true},
		{"another name", fam, "other", "", "calculus counters: its definition made a calculus named other", true},
	}
	for _, tt := range tests {
		d, err := w.Define(tt.c, map[string]string{"start": tt.def}, "p.cnt", []byte(tt.src))
		switch {
		case tt.err && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: got %v, want the error %q", tt.name, err, tt.want)
		case !tt.err && (err != nil || d.Name() != tt.want):
			t.Errorf("%s: got %v, %v, want %s", tt.name, d, err, tt.want)
		}
	}
	if got := w.DefinitionFlags(); len(got) != 1 || got[0][0] != "start" {
		t.Errorf("definition flags %v, want start", got)
	}
}

// TestPlanFilesFamily: check plans a family's file in the calculus its definition
// makes, reads its expectations in that calculus's comment syntax, and makes a
// definition that fails the file's error. The counts are the counter's (fake_test.go):
// 3 contractions under one, 2 under two, on the stages ref, quiet, wrong and stuck.
func TestPlanFilesFamily(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"dash.cnt": "-- from: one\n-- expect[one]: done after 3\n3\n",
		"hash.cnt": "-- from: hash\n# expect[two]: done after 2\n3\n",
		"bad.cnt":  "-- from: bad\n-- expect: done after 3\n3\n",
	}
	var paths []string
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	w := newBench(t, newCounters())
	plans, errs := w.PlanFiles(paths, "", nil, CheckOptions{Stages: []string{"ref", "quiet"}})
	for i, p := range paths {
		switch filepath.Base(p) {
		case "bad.cnt":
			if errs[i] == nil || !strings.Contains(errs[i].Error(), "bad: an ill-formed definition") {
				t.Errorf("bad.cnt: %v, want the definition's error", errs[i])
			}
		case "dash.cnt", "hash.cnt":
			if errs[i] != nil {
				t.Fatalf("%s: %v", p, errs[i])
			}
			// one variant, two stages; under one, two modes.
			want := map[string]int{"dash.cnt": 4, "hash.cnt": 2}[filepath.Base(p)]
			if len(plans[i].Runs) != want {
				t.Errorf("%s: %d runs, want %d", p, len(plans[i].Runs), want)
			}
			for _, r := range plans[i].Runs {
				if fs := plans[i].Run(r, CheckOptions{}); len(fs) > 0 {
					t.Errorf("%s: %v", p, fs)
				}
			}
		}
	}
}

// TestPlanFuzzFamily: fuzz plans a family in the calculus of its flag's definition;
// without one, it skips the family among all the calculi, saying why, and refuses it
// when it is named.
func TestPlanFuzzFamily(t *testing.T) {
	w := newBench(t, newCounter(), newCounters())
	plans, err := w.PlanFuzz(FuzzOptions{Size: 1})
	if err != nil || len(plans) != 2 || plans[0].Skip != "" || !strings.Contains(plans[1].Skip, "--start FILE") {
		t.Errorf("all without a definition: %+v, %v", plans, err)
	}
	if _, err := w.PlanFuzz(FuzzOptions{Size: 1, Calculi: []string{"counters"}}); err == nil || !strings.Contains(err.Error(), "--start FILE") {
		t.Errorf("named without a definition: %v", err)
	}
	plans, err = w.PlanFuzz(FuzzOptions{Size: 1, Calculi: []string{"counters"}, Definitions: map[string]string{"start": "one"}})
	if err != nil || len(plans) != 1 || plans[0].Skip != "" || len(plans[0].Stages) != 4 {
		t.Errorf("with a definition: %+v, %v", plans, err)
	}
	if _, err := w.PlanFuzz(FuzzOptions{Size: 1, Definitions: map[string]string{"start": "bad"}}); err == nil {
		t.Errorf("a bad definition: no error")
	}
}

// TestSameEnd: how two runs' ends agree in lockstep.
func TestSameEnd(t *testing.T) {
	fuel := &interderive.FuelError{Steps: 3}
	rt := func(reason string) error { return interderive.Runtime(interderive.Pos{Line: 1, Col: 1}, "t", reason) }
	stuck := interderive.Stuck("t", "no rule")
	tests := []struct {
		a, b error
		want bool
	}{
		{nil, nil, true},
		{fuel, fuel, true},
		{rt("r"), rt("r"), true},
		{rt("r"), rt("s"), false},
		{rt("r"), nil, false},
		{nil, fuel, false},
		{fuel, rt("r"), false},
		{stuck, stuck, false},
	}
	for _, tt := range tests {
		if got := sameEnd(tt.a, tt.b); got != tt.want {
			t.Errorf("sameEnd(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if got := OutcomeName(rt("r")); got != "run-time error" {
		t.Errorf("OutcomeName: %s", got)
	}
}

// headed is a counter whose programs have a header (Headed) and whose comments start
// with "#" (Commenter).
type headed struct{ *counter }

func (headed) LineComment() string { return "#" }

func (c headed) Generate(t *rapid.T, size int, v string) Program {
	return headedProgram{c.counter.Generate(t, size, v).(counterProgram)}
}

type headedProgram struct{ counterProgram }

func (headedProgram) Header() []string { return []string{"from: here"} }

// TestFuzzHeader: a counterexample of a Headed program has its header first, and its
// text comments in the calculus's comment syntax. The disagreement is the planted one
// of TestFuzzFindsThePlantedDisagreement: 4 under one.
func TestFuzzHeader(t *testing.T) {
	keepRapidFlags(t)
	w := newBench(t, headed{newCounter()})
	_, res := fuzzOne(t, w, FuzzOptions{Size: 5, Props: []string{Lockstep}, Stages: []string{"quiet", "wrong"}}, FuzzConfig{Count: 200, Jobs: 2, Seed: 3})
	if res.Found == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted disagreement", res.Checked)
	}
	want := "# found by interderive fuzz\n# from: here\n# wrong under one (plain): report 1 (total) is | total 5, but ref's is | total 4\n# expect[one]: done after 4\n4\n"
	if text := res.Found.Text(); text != want {
		t.Errorf("text %q, want %q", text, want)
	}
}
