package sem

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// Pos is a source position.
type Pos = interderive.Pos

// MaxNesting is the deepest nesting of parentheses the reader accepts, in a rule file
// and in a program. The reader itself uses no recursion; the functions over terms
// that recurse (matching, substitution, reading a program into a term) recurse at
// most this deep over what was read.
const MaxNesting = 10_000

// SKind says what an s-expression is.
type SKind uint8

// The kinds of s-expression.
const (
	SSym  SKind = iota // a symbol: lam, t_1, !=
	SInt               // an integer: 0, -12
	SStr               // a string: "application of a non-function"
	SList              // a parenthesized list
)

// SExpr is an s-expression with its position (that of its first character).
type SExpr struct {
	P    Pos
	Kind SKind
	Sym  string   // SSym: the symbol; SStr: the string's contents
	N    int64    // SInt
	List []*SExpr // SList
}

// String prints the s-expression back.
func (s *SExpr) String() string {
	var b strings.Builder
	type item struct {
		s   *SExpr
		lit string
	}
	stack := []item{{s: s}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.s == nil {
			b.WriteString(it.lit)
			continue
		}
		switch it.s.Kind {
		case SSym:
			b.WriteString(it.s.Sym)
		case SInt:
			b.WriteString(strconv.FormatInt(it.s.N, 10))
		case SStr:
			b.WriteString(strconv.Quote(it.s.Sym))
		case SList:
			b.WriteByte('(')
			stack = append(stack, item{lit: ")"})
			for i := len(it.s.List) - 1; i >= 0; i-- {
				stack = append(stack, item{s: it.s.List[i]})
				if i > 0 {
					stack = append(stack, item{lit: " "})
				}
			}
		}
	}
	return b.String()
}

// ReadSExprs reads every s-expression of src. Comments run from ; to the end of the
// line. Symbols are runs of characters other than white space, parentheses, ; and ";
// an integer is an optional - and decimal digits, and must fit in 64 bits. Strings are
// in double quotes, with \" and \\ as escapes. It never panics; on failure the error
// is an interderive.ErrorList in source order.
func ReadSExprs(src []byte) ([]*SExpr, error) {
	r := &reader{src: src, line: 1, col: 1}
	out := r.read()
	if len(r.errs) > 0 {
		r.errs.Sort()
		return nil, r.errs
	}
	return out, nil
}

// reader is the s-expression reader: a loop over the characters, with an explicit
// stack of the lists open.
type reader struct {
	src       []byte
	i         int
	line, col int32
	errs      interderive.ErrorList
}

func (r *reader) pos() Pos { return Pos{Line: r.line, Col: r.col} }

// next consumes one character (a rune, or an invalid byte).
func (r *reader) next() rune {
	c, size := utf8.DecodeRune(r.src[r.i:])
	r.i += size
	if c == '\n' {
		r.line, r.col = r.line+1, 1
	} else {
		r.col++
	}
	return c
}

func (r *reader) errorf(p Pos, format string, args ...any) {
	r.errs = append(r.errs, interderive.Errorf(p, format, args...))
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '(', ')', ';', '"':
		return true
	}
	return false
}

func (r *reader) read() []*SExpr {
	var top []*SExpr
	var open []*SExpr // the lists open, innermost last
	add := func(s *SExpr) {
		if len(open) == 0 {
			top = append(top, s)
		} else {
			l := open[len(open)-1]
			l.List = append(l.List, s)
		}
	}
	for r.i < len(r.src) {
		c := r.src[r.i]
		p := r.pos()
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			r.next()
		case c == ';':
			for r.i < len(r.src) && r.src[r.i] != '\n' {
				r.next()
			}
		case c == '(':
			r.next()
			if len(open) >= MaxNesting {
				r.errorf(p, "parentheses nest deeper than the limit of %d", MaxNesting)
				return nil
			}
			l := &SExpr{P: p, Kind: SList}
			add(l)
			open = append(open, l)
		case c == ')':
			r.next()
			if len(open) == 0 {
				r.errorf(p, "unexpected )")
				continue
			}
			open = open[:len(open)-1]
		case c == '"':
			r.next()
			var b strings.Builder
			closed := false
			for r.i < len(r.src) && !closed {
				switch ch := r.next(); ch {
				case '"':
					closed = true
				case '\\':
					if r.i < len(r.src) && (r.src[r.i] == '"' || r.src[r.i] == '\\') {
						b.WriteRune(r.next())
					} else {
						r.errorf(p, "a string may escape only \" and \\")
					}
				case '\n':
					r.errorf(p, "a string ends at the end of its line")
					closed = true
				default:
					b.WriteRune(ch)
				}
			}
			if !closed {
				r.errorf(p, "unterminated string")
			}
			add(&SExpr{P: p, Kind: SStr, Sym: b.String()})
		default:
			start := r.i
			for r.i < len(r.src) && !isDelim(r.src[r.i]) {
				r.next()
			}
			word := string(r.src[start:r.i])
			if !utf8.ValidString(word) {
				r.errorf(p, "a symbol must be UTF-8")
				continue
			}
			if isNumber(word) {
				n, err := strconv.ParseInt(word, 10, 64)
				if err != nil {
					r.errorf(p, "integer %s does not fit in 64 bits", word)
					continue
				}
				add(&SExpr{P: p, Kind: SInt, N: n})
				continue
			}
			add(&SExpr{P: p, Kind: SSym, Sym: word})
		}
	}
	if len(open) > 0 {
		r.errorf(open[len(open)-1].P, "unclosed (")
	}
	return top
}

// isNumber reports whether a word reads as an integer: an optional - and digits.
func isNumber(w string) bool {
	w = strings.TrimPrefix(w, "-")
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
