package abductive

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// maxErrors is the number of errors after which Parse stops collecting.
const maxErrors = 10

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIllegal         // a character the lexer rejected (already reported)
	tIdent           // x, model, x'
	tNum             // 42, 0.5, 1e-3 (its text; the parser reads the value)

	tLet
	tIn
	tAbduct
	tFieldT // F
	tVecT   // V

	tLambda  // \ or λ
	tDot     // .
	tColon   // :
	tComma   // ,
	tAt      // @
	tArrow   // ->
	tLParen  // (
	tRParen  // )
	tLBrace  // {
	tRBrace  // }
	tEq      // =
	tPlus    // +
	tMinus   // -
	tStar    // *
	tSlash   // /
	tIterAdd // +L
	tIterMul // *L
)

var keywords = map[string]tokKind{
	"let": tLet, "in": tIn, "abduct": tAbduct, "F": tFieldT, "V": tVecT,
}

var punctNames = map[tokKind]string{
	tLambda: `\`, tDot: ".", tColon: ":", tComma: ",", tAt: "@", tArrow: "->",
	tLParen: "(", tRParen: ")", tLBrace: "{", tRBrace: "}", tEq: "=", tPlus: "+",
	tMinus: "-", tStar: "*", tSlash: "/", tIterAdd: "+L", tIterMul: "*L",
}

// token is one lexeme with the position of its first rune.
type token struct {
	kind tokKind
	pos  Pos
	text string // the source text of identifiers, literals and keywords
}

// String describes the token for error messages.
func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIllegal:
		return "illegal character"
	}
	if s, ok := punctNames[t.kind]; ok {
		return s
	}
	return t.text
}

// quoted is t.String() in quotes, except for the end of input.
func (t token) quoted() string {
	if t.kind == tEOF {
		return "end of input"
	}
	return strconv.Quote(t.String())
}

// lexer turns source bytes into tokens, reporting malformed input as positioned errors.
type lexer struct {
	src       []byte
	off       int
	line, col int32
	errs      *interderive.ErrorList
	names     map[string]string // every occurrence of a name shares one string
}

// lex returns the tokens of src, ending with a tEOF token. Errors are appended to errs.
func lex(src []byte, errs *interderive.ErrorList) []token {
	lx := &lexer{src: src, line: 1, col: 1, errs: errs, names: map[string]string{}}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.off = 3 // a byte-order mark is not part of the program
	}
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks
		}
	}
}

func (lx *lexer) errorf(pos Pos, format string, args ...any) {
	if len(*lx.errs) < maxErrors {
		*lx.errs = append(*lx.errs, interderive.Errorf(pos, format, args...))
	}
}

// peek returns the rune at the current offset and its width (0 at the end).
func (lx *lexer) peek() (rune, int) {
	if lx.off >= len(lx.src) {
		return -1, 0
	}
	if c := lx.src[lx.off]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(lx.src[lx.off:])
}

// byteAt returns the byte at offset off, or 0 past the end.
func (lx *lexer) byteAt(off int) byte {
	if off < len(lx.src) {
		return lx.src[off]
	}
	return 0
}

// advance consumes one rune of width w.
func (lx *lexer) advance(r rune, w int) {
	lx.off += w
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
}

// checkRune reports NUL bytes and invalid UTF-8 (anywhere, comments included).
func (lx *lexer) checkRune(pos Pos, r rune, w int) bool {
	switch {
	case r == 0:
		lx.errorf(pos, "illegal NUL character")
		return false
	case r == utf8.RuneError && w == 1:
		lx.errorf(pos, "invalid UTF-8 encoding")
		return false
	}
	return true
}

// intern returns the string made for the first occurrence of name.
func (lx *lexer) intern(name string) string {
	if s, ok := lx.names[name]; ok {
		return s
	}
	lx.names[name] = name
	return name
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isIdentByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '\''
}

// next scans one token.
func (lx *lexer) next() token {
	for {
		r, w := lx.peek()
		switch {
		case w == 0:
			return token{kind: tEOF, pos: Pos{Line: lx.line, Col: lx.col}}
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			lx.advance(r, w)
			continue
		case r == '-' && lx.byteAt(lx.off+1) == '-':
			for {
				r, w := lx.peek()
				if w == 0 || r == '\n' {
					break
				}
				lx.checkRune(Pos{Line: lx.line, Col: lx.col}, r, w)
				lx.advance(r, w)
			}
			continue
		}
		pos := Pos{Line: lx.line, Col: lx.col}
		start := lx.off
		c := lx.src[lx.off]
		switch {
		case isLetter(c):
			for lx.off < len(lx.src) && isIdentByte(lx.src[lx.off]) {
				lx.advance(rune(lx.src[lx.off]), 1)
			}
			text := string(lx.src[start:lx.off])
			if k, ok := keywords[text]; ok {
				return token{kind: k, pos: pos, text: text}
			}
			return token{kind: tIdent, pos: pos, text: lx.intern(text)}
		case isDigit(c):
			lx.number()
			return token{kind: tNum, pos: pos, text: string(lx.src[start:lx.off])}
		}
		lx.advance(r, w)
		kind := tIllegal
		switch r {
		case '\\', 'λ':
			kind = tLambda
		case '.':
			kind = tDot
		case ':':
			kind = tColon
		case '(':
			kind = tLParen
		case ')':
			kind = tRParen
		case ',':
			kind = tComma
		case '@':
			kind = tAt
		case '{':
			kind = tLBrace
		case '}':
			kind = tRBrace
		case '=':
			kind = tEq
		case '/':
			kind = tSlash
		case '+':
			kind = tPlus
			if lx.iterator() {
				kind = tIterAdd
			}
		case '*':
			kind = tStar
			if lx.iterator() {
				kind = tIterMul
			}
		case '-':
			kind = tMinus
			if lx.byteAt(lx.off) == '>' {
				lx.advance('>', 1)
				kind = tArrow
			}
		default:
			if lx.checkRune(pos, r, w) {
				lx.errorf(pos, "unexpected character %s", describeRune(r))
			}
		}
		return token{kind: kind, pos: pos, text: string(lx.src[start:lx.off])}
	}
}

// number scans a numeral: digits, a fraction (a dot and digits) and an exponent (e,
// a sign and digits), the last two optional. A dot not followed by a digit is not
// part of it (2.p is 2 . p).
func (lx *lexer) number() {
	digits := func() {
		for lx.off < len(lx.src) && isDigit(lx.src[lx.off]) {
			lx.advance(rune(lx.src[lx.off]), 1)
		}
	}
	digits()
	if lx.byteAt(lx.off) == '.' && isDigit(lx.byteAt(lx.off+1)) {
		lx.advance('.', 1)
		digits()
	}
	if c := lx.byteAt(lx.off); c == 'e' || c == 'E' {
		n := 1
		if s := lx.byteAt(lx.off + 1); s == '+' || s == '-' {
			n = 2
		}
		if isDigit(lx.byteAt(lx.off + n)) {
			for range n {
				lx.advance(rune(lx.byteAt(lx.off)), 1)
			}
			digits()
		}
	}
}

// iterator consumes the L of +L or *L (after the + or *), if an L follows that is not
// the start of a name (g + Lx is a sum).
func (lx *lexer) iterator() bool {
	if lx.byteAt(lx.off) != 'L' || isIdentByte(lx.byteAt(lx.off+1)) {
		return false
	}
	lx.advance('L', 1)
	return true
}

// describeRune names a rune for an error message: 'x' for printable runes, U+XXXX
// otherwise.
func describeRune(r rune) string {
	if strconv.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("U+%04X", r)
}
