package workbench

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// other is a second calculus, of its own names: it runs on ref and stuck only, with
// the variant flag --pace.
type other struct{ *counter }

func newOther() other {
	return other{&counter{name: "other", exts: []string{"oth"}, flag: "pace"}}
}

func (other) Supports(s interderive.Stage) bool { return s == refStage || s == stuckStage }

// badDefault is a counter whose default variant is not one of its values.
type badDefault struct{ *counter }

func (badDefault) Variant() Parameter {
	return Parameter{Flag: "speed", Values: []string{"one", "two"}, Default: "three"}
}

// noReference is a counter whose first mode under "two" is not the reference.
type noReference struct{ *counter }

func (noReference) Modes(string) []Mode { return []Mode{quick} }

// TestNewRefuses: New refuses what would make a name ambiguous or a calculus
// unusable, and says what.
func TestNewRefuses(t *testing.T) {
	stages := []interderive.Stage{refStage, quietStage}
	renamed := func(name string, exts ...string) *counter {
		c := newCounter()
		c.name, c.exts = name, exts
		return c
	}
	for _, tc := range []struct {
		name    string
		calculi []Calculus
		stages  []interderive.Stage
		want    string
	}{
		{"two calculi of one name", []Calculus{newCounter(), renamed("counter", "x")}, stages, `two calculi are named "counter"`},
		{"one extension twice", []Calculus{newCounter(), renamed("c2", "tally")}, stages, "the extension .tally is both counter's and c2's"},
		{"an extension with a dot", []Calculus{renamed("c2", ".count")}, stages, `".count" is not a file extension`},
		{"two stages of one name", []Calculus{newCounter()}, []interderive.Stage{refStage, fakeStage("ref")}, `two stages are named "ref"`},
		{"no stage", []Calculus{newCounter()}, []interderive.Stage{fakeStage("unsupported")}, "calculus counter supports none of the stages"},
		{"a default not among the values", []Calculus{badDefault{newCounter()}}, stages, `the default "three" of --speed is not one of its values`},
		{"no reference mode", []Calculus{noReference{newCounter()}}, stages, "under one, the first mode is not the reference mode"},
		{"nil", []Calculus{nil}, stages, "calculus 1 is nil"},
	} {
		_, err := New(tc.calculi, tc.stages)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestLookups: a calculus's stages are the registered ones it supports, in the
// registry's order, the first its reference; every lookup of an unknown name lists
// the known ones.
func TestLookups(t *testing.T) {
	c, o := newCounter(), newOther()
	w := newBench(t, c, o)
	if got := stageNames(w.StagesOf(o)); !slices.Equal(got, []string{"ref", "stuck"}) {
		t.Errorf("other's stages %v, want [ref stuck]", got)
	}
	if got := stageNames(w.StagesOf(c)); !slices.Equal(got, []string{"ref", "quiet", "wrong", "stuck"}) || w.Reference(c) != refStage {
		t.Errorf("counter's stages %v, reference %v", got, w.Reference(c))
	}
	if s, err := w.StageFor(c, ""); err != nil || s != stuckStage {
		t.Errorf(`StageFor "": %v, %v; want the last stage, stuck`, s, err)
	}
	if v, err := w.VariantFor(c, ""); err != nil || v != "one" {
		t.Errorf(`VariantFor "": %v, %v; want the default, one`, v, err)
	}
	if m, err := w.ModeFor(c, "two", "quick"); err != nil || m.Name != "quick" {
		t.Errorf("ModeFor two quick: %v, %v; want quick, taken from one's modes", m.Name, err)
	}
	if cc, l, err := w.LanguageFor("dir/x.tally", ""); err != nil || cc.Name() != "counter" || l.Ext != "tally" {
		t.Errorf("LanguageFor x.tally: %v %v %v", cc, l, err)
	}
	if cc, _, err := w.LanguageFor("-", "oth"); err != nil || cc.Name() != "other" {
		t.Errorf("LanguageFor - --lang oth: %v %v", cc, err)
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"calculus", second(w.CalculusNamed("counting")), `unknown calculus "counting" (known: counter, other)`},
		{"language", third(w.LanguageNamed("cnt")), `unknown language "cnt" (known: count, tally, oth)`},
		{"extension", third(w.LanguageFor("p.txt", "")), `p.txt: cannot tell the language from the extension ".txt"; use --lang`},
		{"no extension", third(w.LanguageFor("count", "")), `count: cannot tell the language from the extension ""; use --lang`},
		{"stage", second(w.StageNamed("Ref")), `unknown stage "Ref" (known: ref, quiet, wrong, stuck)`},
		{"stage of a calculus", second(w.StageFor(o, "quiet")), `stage "quiet" is not available for other (available: ref, stuck)`},
		{"variant", second(w.VariantFor(c, "three")), `unknown speed "three" for counter (known: one, two)`},
		{"mode", second(w.ModeFor(c, "one", "slow")), `unknown mode "slow" for counter (known: plain, quick)`},
		{"parameter", second(w.Parameter("semantic")), `unknown parameter --semantic (known: --speed, --pace)`},
		{"selected variant", second(w.SelectVariants(c, map[string][]string{"speed": {"two", "six"}})), `unknown speed "six" for counter (known: one, two)`},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	if vs, err := w.SelectVariants(c, map[string][]string{"pace": {"one"}}); err != nil || !slices.Equal(vs, []string{"one", "two"}) {
		t.Errorf("another flag's selection: %v %v; want every variant", vs, err)
	}
}

func second[T any](_ T, err error) error        { return err }
func third[T, U any](_ T, _ U, err error) error { return err }

// TestParameters: one per flag, in the registry's order; calculi that share a flag
// share its values.
func TestParameters(t *testing.T) {
	shared := newCounter()
	shared.name, shared.exts = "shared", []string{"sh"}
	w := newBench(t, newCounter(), newOther(), shared)
	var flags []string
	for _, p := range w.Parameters() {
		flags = append(flags, p.Flag+"="+strings.Join(p.Values, ","))
	}
	if want := []string{"speed=one,two", "pace=one,two"}; !slices.Equal(flags, want) {
		t.Errorf("parameters %v, want %v", flags, want)
	}
}

// TestDescribe: what interderive calculi lists, by hand from the counter and other.
func TestDescribe(t *testing.T) {
	w := newBench(t, newCounter(), newOther())
	d := w.Describe()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"stages":[{"name":"ref","doc":"the ref stage"},`,
		`{"name":"counter","doc":"counts down to zero","languages":[{"extension":"count","doc":"a number in decimal"},{"extension":"tally","doc":"a number in bars"}],"stages":["ref","quiet","wrong","stuck"],"variant":{"flag":"speed","doc":"the speed of the count","default":"one","values":[{"name":"one","expect":true,"modes":["plain","quick"]},{"name":"two","expect":true,"modes":["plain"]}]}}`,
		`"stages":["ref","stuck"]`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s\nlacks %s", b, want)
		}
	}
	var text strings.Builder
	d.WriteText(&text)
	for _, want := range []string{
		"counter: counts down to zero\n  *.count      a number in decimal\n  *.tally      a number in bars\n  stages     ref (reference), quiet, wrong, stuck\n  --speed     the speed of the count: one (default) [plain, quick], two\n",
		"\nstages, in derivation order:\n  ref         the ref stage\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text\n%s\nlacks\n%s", text.String(), want)
		}
	}
}

// TestSourceFiles: a directory gives its files of a registered extension, sorted,
// recursively; a file named is kept whatever its extension; a directory with none is
// an error naming the extensions.
func TestSourceFiles(t *testing.T) {
	w := newBench(t, newCounter(), newOther())
	dir := t.TempDir()
	for _, f := range []string{"b.count", "a.tally", "sub/c.oth", "notes.txt"} {
		path := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("1"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := w.SourceFiles([]string{dir, filepath.Join(dir, "notes.txt"), "-"})
	want := []string{filepath.Join(dir, "a.tally"), filepath.Join(dir, "b.count"), filepath.Join(dir, "sub/c.oth"), filepath.Join(dir, "notes.txt"), "-"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("SourceFiles: %v %v\nwant %v", got, err, want)
	}
	if _, err := w.SourceFiles([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no program files here (*.count, *.tally, *.oth)") {
		t.Errorf("an empty directory: %v", err)
	}
}

// TestReadSource: the limit on a source's size is positioned at the first byte past
// it (by hand: "12\n345" cut at 4 is past "12\n3", line 2 column 2); a file is read
// whole under the limit; a directory is an error.
func TestReadSource(t *testing.T) {
	err := checkSizeAt([]byte("12\n345"), 4)
	var le *LoadError
	if !errors.As(err, &le) || le.Phase != "syntax" || !strings.HasPrefix(le.Err.Error(), "2:2: the program is 6 bytes long; the limit is 4") {
		t.Errorf("checkSizeAt: %v", err)
	}
	path := filepath.Join(t.TempDir(), "p.count")
	if err := os.WriteFile(path, []byte("42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := ReadSource(path, nil, 0); err != nil || string(src) != "42\n" {
		t.Errorf("ReadSource: %q %v", src, err)
	}
	if src, err := ReadSource("-", strings.NewReader("7"), 0); err != nil || string(src) != "7" {
		t.Errorf("ReadSource -: %q %v", src, err)
	}
	if _, err := ReadSource(filepath.Dir(path), nil, 0); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
}
