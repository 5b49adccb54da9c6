package sem

import "strings"

// The typesetting of judgments (render): each inference rule as a fraction, its
// premises above the line, its conclusion below, its name beside; and the judgment
// that types the programs.

// sameJudgment reports whether (judgment NAME (SORT ...) (MODE ...) RULE ...), given by
// its arguments, says exactly what j is.
func sameJudgment(j *Judgment, args []*SExpr) bool {
	if len(args) != 3+len(j.Rules) || !isSym(args[0], j.Name) || args[1].Kind != SList || args[2].Kind != SList ||
		len(args[1].List) != len(j.Params) || len(args[2].List) != len(j.Params) {
		return false
	}
	for i, a := range j.Params {
		mode := j.Mode(i)
		if !argNamed(a, args[1].List[i].Sym) || !isSym(args[2].List[i], mode) {
			return false
		}
	}
	for i, r := range j.Rules {
		if !sameInference(j, r, args[3+i]) {
			return false
		}
	}
	return true
}

// sameInference reports whether (infer NAME CONCLUSION PREMISE ...) says exactly r.
func sameInference(j *Judgment, r *Inference, s *SExpr) bool {
	if s.Kind != SList || len(s.List) != 3+len(r.Premises) || !isSym(s.List[0], "infer") || !isSym(s.List[1], r.Name) ||
		!sameList([]string{j.Name}, r.Conclusion, s.List[2]) {
		return false
	}
	for i, pr := range r.Premises {
		x := s.List[3+i]
		if pr.Cond != nil {
			if !sameConds([]*Cond{pr.Cond}, []*SExpr{x}) {
				return false
			}
			continue
		}
		if pr.Negated {
			if x.Kind != SList || len(x.List) != 2 || !isSym(x.List[0], "not") {
				return false
			}
			x = x.List[1]
		}
		if !sameList([]string{pr.Judgment.Name}, pr.Args, x) {
			return false
		}
	}
	return true
}

// sameTyping reports whether (typing (JUDGMENT ARG ...)) says exactly ty: its
// judgment, its closed inputs, and metavariables at the program's and the type's
// places.
func sameTyping(ty *Typing, args []*SExpr) bool {
	if len(args) != 1 || args[0].Kind != SList || len(args[0].List) != 1+len(ty.Args) || !isSym(args[0].List[0], ty.Judgment.Name) {
		return false
	}
	for i, a := range ty.Args {
		x := args[0].List[1+i]
		if a == nil {
			if x.Kind != SSym {
				return false
			}
			continue
		}
		if !samePattern(a, x) {
			return false
		}
	}
	return true
}

// judgment typesets a judgment of j whose positions are pats.
func (ts *typesetter) judgment(j *Judgment, pats []*Pattern) string {
	return ts.call(j.Name, pats)
}

// writeJudgments writes the judgments shown, each rule a fraction, and the judgment
// that types the programs.
func (ts *typesetter) writeJudgments(b *strings.Builder, shown map[any]bool) {
	var out []string
	for _, j := range ts.l.Judgments {
		if !shown[j] {
			continue
		}
		var modes []string
		for i := range j.Params {
			modes = append(modes, j.Mode(i))
		}
		out = append(out, `\noindent $\operatorname{`+texWord(j.Name)+`}$, mode $(`+strings.Join(modes, ", ")+`)$:`)
		for _, r := range j.Rules {
			var above []string
			for _, pr := range r.Premises {
				if pr.Cond != nil {
					above = append(above, ts.cond(pr.Cond))
					continue
				}
				if pr.Negated {
					above = append(above, `\neg `+ts.judgment(pr.Judgment, pr.Args))
					continue
				}
				above = append(above, ts.judgment(pr.Judgment, pr.Args))
			}
			top := strings.Join(above, `\qquad `)
			if top == "" {
				top = `\vphantom{x}`
			}
			out = append(out, `\[ \frac{`+top+`}{`+ts.judgment(j, r.Conclusion)+`}\;\textsc{`+texText(r.Name)+`} \]`)
		}
	}
	if ty := ts.l.Typing; ty != nil && shown[ty] {
		out = append(out, `\noindent A program is typed by $\operatorname{`+texWord(ty.Judgment.Name)+`}$ before it runs.`)
	}
	if len(out) == 0 {
		return
	}
	b.WriteString("\n\\subsection*{Judgments}\n\n" + strings.Join(out, "\n") + "\n")
}
