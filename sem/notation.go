package sem

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// A notation declaration, (notation CONSTRUCTOR "LATEX"), tells render how to typeset
// a constructor: LATEX is LaTeX math with #1, #2, ... for the constructor's arguments
// (each shown exactly once or more; a rule file's strings escape \ as \\), as
// \newcommand's arguments are written:
//
//	(notation app "#1\\;#2")              ; application as juxtaposition
//	(notation crc "\\langle #1\\rangle\\, #2")
//	(notation proj "#1?^{#2}")
//
// Parenthesization (decided here, as mixfix operators are parsed): an argument's
// placeholder is closed when it sits in braces ({#2}) or between two fixed parts of
// the notation (\langle #1\rangle, \lambda #1.); otherwise it is open (#1\;#2). A
// notation is compound when it shows a space at its top level (a spacing command:
// \, \; \: \! \  ~ \quad \qquad) or has two open placeholders; tight when it has one
// open placeholder and no space (#1!, #1?^{#2}); atomic otherwise (\mathsf{fail}^{#1},
// \langle #1\rangle). At an open placeholder a compound argument is parenthesized; at a
// closed one nothing is. The notation is only typesetting: the rules are read and run
// as written.

// notation is a constructor's notation: its parts, in order.
type notation struct {
	con   *Con
	parts []notePart
	level int
}

// noteTok is a token of a notation's LaTeX, for deciding its parentheses.
type noteTok struct {
	kind  byte // 'p' a placeholder, 's' spacing, 'f' a fixed part
	part  int  // a placeholder's part
	depth int  // in braces
}

// notePart is a part of a notation: LaTeX text, or the placeholder of an argument.
type notePart struct {
	text   string
	arg    int  // the argument shown, from 0; -1 for text
	closed bool // the placeholder is in braces or between fixed parts: never parenthesized
}

// The levels of a typeset term, which decide its parentheses as an argument.
const (
	levelAtomic   = iota // a name, a number, a hole, a substitution, an atomic notation
	levelTight           // a notation with one open placeholder and no space (#1!)
	levelCompound        // an application, an operator, a spaced notation
)

// spacing are the LaTeX commands that show a space in math.
var spacing = map[string]bool{`\,`: true, `\;`: true, `\:`: true, `\!`: true, `\ `: true, "~": true,
	`\quad`: true, `\qquad`: true, `\enspace`: true, `\thinspace`: true, `\medspace`: true, `\thickspace`: true}

// notationUsage is the form of a notation declaration, for its errors.
const notationUsage = `(notation CONSTRUCTOR "LATEX")`

// notations checks the file's (notation ...) declarations: each names a constructor
// once, and its string is LaTeX math that shows each of the constructor's arguments
// (#1 to #n) and no other. It is called once the constructors are known.
func (p *langParser) notations(ss []*SExpr) {
	seen := map[string]Pos{}
	for _, s := range ss {
		if s.Kind != SList || len(s.List) == 0 || !isSym(s.List[0], "notation") {
			continue
		}
		if !p.form(s, 3, 3, notationUsage) {
			continue
		}
		n, err := p.l.parseNotation(s)
		if err != nil {
			p.errs = append(p.errs, err)
			continue
		}
		if at, dup := seen[n.con.Name]; dup {
			p.errorf(s.List[1].P, "a second notation for %s (the first is at %d:%d)", n.con.Name, at.Line, at.Col)
			continue
		}
		seen[n.con.Name] = s.P
	}
}

// notationsOf reads the notations of the declarations decls (which Parse accepted),
// by constructor; a declaration it cannot read is left out.
func (l *Language) notationsOf(decls []*SExpr) map[*Con]*notation {
	out := map[*Con]*notation{}
	for _, s := range decls {
		if s.Kind == SList && len(s.List) == 3 && isSym(s.List[0], "notation") {
			if n, err := l.parseNotation(s); err == nil && out[n.con] == nil {
				out[n.con] = n
			}
		}
	}
	return out
}

// parseNotation reads (notation CONSTRUCTOR "LATEX"), a list of three; an error is
// positioned at the token at fault, inside the string where the string is at fault.
func (l *Language) parseNotation(s *SExpr) (*notation, *interderive.Error) {
	name, format := s.List[1], s.List[2]
	if name.Kind != SSym {
		return nil, interderive.Errorf(name.P, "expected a constructor's name, not %s: expected %s", token(name), notationUsage)
	}
	c := l.cons[name.Sym]
	if c == nil {
		var names []string
		for _, c := range l.Cons {
			names = append(names, c.Name)
		}
		return nil, interderive.Errorf(name.P, "%s is not a constructor (%s)", name.Sym, known("constructors", names))
	}
	if format.Kind != SStr {
		return nil, interderive.Errorf(format.P, "expected the notation of %s, a string of LaTeX math with #1 to #%d for its arguments, not %s", c.Name, len(c.Args), token(format))
	}
	f := format.Sym
	at := func(i int) Pos { return l.posInString(format.P, f, i) }
	n := &notation{con: c}
	depth := 0
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			n.parts = append(n.parts, notePart{text: text.String(), arg: -1})
			text.Reset()
		}
	}
	var toks []noteTok
	shown := make([]bool, len(c.Args))
	for i := 0; i < len(f); {
		ch := f[i]
		switch {
		case ch == '#':
			if i+1 >= len(f) || f[i+1] < '1' || f[i+1] > '9' {
				return nil, interderive.Errorf(at(i), "# in the notation of %s: an argument is #1 to #%d (a # is \\\\#)", c.Name, len(c.Args))
			}
			k := int(f[i+1] - '1')
			switch {
			case len(c.Args) == 0:
				return nil, interderive.Errorf(at(i), "#%d: %s has no arguments", k+1, c.Name)
			case k >= len(c.Args):
				return nil, interderive.Errorf(at(i), "#%d: %s has %s (#1 to #%d)", k+1, c.Name, plural(len(c.Args), "argument"), len(c.Args))
			}
			if i+2 < len(f) && f[i+2] >= '0' && f[i+2] <= '9' {
				return nil, interderive.Errorf(at(i), "%s: an argument is #1 to #9", f[i:i+3])
			}
			flush()
			shown[k] = true
			toks = append(toks, noteTok{kind: 'p', part: len(n.parts), depth: depth})
			n.parts = append(n.parts, notePart{arg: k})
			i += 2
			continue
		case ch == '\\':
			j := i + 1
			for j < len(f) && isLetter(f[j]) {
				j++
			}
			if j == i+1 {
				if j == len(f) {
					// It would escape what follows the notation: the formula's closing $.
					return nil, interderive.Errorf(at(i), "\\ ends the notation of %s: a command's name follows it", c.Name)
				}
				_, size := utf8.DecodeRuneInString(f[j:])
				j += size
			}
			cmd := f[i:j]
			kind := byte('f')
			if spacing[cmd] {
				kind = 's'
			}
			toks = append(toks, noteTok{kind: kind, depth: depth})
			text.WriteString(cmd)
			i = j
			continue
		case ch == '{':
			toks = append(toks, noteTok{kind: 'f', depth: depth})
			depth++
		case ch == '}':
			if depth == 0 {
				return nil, interderive.Errorf(at(i), "} closes no { in the notation of %s", c.Name)
			}
			depth--
		case ch == '$' || ch == '%':
			return nil, interderive.Errorf(at(i), "%c in the notation of %s: a notation is LaTeX math, without $ or %% (\\\\%c is the character)", ch, c.Name, ch)
		case ch == '~':
			toks = append(toks, noteTok{kind: 's', depth: depth})
		case ch == ' ' || ch == '\t':
		default:
			toks = append(toks, noteTok{kind: 'f', depth: depth})
		}
		text.WriteByte(ch)
		i++
	}
	flush()
	if depth > 0 {
		return nil, interderive.Errorf(at(len(f)), "the notation of %s leaves %d { open", c.Name, depth)
	}
	for k, ok := range shown {
		if !ok {
			return nil, interderive.Errorf(format.P, "the notation of %s does not show its argument #%d (%s)", c.Name, k+1, c.Args[k].Sort.Name)
		}
	}
	// Which placeholders are closed, and the notation's level.
	open, spaced := 0, false
	for i, t := range toks {
		if t.depth > 0 {
			if t.kind == 'p' {
				n.parts[t.part].closed = true
			}
			continue
		}
		switch t.kind {
		case 's':
			spaced = true
		case 'p':
			if fixedNeighbour(toks, i, -1) && fixedNeighbour(toks, i, 1) {
				n.parts[t.part].closed = true
			} else {
				open++
			}
		}
	}
	switch {
	case spaced || open > 1:
		n.level = levelCompound
	case open == 1:
		n.level = levelTight
	default:
		n.level = levelAtomic
	}
	return n, nil
}

// fixedNeighbour reports whether the nearest token of toks at the top level before
// (dir -1) or after (dir 1) toks[i], spacing skipped, is a fixed part (not a
// placeholder, not the end).
func fixedNeighbour(toks []noteTok, i, dir int) bool {
	for j := i + dir; j >= 0 && j < len(toks); j += dir {
		t := toks[j]
		if t.depth > 0 || t.kind == 's' {
			continue
		}
		return t.kind == 'f'
	}
	return false
}

// plural is n and a noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// posInString is the position of the byte i of the string read at p (its opening
// quote), whose contents are s: one column a character, two for an escaped \ or ".
func (l *Language) posInString(p Pos, s string, i int) Pos {
	// The source's line of p, from the opening quote on.
	src := l.src
	for line := int32(1); line < p.Line && len(src) > 0; line++ {
		j := strings.IndexByte(string(src), '\n')
		if j < 0 {
			return p
		}
		src = src[j+1:]
	}
	for col := int32(1); col < p.Col && len(src) > 0; col++ {
		_, size := utf8.DecodeRune(src)
		src = src[size:]
	}
	if len(src) == 0 || src[0] != '"' {
		return p
	}
	src = src[1:]
	col := p.Col + 1
	for k := 0; k < i && k < len(s); {
		_, size := utf8.DecodeRuneInString(s[k:])
		if len(src) > 0 && src[0] == '\\' {
			col++
			src = src[1:]
		}
		k += size
		src = src[min(size, len(src)):]
		col++
	}
	return Pos{Line: p.Line, Col: col}
}

// apply typesets the constructor of n applied to typeset arguments of the given
// levels: an argument at an open placeholder is parenthesized when compound.
func (n *notation) apply(args []string, levels []int) string {
	var b strings.Builder
	for _, pt := range n.parts {
		switch {
		case pt.arg < 0:
			b.WriteString(pt.text)
		case !pt.closed && levels[pt.arg] == levelCompound:
			b.WriteString("(" + args[pt.arg] + ")")
		default:
			b.WriteString(args[pt.arg])
		}
	}
	return b.String()
}
