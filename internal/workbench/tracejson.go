package workbench

import (
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// TraceVersion is the version of the JSON document of trace --stage all --json
// (WriteJSON): 2 has a step per contraction with the redex and the contractum located
// in their terms (version 1, a list of each stage's lines, had no version field).
const TraceVersion = 2

// A Defined calculus is one that a definition file makes (a Family's calculus): it
// names the language the file declares and the file, which head a trace (a rule
// file's (language NAME) and its path).
type Defined interface {
	Defined() (language, file string)
}

// A Focus is a term as a stage printed it and a part of it: the redex in the term
// before a contraction, or the contractum in the term after it. Start and End are the
// part's place in Term in characters (Unicode code points), -1 both when the printed
// decomposition does not locate it in the term (a term cut at the output budget, a
// context printed in another notation than the term); Text is the part itself.
type Focus struct {
	Term  string `json:"term"`
	Text  string `json:"text"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	from  int    // the part's place in Term in bytes, -1 if unknown
}

// located is a Focus on term's bytes [from, to), or on none if from < 0.
func located(term, part string, from, to int) *Focus {
	f := &Focus{Term: term, Text: part, Start: -1, End: -1, from: from}
	if from >= 0 {
		f.Text = term[from:to]
		f.Start = utf8.RuneCountInString(term[:from])
		f.End = f.Start + utf8.RuneCountInString(f.Text)
	}
	return f
}

// split is the term cut around its part: before, the part, after; ok false when the
// part is not located.
func (f *Focus) split() (before, part, after string, ok bool) {
	if f == nil || f.from < 0 {
		return "", "", "", false
	}
	return f.Term[:f.from], f.Term[f.from : f.from+len(f.Text)], f.Term[f.from+len(f.Text):], true
}

// A StageState is what one stage did to reach a step: the rule it contracted there
// ("" after its last contraction) and its lines (its decompositions, environment
// steps, machine states, as the text trace shows them). Ended says the stage's run had
// ended before this step.
type StageState struct {
	Stage string   `json:"stage"`
	Rule  string   `json:"rule"`
	Lines []string `json:"lines"`
	Ended bool     `json:"ended,omitempty"`
}

// A Step is a row of the aligned trace as data: contraction N (1-based) and what
// every stage did to reach it, or, in the last step, what they did after their last
// contraction (Rule ""). Agree says that every stage contracts Rule here (Rule is ""
// where they do not: each stage's rule is in Stages). Redex is the term before the
// contraction with its redex, Contractum the term after it with its contractum, both
// as the reference stage printed its decomposition (nil where it printed none).
type Step struct {
	N          int          `json:"n"`
	Rule       string       `json:"rule"`
	Agree      bool         `json:"agree"`
	Redex      *Focus       `json:"redex"`
	Contractum *Focus       `json:"contractum"`
	Stages     []StageState `json:"stages"`
}

// laneEnd is a lane without its steps: its rules and how it ended.
type laneEnd struct {
	Stage  string   `json:"stage"`
	Rules  []string `json:"rules"`
	Answer string   `json:"answer"`
	Error  string   `json:"error,omitempty"`
	Limit  bool     `json:"limit,omitempty"`
}

// Steps are the rows of the aligned trace as data, the redex and the contractum of
// each located from the reference stage's lines (focusRows).
func (s SideBySide) Steps() []Step {
	var focus []rowFocus
	for _, l := range s.Lanes {
		if l.Stage == s.Reference {
			focus = focusRows(l.Steps, s.Program)
		}
	}
	steps := make([]Step, s.Rows())
	for i := range steps {
		rule, agree := s.Rule(i)
		st := Step{N: i + 1, Rule: rule, Agree: agree}
		if !agree {
			st.Rule = ""
		}
		if i < len(focus) {
			st.Redex, st.Contractum = focus[i].redex, focus[i].contractum
		}
		for j, c := range s.cells(i) {
			ss := StageState{Stage: s.Lanes[j].Stage, Lines: []string{}, Ended: c == nil}
			if c != nil {
				ss.Rule = c.rule
				if c.lines != nil {
					ss.Lines = c.lines
				}
			}
			st.Stages = append(st.Stages, ss)
		}
		steps[i] = st
	}
	return steps
}

// WriteJSON writes the aligned trace as one JSON object, version TraceVersion (the
// schema is in docs/derivation.md): the title and the names of the run, each stage's
// rules and answer or error (lanes), and the steps (Steps).
func (s SideBySide) WriteJSON(w io.Writer) error {
	lanes := make([]laneEnd, len(s.Lanes))
	for j, l := range s.Lanes {
		rules := l.Rules
		if rules == nil {
			rules = []string{}
		}
		lanes[j] = laneEnd{Stage: l.Stage, Rules: rules, Answer: l.Answer, Error: l.Error, Limit: l.Limit}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Version    int       `json:"version"`
		Title      string    `json:"title"`
		Calculus   string    `json:"calculus"`
		Language   string    `json:"language,omitempty"`
		Definition string    `json:"definition,omitempty"`
		File       string    `json:"file,omitempty"`
		Program    string    `json:"program"`
		Parameter  string    `json:"parameter"`
		Variant    string    `json:"variant"`
		Mode       string    `json:"mode"`
		Reference  string    `json:"reference"`
		Lanes      []laneEnd `json:"lanes"`
		Steps      []Step    `json:"steps"`
	}{TraceVersion, s.Title(), s.Calculus, s.Language, s.Definition, s.File, s.Program, s.Parameter, s.Variant, s.Mode,
		s.Reference, lanes, s.Steps()})
}

// Title names the run: the language a definition file declares and the file (a rule
// file's), or the calculus and its variant; the mode; the program's file.
func (s SideBySide) Title() string {
	var b strings.Builder
	if s.Language != "" {
		b.WriteString("language " + s.Language)
		if s.Definition != "" {
			b.WriteString(" (" + s.Definition + ")")
		}
	} else {
		b.WriteString(s.Calculus)
		if s.Calculus != "" {
			b.WriteString(", ")
		}
		b.WriteString(s.Parameter + " " + s.Variant)
	}
	if s.Mode != "" {
		b.WriteString(", mode " + s.Mode)
	}
	switch s.File {
	case "":
	case "-":
		b.WriteString(", program from standard input")
	default:
		b.WriteString(", program " + s.File)
	}
	return b.String()
}

// rowFocus is a row's redex and contractum (nil where unknown).
type rowFocus struct{ redex, contractum *Focus }

// focusRows locates the redex and the contractum of each row of the reference
// stage's lane from its lines: the reduction semantics prints, for each contraction,
// "decompose: CONTEXT  with redex  REDEX", "contract:  CONTRACTUM" and "plug:
// TERM", the context being the term with the hole "[]" for the redex. The decision:
// rather than ask every stage for the redex's path, the path is read off the
// decomposition already printed, as a span of the printed term: the term before
// contraction n is the one its last plug printed (the program, before the first), and
// the redex is where CONTEXT's hole is in it: the term is CONTEXT's text before the
// hole, the redex (parenthesized or not), CONTEXT's text after the hole; where that
// does not match (a context printed in its own notation, a term cut at the output
// budget) the redex is located if it occurs once in the term, and not otherwise. The
// contractum is located alike in the term after. Before the first plug, a term that
// the program's text does not match is the decomposition's (CONTEXT with the hole
// filled), as the stage printed it. A row's decomposition is its last one at top level
// (a nested layer's lines start with "| "); lines under "contraction N (RULE)
// completes" are contraction N's and do not end it.
func focusRows(rows [][]string, program string) []rowFocus {
	out := make([]rowFocus, len(rows))
	cur, printed := program, false // the term as last printed; printed once a plug has
	for i, row := range rows {
		var d *decomposition
		mine := false // the lines that follow are d's
		for _, line := range row {
			switch {
			case strings.HasPrefix(line, "| "):
			case strings.HasPrefix(line, "decompose:"):
				d, mine = parseDecompose(line), true
				if d != nil {
					d.before, d.printed = cur, printed
				}
			case strings.HasPrefix(line, "contraction "):
				mine = false
			case strings.HasPrefix(line, "contract:"):
				if d != nil && mine {
					d.contractum = strings.TrimLeft(strings.TrimPrefix(line, "contract:"), " ")
				}
			case strings.HasPrefix(line, "plug:"):
				cur, printed = strings.TrimLeft(strings.TrimPrefix(line, "plug:"), " "), true
				if d != nil && mine {
					d.after, d.plugged = cur, true
				}
			}
		}
		if d != nil {
			out[i] = d.focus()
		}
	}
	return out
}

// A decomposition as the reduction semantics printed it, with the terms before and
// after its contraction.
type decomposition struct {
	context, redex, contractum string
	before, after              string
	printed, plugged           bool // before is a plug's (else the program's); after is known
}

// hole is the hole of a printed context.
const hole = "[]"

// parseDecompose reads "decompose: CONTEXT  with redex  REDEX[  ...]" (a kind, a
// layer after two spaces), nil if the line is not one.
func parseDecompose(line string) *decomposition {
	ctx, redex, ok := strings.Cut(strings.TrimLeft(strings.TrimPrefix(line, "decompose:"), " "), "  with redex  ")
	if !ok {
		return nil
	}
	redex, _, _ = strings.Cut(redex, "  ")
	if redex == "" {
		return nil
	}
	return &decomposition{context: ctx, redex: redex}
}

// focus locates the redex and the contractum (see focusRows).
func (d *decomposition) focus() rowFocus {
	var f rowFocus
	before := d.before
	from, to := locate(before, d.context, d.redex, d.printed)
	if from < 0 && !d.printed {
		if k := strings.Index(d.context, hole); k >= 0 {
			before, from, to = d.context[:k]+d.redex+d.context[k+len(hole):], k, k+len(d.redex)
		}
	}
	f.redex = located(before, d.redex, from, to)
	if d.plugged && d.contractum != "" {
		from, to := locate(d.after, d.context, d.contractum, true)
		f.contractum = located(d.after, d.contractum, from, to)
	}
	return f
}

// locate is where part is in term, bytes [from, to), or -1, -1: where context's hole
// is, if term is the context's text before the hole, something, and the text after
// it; the something is part, perhaps in parentheses or with parentheses it had not
// printed alone ((\x. x) \y. y stands for (\x. x) (\y. y) at the end of a term, not
// within it), or another printing of it (a stage may print a subterm in context
// otherwise than alone), which the context locates all the same if loose (a term the
// stage printed, not the program's text). Where the context's text is not the term's,
// part's place if it occurs once in term.
func locate(term, context, part string, loose bool) (from, to int) {
	found := false
	for k := 0; ; k++ {
		i := strings.Index(context[k:], hole)
		if i < 0 {
			break
		}
		k += i
		pre, suf := context[:k], context[k+len(hole):]
		if len(term) < len(pre)+len(suf) || !strings.HasPrefix(term, pre) || !strings.HasSuffix(term, suf) {
			continue
		}
		f, t := len(pre), len(term)-len(suf)
		if term[f:t] == part {
			return f, t
		}
		if wrapped(term[f:t]) && !wrapped(part) {
			f, t = f+1, t-1
		}
		if mid := term[f:t]; mid == part || unparenthesized(mid) == unparenthesized(part) {
			return f, t
		}
		if loose && !found && f < t {
			from, to, found = f, t, true
		}
	}
	if found {
		return from, to
	}
	if strings.Count(term, part) == 1 {
		from := strings.Index(term, part)
		return from, from + len(part)
	}
	return -1, -1
}

// wrapped reports whether s is in parentheses as a whole: "(a b)", not "(a) (b)".
func wrapped(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return false
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(s)-1
			}
		}
	}
	return false
}

// unparenthesized is s without its parentheses.
func unparenthesized(s string) string {
	return strings.NewReplacer("(", "", ")", "").Replace(s)
}
