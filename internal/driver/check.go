package driver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// Expectations are what a program's comments promise, per variant:
//
//	-- expect: ANSWER            (every variant)
//	-- expect[ld,eud]: ANSWER    (the variants listed)
//	-- expect-approx: 0.8414709848078965   (reals compared to a relative 1e-9)
//	-- rules[ld]: R1, R2         (contractions that must occur)
//	-- fuel: N                   (the contraction budget for this file)
//
// ANSWER is what run prints, or "blame *" (blame with any label), "type error"
// (rejected statically), or "out of fuel".
type Expectations struct {
	Answer map[string]string   // variant -> expected answer
	Rules  map[string][]string // variant -> rules that must fire
	Fuel   int                 // 0: the default
}

var directive = regexp.MustCompile(`^--\s*(expect-approx|expect|rules|fuel)(?:\[([^\]]*)\])?\s*:\s*(.*?)\s*$`)

// ParseExpectations reads the expectation comments of src for a language.
func ParseExpectations(src []byte, l Language) (Expectations, error) {
	x := Expectations{Answer: map[string]string{}, Rules: map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), len(src)+1)
	for line := 1; sc.Scan(); line++ {
		m := directive.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		kind, which, arg := m[1], m[2], m[3]
		variants := expectAll(l)
		if which != "" {
			variants = nil
			for _, v := range strings.Split(which, ",") {
				v = strings.TrimSpace(v)
				if !slices.Contains(l.Variants(), v) {
					return x, fmt.Errorf("line %d: unknown semantics %q", line, v)
				}
				variants = append(variants, v)
			}
		}
		switch kind {
		case "expect", "expect-approx":
			if kind == "expect-approx" {
				arg = approxPrefix + arg
			}
			for _, v := range variants {
				if old, dup := x.Answer[v]; dup {
					return x, fmt.Errorf("line %d: a second expectation for %s (already %q)", line, v, old)
				}
				x.Answer[v] = arg
			}
		case "rules":
			for _, r := range strings.Split(arg, ",") {
				if r = strings.TrimSpace(r); r != "" {
					for _, v := range variants {
						x.Rules[v] = append(x.Rules[v], r)
					}
				}
			}
		case "fuel":
			n, err := strconv.Atoi(arg)
			if err != nil || n <= 0 {
				return x, fmt.Errorf("line %d: fuel must be a positive number, not %q", line, arg)
			}
			x.Fuel = n
		}
	}
	return x, sc.Err()
}

// approxPrefix marks an expectation read from an expect-approx comment.
const approxPrefix = "≈ "

// expectAll is what a plain -- expect: covers: for the gradual calculi the four
// standard semantics (a custom one runs only where a file names it); for the others
// every variant.
func expectAll(l Language) []string {
	if _, ok := l.(gradualLang); ok {
		var names []string
		for _, s := range g.Standard() {
			names = append(names, s.Name())
		}
		return names
	}
	return l.Variants()
}

// Matches reports whether an actual answer satisfies an expected one: equal text; or
// any blame for "blame *"; or, for an expect-approx expectation, the same shape with
// every number within a relative 1e-9 (absolute, against 0).
func Matches(expected, actual string) bool {
	if want, ok := strings.CutPrefix(expected, approxPrefix); ok {
		return approxEqual(want, actual, 1e-9)
	}
	if expected == "blame *" {
		return strings.HasPrefix(actual, "blame ")
	}
	return expected == actual
}

var number = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)

// approxEqual compares two answers such as "<0.5, -1e-3>" number by number.
func approxEqual(want, got string, tol float64) bool {
	shape := func(s string) string { return strings.Join(strings.Fields(number.ReplaceAllString(s, "#")), "") }
	if shape(want) != shape(got) {
		return false
	}
	ws, gs := number.FindAllString(want, -1), number.FindAllString(got, -1)
	for i := range ws {
		w, err1 := strconv.ParseFloat(ws[i], 64)
		g, err2 := strconv.ParseFloat(gs[i], 64)
		if err1 != nil || err2 != nil {
			return false
		}
		bound := tol * math.Abs(w)
		if w == 0 {
			bound = tol
		}
		if math.Abs(w-g) > bound {
			return false
		}
	}
	return true
}

// FileResult is the outcome of checking one file.
type FileResult struct {
	Path     string
	Cases    int      // stage × variant combinations checked
	Failures []string // one line per failed case; empty when the file passed
}

// CheckFile runs a program on the given stages (all of the language's when empty)
// under every variant, against its expectations.
func CheckFile(path string, stages []string) FileResult {
	res := FileResult{Path: path}
	fail := func(format string, args ...any) {
		res.Failures = append(res.Failures, fmt.Sprintf(format, args...))
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
		return res
	}
	l, err := LanguageFor(path, "")
	if err != nil {
		fail("%v", err)
		return res
	}
	x, err := ParseExpectations(src, l)
	if err != nil {
		fail("expectations: %v", err)
		return res
	}
	// Only the variants with an expectation run: a program may be about some of them
	// (and a variant can be too slow for some programs, like figure6 differentiation).
	var variants []string
	for _, v := range l.Variants() {
		if _, ok := x.Answer[v]; ok {
			variants = append(variants, v)
		}
	}
	if len(variants) == 0 {
		fail("no expectation: write -- expect: ANSWER")
		return res
	}
	prog, err := l.Load(src)
	var le *LoadError
	if errors.As(err, &le) {
		for _, v := range variants {
			res.Cases++
			if want := x.Answer[v]; want != "type error" || le.Phase != "type" {
				fail("%s: expected %s, got %s error: %s", v, want, le.Phase, interderive.Describe(path, src, le.Err))
			}
		}
		return res
	}
	if len(stages) == 0 {
		stages = l.Stages()
	}
	for _, stage := range stages {
		if !slices.Contains(l.Stages(), stage) {
			continue
		}
		for _, v := range variants {
			res.Cases++
			// The rules of a file are those of the reference sequence of contractions,
			// which every stage performs when it does not merge pending coercions; the
			// answer must also hold in the stage's default mode (which may merge).
			for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.MergeDefault} {
				fired := map[string]bool{}
				out, err := prog.Run(stage, v, interderive.Options{Fuel: x.Fuel, Merging: mode, OnContract: func(r string) { fired[r] = true }})
				got := out.Observation
				switch {
				case IsFuel(err):
					got = "out of fuel"
				case err != nil:
					fail("%s/%s (%s): %v", stage, v, mode, err)
					continue
				}
				if want := x.Answer[v]; !Matches(want, got) {
					fail("%s/%s (%s): expected %s, got %s", stage, v, mode, strings.TrimPrefix(want, approxPrefix), got)
				}
				if mode != interderive.Unmerged {
					continue
				}
				for _, r := range x.Rules[v] {
					if !fired[r] {
						fail("%s/%s: rule %s never fired (fired: %s)", stage, v, r, strings.Join(sortedKeys(fired), " "))
					}
				}
			}
		}
	}
	return res
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SourceFiles expands paths (files, and directories searched recursively) into the
// program files they hold, sorted.
func SourceFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsSource(path) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}
