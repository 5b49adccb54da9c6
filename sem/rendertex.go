package sem

import (
	"strconv"
	"strings"
)

// Typesetting terms, conditions and names in LaTeX math.

// typesetter typesets a language's terms and conditions, with the notations its file
// gives its constructors.
type typesetter struct {
	l     *Language
	notes map[*Con]*notation
}

// cond typesets a side condition.
func (ts *typesetter) cond(c *Cond) string {
	arg := func(i int) string { return ts.pattern(c.Args[i]) }
	switch {
	case c.Kind == CondFresh && len(c.Args) < 2, (c.Kind == CondEq || c.Kind == CondNe) && len(c.Args) != 2:
		return ts.call("?", c.Args)
	}
	switch c.Kind {
	case CondEq:
		return arg(0) + " = " + arg(1)
	case CondNe:
		return arg(0) + ` \neq ` + arg(1)
	case CondPrim:
		if op, ok := comparisons[c.Prim.Name]; ok && len(c.Args) == 2 {
			return ts.operand(c.Args[0]) + " " + op + " " + ts.operand(c.Args[1])
		}
		return ts.call(c.Prim.Name, c.Args)
	case CondFresh:
		if c.Args[1].Slot < 0 { // (fresh x_k T ...): a name like x
			return arg(0) + " = " + ts.call("fresh", c.Args[2:])
		}
		return arg(0) + " = " + ts.call("fresh", c.Args[1:])
	case CondStep:
		if len(c.Args) == 2 {
			return arg(0) + ` \longrightarrow_{` + texKind(c.Layer.Name) + "} " + arg(1)
		}
	case CondMatch:
		if len(c.Args) == 2 {
			return arg(0) + " = " + arg(1)
		}
	case CondCall:
		if len(c.Args) == 1 {
			return arg(0)
		}
	}
	return `\text{?}`
}

// comparisons and operators are the prims typeset infix.
var (
	comparisons = map[string]string{"lt": "<", "le": `\leq`, "gt": ">", "ge": `\geq`, "eq": "=", "ne": `\neq`}
	operators   = map[string]string{"add": "+", "sub": "-", "mul": `\times`}
)

// call typesets an operation applied to its arguments: \operatorname{f}(a, b).
func (ts *typesetter) call(name string, args []*Pattern) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = ts.pattern(a)
	}
	return `\operatorname{` + texWord(name) + "}(" + strings.Join(parts, ", ") + ")"
}

// pattern typesets a pattern: a constructor in its notation, or in \mathsf with its
// arguments spaced; a frame's hole as the kind of context it holds, (subst t x v) as
// t[x := v], the arithmetic prims infix and the others as functions.
func (ts *typesetter) pattern(p *Pattern) string {
	s, _ := ts.term(p, "")
	return s
}

// arg typesets a pattern that is an argument of a constructor without a notation or an
// operand: parenthesized unless atomic.
func (ts *typesetter) arg(p *Pattern, hole string) string {
	s, level := ts.term(p, hole)
	if level != levelAtomic {
		return "(" + s + ")"
	}
	return s
}

// operand typesets an operand of an infix operator: parenthesized unless atomic.
func (ts *typesetter) operand(p *Pattern) string { return ts.arg(p, "") }

// term typesets a pattern with the hole typeset as hole, if not "", and says its
// level (notation.go), which decides its parentheses as an argument.
func (ts *typesetter) term(p *Pattern, hole string) (string, int) {
	switch p.Kind {
	case PatMeta, PatSame:
		return texMeta(p.Meta), levelAtomic
	case PatInt:
		if p.N < 0 {
			return strconv.FormatInt(p.N, 10), levelCompound
		}
		return strconv.FormatInt(p.N, 10), levelAtomic
	case PatAtom:
		return `\texttt{` + texText(p.Atom.Format(p.Val)) + `}`, levelAtomic
	case PatHole:
		switch {
		case hole != "":
			return hole, levelAtomic
		case p.Hole == nil:
			return `[\,]`, levelAtomic
		}
		return texKind(p.Hole.Name), levelAtomic
	case PatCon:
		if n := ts.notes[p.Con]; n != nil && len(n.con.Args) == len(p.Args) {
			args, levels := make([]string, len(p.Args)), make([]int, len(p.Args))
			for i, a := range p.Args {
				args[i], levels[i] = ts.term(a, hole)
			}
			return n.apply(args, levels), n.level
		}
		args := make([]string, len(p.Args))
		for i, a := range p.Args {
			args[i] = ts.arg(a, hole)
		}
		if len(p.Args) == 0 {
			return texApp(p.Con.Name, args), levelAtomic
		}
		return texApp(p.Con.Name, args), levelCompound
	case PatSubst:
		if len(p.Args) != 3 {
			return ts.call("subst", p.Args), levelAtomic
		}
		return ts.postfix(p.Args[0]) + "[" + ts.pattern(p.Args[1]) + ` :=\nobreak ` + ts.pattern(p.Args[2]) + "]", levelAtomic
	case PatCall:
		return ts.call(p.Fn.Name, p.Args), levelAtomic
	case PatSeq: // (P \ldots Q)
		elems := make([]string, len(p.Args))
		for i, a := range p.Args {
			elems[i] = ts.arg(a, hole)
			if p.Reps[i].Repeated() {
				elems[i] += `\,\ldots`
			}
		}
		return "(" + strings.Join(elems, `\ `) + ")", levelAtomic
	case PatPlug: // the context the rule captured, its hole filled: E[t]
		return texMeta(p.Meta) + "[" + ts.pattern(p.Args[0]) + "]", levelAtomic
	case PatPrim:
		if op, ok := operators[p.Prim.Name]; ok && len(p.Args) == 2 {
			return ts.operand(p.Args[0]) + " " + op + " " + ts.operand(p.Args[1]), levelCompound
		} else if p.Prim.Name == "neg" && len(p.Args) == 1 {
			return "-" + ts.operand(p.Args[0]), levelCompound
		}
		return ts.call(p.Prim.Name, p.Args), levelAtomic
	}
	return `\text{?}`, levelAtomic
}

// postfix typesets the term a substitution applies to: parenthesized unless atomic or
// itself a substitution.
func (ts *typesetter) postfix(p *Pattern) string {
	if p.Kind == PatSubst {
		return ts.pattern(p)
	}
	return ts.arg(p, "")
}

// con typesets a constructor applied to typeset arguments (metavariables): in its
// notation, or in \mathsf with its arguments spaced.
func (ts *typesetter) con(c *Con, args []string) string {
	if n := ts.notes[c]; n != nil {
		return n.apply(args, make([]int, len(args)))
	}
	return texApp(c.Name, args)
}

// texKind typesets a context kind's name (the BNF's nonterminal, an arrow's
// subscript) apart from a context a rule captures (texMeta, math italic): a name of
// capital letters in \mathcal, any other in \mathbf, its primes and subscript as
// texMeta's.
func texKind(name string) string {
	base, sub, ok := strings.Cut(name, "_")
	word := strings.TrimRight(base, "'")
	primes := base[len(word):]
	var s string
	switch {
	case isUpper(word):
		s = `\mathcal{` + word + "}" + primes
	case isWord(word):
		s = `\mathbf{` + word + "}" + primes
	default:
		s = `\textbf{` + texText(base) + "}"
	}
	if ok {
		s += texSubscript(sub)
	}
	return s
}

// isUpper reports whether s is capital letters (ASCII), at least one.
func isUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}

// texApp typesets a constructor applied to typeset arguments.
func texApp(name string, args []string) string {
	s := texCon(name)
	for _, a := range args {
		s += `\;` + a
	}
	return s
}

// texCon typesets a constructor's name: in \mathsf when it is letters and digits,
// else in \textsf, escaped.
func texCon(name string) string {
	if isWord(name) {
		return `\mathsf{` + name + "}"
	}
	return `\textsf{` + texText(name) + "}"
}

// texMetas typesets metavariable names as a list: t, e.
func texMetas(metas []string) string {
	parts := make([]string, len(metas))
	for i, m := range metas {
		parts[i] = texMeta(m)
	}
	return strings.Join(parts, ", ")
}

// texMeta typesets a metavariable (or a kind's name): its base name in math italic,
// and what follows the first _ as a subscript: t_1 is t_{1}.
func texMeta(name string) string {
	base, sub, ok := strings.Cut(name, "_")
	s := texIdent(base)
	if ok {
		s += texSubscript(sub)
	}
	return s
}

// texSubscript typesets what follows a name's first _ as its subscript: as it is
// when it is letters and digits, else in \textit, escaped.
func texSubscript(sub string) string {
	if isAlnum(sub) {
		return "_{" + sub + "}"
	}
	return `_{\textit{` + texText(sub) + "}}"
}

// texIdent typesets a name in math italic: a letter as itself, a longer word in
// \mathit, and primes as primes; any other name in \textit, escaped.
func texIdent(name string) string {
	word := strings.TrimRight(name, "'")
	primes := name[len(word):]
	switch {
	case len(word) == 1 && isLetter(word[0]):
		return word + primes
	case greek[word] != "":
		return greek[word] + primes
	case isWord(word):
		return `\mathit{` + word + "}" + primes
	}
	return `\textit{` + texText(name) + "}"
}

// texWord typesets a name inside \operatorname: letters and digits as they are, any
// other name in \text, escaped.
func texWord(name string) string {
	if isWord(name) {
		return name
	}
	return `\text{` + texText(name) + "}"
}

// isWord reports whether s is a letter followed by letters and digits (ASCII).
func isWord(s string) bool { return s != "" && isLetter(s[0]) && isAlnum(s) }

// isAlnum reports whether s is letters and digits (ASCII), at least one.
func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return s != ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// texText escapes text for LaTeX's text mode: its special characters, those the
// default font encoding does not have (< > |), and the control characters (as \x1b).
func texText(s string) string {
	var b strings.Builder
	for _, c := range s {
		if g := greek[string(c)]; g != "" {
			b.WriteString(`\ensuremath{` + g + "}") // in text and in math alike
			continue
		}
		switch c {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '{', '}', '$', '&', '#', '_', '%':
			b.WriteString(`\` + string(c))
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '<':
			b.WriteString(`\textless{}`)
		case '>':
			b.WriteString(`\textgreater{}`)
		case '|':
			b.WriteString(`\textbar{}`)
		default:
			if c < 0x20 || c == 0x7f {
				b.WriteString(`\textbackslash{}x` + strconv.FormatInt(int64(c)+0x100, 16)[1:])
			} else {
				b.WriteRune(c)
			}
		}
	}
	return b.String()
}

// greek are the Greek letters, and the symbols Redex models write names with, as
// LaTeX commands: a metavariable τ is typeset \tau, an environment Γ \Gamma.
var greek = map[string]string{
	"α": `\alpha`, "β": `\beta`, "γ": `\gamma`, "δ": `\delta`, "ε": `\epsilon`, "ζ": `\zeta`, "η": `\eta`,
	"θ": `\theta`, "ι": `\iota`, "κ": `\kappa`, "λ": `\lambda`, "μ": `\mu`, "ν": `\nu`, "ξ": `\xi`, "ο": "o",
	"π": `\pi`, "ρ": `\rho`, "σ": `\sigma`, "ς": `\varsigma`, "τ": `\tau`, "υ": `\upsilon`, "φ": `\phi`,
	"χ": `\chi`, "ψ": `\psi`, "ω": `\omega`,
	"Γ": `\Gamma`, "Δ": `\Delta`, "Θ": `\Theta`, "Λ": `\Lambda`, "Ξ": `\Xi`, "Π": `\Pi`, "Σ": `\Sigma`,
	"Υ": `\Upsilon`, "Φ": `\Phi`, "Ψ": `\Psi`, "Ω": `\Omega`,
	"·": `\cdot`, "→": `\to`, "⊢": `\vdash`, "∅": `\emptyset`,
}
