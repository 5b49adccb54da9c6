package sem

import (
	"slices"
	"strings"
)

// The pieces of Parse's errors: every error names the token at fault (token) and
// says what was expected there, with the names the file declares when a name was
// expected (a sort's, a kind's, an argument sort's).

// token prints an s-expression for an error that names it: whole when it is short,
// else its head.
func token(s *SExpr) string {
	if s.Kind == SList && len(s.List) > 0 && (len(s.List) > 6 || s.List[0].Kind == SList) {
		return "(" + token(s.List[0]) + " ...)"
	}
	t := s.String()
	if n := 48; len(t) > n {
		if s.Kind == SList && len(s.List) > 0 {
			return "(" + token(s.List[0]) + " ...)"
		}
		return t[:n] + "..."
	}
	return t
}

// form checks that the declaration s has from min to max elements, its keyword
// included (max < 0: no bound). Otherwise it reports what is missing (at the
// declaration) or the first element too many (at it), with usage, the form expected,
// whose words name the elements.
func (p *langParser) form(s *SExpr, min, max int, usage string) bool {
	switch {
	case len(s.List) < min:
		words := strings.Fields(usage)
		missing := "arguments"
		if n := len(s.List); n < len(words) {
			missing = strings.Trim(words[n], "():")
		}
		p.errorf(s.P, "%s ends before its %s: expected %s", token(s), missing, usage)
		return false
	case max >= 0 && len(s.List) > max:
		p.errorf(s.List[max].P, "unexpected %s after %s: expected %s", token(s.List[max]), token(s.List[max-1]), usage)
		return false
	}
	return true
}

// sortNames lists the sorts declared so far, for an error that expected one.
func (p *langParser) sortNames() string {
	var names []string
	for _, so := range p.l.Sorts {
		names = append(names, so.Name)
	}
	return known("sorts", names)
}

// kindNames lists the kinds declared so far, for an error that expected one.
func (p *langParser) kindNames() string {
	var names []string
	for _, k := range p.l.Kinds {
		names = append(names, k.Name)
	}
	return known("kinds", names)
}

// argSortNames lists the metavariable names that declare an argument sort.
func (p *langParser) argSortNames() string {
	var names []string
	for n, ms := range p.l.metas {
		if ms.Kind == MetaTerm || ms.Kind == MetaVar || ms.Kind == MetaInt {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return known("argument sorts", names)
}

// known is "the WHAT: a, b, c", or "no WHAT declared".
func known(what string, names []string) string {
	if len(names) == 0 {
		return "no " + what + " declared"
	}
	return "the " + what + ": " + strings.Join(names, ", ")
}

// declarationWords lists the declarations' keywords, for an error that met another.
func declarationWords() string {
	return "language, sort, kind, class, function, hook, judgment, typing, property, nondeterministic, value, normal-forms, frame, rule, stuck, answer or notation"
}

// reservedWords lists the reserved words, for an error that met one.
func reservedWords() string { return strings.Join(reserved, ", ") }
