package gradual

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// maxErrors is the number of errors after which Parse, ParseType and ParseCoercion
// stop collecting.
const maxErrors = 10

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF      tokKind = iota
	tIllegal          // a character the lexer rejected (already reported)
	tIdent            // x, fib, l1, x'
	tInt              // 42
	tPosLabel         // 3:14 (a positional blame label)

	// lexKeywords
	tTrue
	tFalse
	tIf
	tThen
	tElse
	tInc
	tDec
	tZero // zero?
	tLet
	tLetrec
	tIn
	tIntT
	tBoolT
	tDynT
	tId
	tFail
	tBlame

	// punctuation
	tLambda // \ or λ
	tDot    // .
	tColon  // :
	tArrow  // ->
	tLParen // (
	tRParen // )
	tEq     // =
	tLt     // <
	tLe     // <=
	tGt     // >
	tPlus   // +
	tMinus  // -
	tStar   // *
	tCaret  // ^
	tBang   // !
	tQuest  // ?
	tSemi   // ;
)

var lexKeywords = map[string]tokKind{
	"true":   tTrue,
	"false":  tFalse,
	"if":     tIf,
	"then":   tThen,
	"else":   tElse,
	"inc":    tInc,
	"dec":    tDec,
	"let":    tLet,
	"letrec": tLetrec,
	"in":     tIn,
	"Int":    tIntT,
	"Bool":   tBoolT,
	"Dyn":    tDynT,
	"id":     tId,
	"fail":   tFail,
	"blame":  tBlame,
}

var lexPunctNames = map[tokKind]string{
	tLambda: `\`, tDot: ".", tColon: ":", tArrow: "->", tLParen: "(", tRParen: ")",
	tEq: "=", tLt: "<", tLe: "<=", tGt: ">", tPlus: "+", tMinus: "-", tStar: "*",
	tCaret: "^", tBang: "!", tQuest: "?", tSemi: ";", tZero: "zero?",
}

// token is one lexeme with the position of its first rune.
type token struct {
	kind tokKind
	pos  Pos
	text string // the source text of identifiers, literals, labels and lexKeywords
	n    int64  // the value of an integer literal
}

// String describes the token for error messages.
func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIllegal:
		return "illegal character"
	case tIdent, tInt, tPosLabel:
		return t.text
	}
	if s, ok := lexPunctNames[t.kind]; ok {
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
	line, col int32 // a source is at most workbench.MaxSource() ≤ MaxInt32 bytes: no overflow
	errs      *interderive.ErrorList
	names     map[string]string // identifiers met so far: every occurrence of a name shares one string
}

// lex returns the tokens of src, ending with a tEOF token. Errors are appended to errs.
func lex(src []byte, errs *interderive.ErrorList) []token {
	lx := &lexer{src: src, line: 1, col: 1, errs: errs}
	// A leading byte-order mark is not part of the program.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.off = 3
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
		lx.errs.Add(pos, fmt.Sprintf(format, args...))
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

// intern returns the string the lexer made for the first occurrence of name: all the
// occurrences of a variable share their bytes, so that environments find a binding by
// comparing pointers first (castval.Env.Lookup).
func (lx *lexer) intern(name string) string {
	if s, ok := lx.names[name]; ok {
		return s
	}
	if lx.names == nil {
		lx.names = map[string]string{}
	}
	lx.names[name] = name
	return name
}

func lexDigit(c byte) bool  { return '0' <= c && c <= '9' }
func lexLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func lexIdentByte(c byte) bool {
	return lexLetter(c) || lexDigit(c) || c == '\''
}

// next scans one token.
func (lx *lexer) next() token {
	for {
		// Skip white space and comments.
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
		case lexLetter(c):
			for lx.off < len(lx.src) && lexIdentByte(lx.src[lx.off]) {
				lx.advance(rune(lx.src[lx.off]), 1)
			}
			text := string(lx.src[start:lx.off])
			if text == "zero" && lx.byteAt(lx.off) == '?' {
				lx.advance('?', 1)
				return token{kind: tZero, pos: pos, text: "zero?"}
			}
			if k, ok := lexKeywords[text]; ok {
				return token{kind: k, pos: pos, text: text}
			}
			return token{kind: tIdent, pos: pos, text: lx.intern(text)}
		case lexDigit(c):
			for lx.off < len(lx.src) && lexDigit(lx.src[lx.off]) {
				lx.advance(rune(lx.src[lx.off]), 1)
			}
			// LINE:COL, written without spaces, is a positional label. No valid program
			// has a literal immediately followed by ':' and a digit otherwise.
			if lx.byteAt(lx.off) == ':' && lexDigit(lx.byteAt(lx.off+1)) {
				lx.advance(':', 1)
				for lx.off < len(lx.src) && lexDigit(lx.src[lx.off]) {
					lx.advance(rune(lx.src[lx.off]), 1)
				}
				return token{kind: tPosLabel, pos: pos, text: string(lx.src[start:lx.off])}
			}
			text := string(lx.src[start:lx.off])
			n, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				lx.errorf(pos, "integer literal out of range")
				n = 0
			}
			return token{kind: tInt, pos: pos, text: text, n: n}
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
		case '=':
			kind = tEq
		case '>':
			kind = tGt
		case '+':
			kind = tPlus
		case '*':
			kind = tStar
		case '^':
			kind = tCaret
		case '!':
			kind = tBang
		case '?':
			kind = tQuest
		case ';':
			kind = tSemi
		case '-':
			kind = tMinus
			if lx.byteAt(lx.off) == '>' {
				lx.advance('>', 1)
				kind = tArrow
			}
		case '<':
			kind = tLt
			if lx.byteAt(lx.off) == '=' {
				lx.advance('=', 1)
				kind = tLe
			}
		default:
			if lx.checkRune(pos, r, w) {
				lx.errorf(pos, "unexpected character %s", lexDescribeRune(r))
			}
		}
		return token{kind: kind, pos: pos, text: string(lx.src[start:lx.off])}
	}
}

// lexDescribeRune names a rune for an error message: 'x' for printable runes, U+XXXX
// otherwise.
func lexDescribeRune(r rune) string {
	if strconv.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("U+%04X", r)
}
