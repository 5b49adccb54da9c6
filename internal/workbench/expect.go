package workbench

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// Expectations are what a program's comments promise, per variant:
//
//	-- expect: ANSWER            (the variants Parameter.Expect lists: all, by default)
//	-- expect[v1,v2]: ANSWER     (the variants listed)
//	-- expect-approx: 0.8414709848078965   (reals compared to a relative 1e-9)
//	-- rules[v1]: R1, R2         (contractions that must occur)
//	-- fuel: N                   (the contraction budget for this file)
//	-- type: T                   (the program's type, where its calculus types it: Typed)
//	-- holds: P1, P2             (properties the program must satisfy: PropertyHolder)
//
// ANSWER is what run prints (Outcome.Observation), or "type error" (rejected
// statically), or "out of fuel", or "run-time error: REASON" (a run that stopped at a
// shape its semantics declares stuck, interderive.RuntimeError); an ANSWER that ends in " *" matches every answer
// that begins with what comes before the star ("error *": any answer that begins with
// "error ").
type Expectations struct {
	Answer map[string]string   // variant -> expected answer
	Rules  map[string][]string // variant -> rules that must fire
	Type   map[string]string   // variant -> expected type (nil: no type line)
	Fuel   int                 // 0: the default
	// Holds are the properties the program must satisfy, on the stages that check
	// them (PropertyHolder): a counterexample fuzz found and saved, replayed. A file
	// with holds: lines needs no expect: line.
	Holds []string
}

// A PropertyHolder is a program whose calculus states properties it can check of one
// program (a rule file's (property ...)): CheckProperty checks the property named on
// the stage s, checked false when s is not a stage that checks it (the reference
// stage, which steps one at a time, does); an error says why the property fails,
// or that the calculus states no such property.
type PropertyHolder interface {
	CheckProperty(name string, s interderive.Stage) (checked bool, err error)
}

// Typed is a program whose calculus types it before it runs (a rule file with a
// typing judgment): its type as printed, and whether the calculus types programs at
// all.
type Typed interface {
	TypeOf() (string, bool)
}

// Directives are the keywords of the expectation comments.
func Directives() []string {
	return []string{"expect", "expect-approx", "rules", "fuel", "type", "holds"}
}

// A directiveLine is a comment line shaped as a directive: -- WORD: ARG or
// -- WORD[LIST]: ARG, at the start of a line (after blanks). Columns count runes
// from 1.
type directiveLine struct {
	word       string
	wordCol    int
	list       []listItem // the names in brackets
	bracket    bool       // the word is followed by [
	closed     bool       // ... and by a closing ]
	colon      bool       // a colon follows the word or the brackets
	arg        string     // after the colon, trimmed
	argCol     int        // the column of arg (or of the end of the line)
	bracketCol int        // the column of [
}

// listItem is a name in a directive's brackets and its column.
type listItem struct {
	name string
	col  int
}

// scanDirective reads a line as a directive, in a comment that starts with comment
// ("--", or a Commenter's LineComment). ok is false for every other line,
// prose comments included: a comment whose first word is not followed by [ or : (as
// -- expect the answer to be 4), or whose first token is not a word (-- -beta->).
func scanDirective(line, comment string) (d directiveLine, ok bool) {
	col := func(i int) int { return utf8.RuneCountInString(line[:i]) + 1 }
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if !strings.HasPrefix(line[i:], comment) {
		return d, false
	}
	i += len(comment)
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	start := i
	for i < len(line) && isWordByte(line[i], i == start) {
		i++
	}
	if i == start {
		return d, false
	}
	d.word, d.wordCol = line[start:i], col(start)
	j := i
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	if j < len(line) && line[j] == '[' {
		d.bracket, d.bracketCol = true, col(j)
		close := strings.IndexByte(line[j:], ']')
		inner, at := line[j+1:], j+1
		if close >= 0 {
			d.closed, inner = true, line[j+1:j+close]
			j += close + 1
		} else {
			j = len(line)
		}
		for _, part := range strings.Split(inner, ",") {
			name := strings.TrimSpace(part)
			d.list = append(d.list, listItem{name, col(at + strings.Index(part, name))})
			at += len(part) + 1
		}
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
	}
	if j < len(line) && line[j] == ':' {
		d.colon = true
		j++
	}
	if !d.bracket && !d.colon {
		return d, false
	}
	rest := strings.TrimRight(line[j:], " \t\r")
	trimmed := strings.TrimLeft(rest, " \t")
	d.arg, d.argCol = trimmed, col(j+len(rest)-len(trimmed))
	return d, true
}

// isWordByte reports whether b may be in a directive's word: a letter first, then
// letters, digits, _ and -.
func isWordByte(b byte, first bool) bool {
	letter := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	return letter || !first && (b >= '0' && b <= '9' || b == '_' || b == '-')
}

// nearDirective returns the directive a word misspells: one whose name is within
// one edit of it (two for the names longer than five letters), case ignored. A word
// farther from every directive is prose (-- Note: ..., -- note: ...).
func nearDirective(word string) (string, bool) {
	w := strings.ToLower(word)
	for _, d := range Directives() {
		bound := 1
		if len(d) > 5 {
			bound = 2
		}
		if editDistance(w, d) <= bound {
			return d, true
		}
	}
	return "", false
}

// editDistance is the optimal string alignment distance of a and b: insertions,
// deletions, substitutions and transpositions of adjacent bytes.
func editDistance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// ParseExpectations reads the expectation comments of src for a calculus, whose
// variants are the values of its variant parameter (comments start with "--", or with
// the calculus's LineComment if it is a Commenter). A
// malformed directive is an error at its position (an interderive.ErrorList of every
// such error): an unknown word shaped as a directive (-- expct[v]: 4, -- expext: 4;
// -- WORD[...] whatever the word, -- WORD: when the word is a directive's name
// misspelt, with the name suggested), a missing colon, an unknown variant, an empty
// expectation, a fuel that is not a positive number, a second expectation for a
// variant or a second fuel line, and rules for a variant that has no expectation.
func ParseExpectations(src []byte, c Calculus) (Expectations, error) {
	p, comment := c.Variant(), lineComment(c)
	x := Expectations{Answer: map[string]string{}, Rules: map[string][]string{}}
	var errs interderive.ErrorList
	errorf := func(line, col int, format string, args ...any) {
		errs = append(errs, interderive.Errorf(interderive.Pos{Line: int32(line), Col: int32(col)}, format, args...))
	}
	type rulesAt struct{ line, col int }
	rulesLines := map[string]rulesAt{}
	fuelLine := 0
	for n, text := range strings.Split(string(src), "\n") {
		line := n + 1
		d, ok := scanDirective(text, comment)
		if !ok {
			continue
		}
		if !slices.Contains(Directives(), d.word) {
			near, close := nearDirective(d.word)
			switch {
			case close:
				errorf(line, d.wordCol, "unknown directive %q: did you mean %q?", d.word, near)
			case d.bracket:
				errorf(line, d.wordCol, "unknown directive %q (the directives: %s)", d.word, strings.Join(Directives(), ", "))
			}
			continue
		}
		switch {
		case d.bracket && !d.closed:
			errorf(line, d.bracketCol, "%s[ has no closing ]", d.word)
			continue
		case !d.colon:
			errorf(line, d.argCol, "a colon must follow %s[...]", d.word)
			continue
		}
		variants := p.expected()
		if d.bracket {
			variants = nil
			bad := false
			for _, it := range d.list {
				if !slices.Contains(p.Values, it.name) {
					errorf(line, it.col, "unknown %s %q (known: %s)", p.Name(), it.name, strings.Join(p.Values, ", "))
					bad = true
					continue
				}
				variants = append(variants, it.name)
			}
			if bad {
				continue
			}
		}
		switch d.word {
		case "expect", "expect-approx":
			if d.arg == "" {
				errorf(line, d.argCol, "an empty expectation: write the answer after the colon")
				continue
			}
			arg := d.arg
			if d.word == "expect-approx" {
				arg = approxPrefix + arg
			}
			for _, v := range variants {
				if old, dup := x.Answer[v]; dup {
					errorf(line, d.wordCol, "a second expectation for %s (already %q)", v, strings.TrimPrefix(old, approxPrefix))
					continue
				}
				x.Answer[v] = arg
			}
		case "type":
			if d.arg == "" {
				errorf(line, d.argCol, "an empty type: write the type after the colon")
				continue
			}
			if x.Type == nil {
				x.Type = map[string]string{}
			}
			for _, v := range variants {
				if old, dup := x.Type[v]; dup {
					errorf(line, d.wordCol, "a second type for %s (already %q)", v, old)
					continue
				}
				x.Type[v] = d.arg
			}
		case "rules":
			for _, r := range strings.Split(d.arg, ",") {
				if r = strings.TrimSpace(r); r != "" {
					for _, v := range variants {
						x.Rules[v] = append(x.Rules[v], r)
					}
				}
			}
			for _, v := range variants {
				if _, seen := rulesLines[v]; !seen {
					rulesLines[v] = rulesAt{line, d.wordCol}
				}
			}
		case "holds":
			if d.bracket {
				errorf(line, d.wordCol, "holds applies to every variant: write -- holds: PROPERTY")
				continue
			}
			for _, q := range strings.Split(d.arg, ",") {
				if q = strings.TrimSpace(q); q != "" {
					x.Holds = append(x.Holds, q)
				}
			}
			if len(x.Holds) == 0 {
				errorf(line, d.argCol, "an empty holds: name the properties after the colon")
			}
		case "fuel":
			if d.bracket {
				errorf(line, d.wordCol, "fuel applies to every variant: write -- fuel: N")
				continue
			}
			if fuelLine != 0 {
				errorf(line, d.wordCol, "a second fuel line (the first is line %d)", fuelLine)
				continue
			}
			n, err := strconv.Atoi(d.arg)
			if err != nil || n <= 0 {
				errorf(line, d.argCol, "fuel must be a positive number, not %q", d.arg)
				continue
			}
			x.Fuel, fuelLine = n, line
		}
	}
	for _, v := range p.Values {
		at, ok := rulesLines[v]
		if _, expected := x.Answer[v]; ok && !expected {
			errorf(at.line, at.col, "rules for %s, which has no expectation", v)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pos.Line < errs[j].Pos.Line })
	return x, errs.Err()
}

// approxPrefix marks an expectation read from an expect-approx comment.
const approxPrefix = "≈ "

// Matches reports whether an actual answer satisfies an expected one: equal text; or,
// for an expectation that ends in " *", an answer that begins with what precedes the
// star, its blank included ("error *" matches "error l1", not "error" or "errors");
// or, for an expect-approx expectation, the same shape with every number within a
// relative 1e-9 (absolute, against 0).
func Matches(expected, actual string) bool {
	if want, ok := strings.CutPrefix(expected, approxPrefix); ok {
		return approxEqual(want, actual, 1e-9)
	}
	if prefix, ok := strings.CutSuffix(expected, " *"); ok {
		return strings.HasPrefix(actual, prefix+" ")
	}
	return expected == actual
}

// ShownExpectation is an expectation as a file wrote it: without the mark of an
// expect-approx comment.
func ShownExpectation(expected string) string { return strings.TrimPrefix(expected, approxPrefix) }

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
