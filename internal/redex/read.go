// Package redex reads PLT Redex models as Racket writes them, for interderive import:
// the reader of Racket's surface syntax (Read) that the recognition of Redex's forms
// (define-language, reduction-relation, define-metafunction, define-judgment-form,
// test-->>, ...) works on. It reads what Redex models are written in — lists in (),
// [] and {}, symbols (λ, e_1, -->, ...), numbers as written, strings, booleans,
// keywords (#:mode), characters, the quote forms ' ` , ,@ #' and comments (; #| |#
// #;) — and refuses the rest of Racket's reader syntax with a positioned error.
package redex

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/interderive/interderive"
)

// Pos is a position in a model's source: line and column (runes), from 1.
type Pos = interderive.Pos

// MaxNesting is the deepest nesting of lists and quote forms (and #; comments) the
// reader accepts. The reader uses no
// recursion: it is a bound on what later passes, which recurse, are given.
const MaxNesting = 10_000

// Kind says what a datum is.
type Kind uint8

// The kinds of datum.
const (
	List    Kind = iota // a list: (a b), [a b], {a b}, a vector #(a b), or a quote form 'a
	Symbol              // a symbol: e, e_1, -->, λ, |two words|
	Number              // a number, as written: 1, -2, 1/2, 3.5, 1e3, +inf.0
	String              // a string: its contents, escapes read
	Bool                // #t, #f, #true, #false
	Keyword             // #:mode, its name without #:
	Char                // #\a, #\space: the character
	Regexp              // #rx"a*" or #px"a*": the pattern (Text) and its prefix (Prefix)
)

// Datum is what the reader reads, with the position of its first character.
type Datum struct {
	P    Pos
	Kind Kind
	// Text is a Symbol's name, a Number as written, a String's contents, a Keyword's
	// name, a Char's character.
	Text string
	Bool bool     // Bool
	List []*Datum // List
	// Open is a list's opening bracket: '(', '[' or '{'.
	Open byte
	// Dot marks an improper list, (a b . c): its last element is its tail.
	Dot bool
	// Quote is the prefix a quote form was written with (', `, ,, ,@, #', #`, #,,
	// #,@): the form is the list (quote d), (quasiquote d), (unquote d),
	// (unquote-splicing d), (syntax d), (quasisyntax d), (unsyntax d) or
	// (unsyntax-splicing d) of the datum d it prefixes.
	Quote string
	// Prefix is a Regexp's (#rx, #px), and a list's that is a vector (#) or a hash
	// table (#hash, #hasheq, #hasheqv), written before its bracket.
	Prefix string
}

// Module is a Racket source file read: its #lang line's language and its forms.
type Module struct {
	Lang  string
	Forms []*Datum
}

// quoteNames are the forms the quote prefixes stand for.
var quoteNames = map[string]string{"'": "quote", "`": "quasiquote", ",": "unquote", ",@": "unquote-splicing",
	"#'": "syntax", "#`": "quasisyntax", "#,": "unsyntax", "#,@": "unsyntax-splicing"}

// closers are the brackets that close each opening one.
var closers = map[byte]byte{'(': ')', '[': ']', '{': '}'}

// Read reads a Racket source file: an optional #lang line, then data. The first
// error ends the reading (an *interderive.Error, positioned). It uses no recursion.
func Read(src []byte) (*Module, error) {
	r := &reader{src: string(src), line: 1, col: 1}
	m := &Module{}
	if err := r.lang(m); err != nil {
		return nil, err
	}
	var stack []*pending // what waits for data, innermost last: at most MaxNesting
	// done hands a datum read to what waits for it: the quote forms around it, then
	// the list it is in (or the module), unless a #; discards it.
	done := func(d *Datum) {
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			switch top.what {
			case waitQuote:
				stack = stack[:len(stack)-1]
				top.d.List = append(top.d.List, d)
				d = top.d
				continue
			case waitSkip:
				stack = stack[:len(stack)-1]
				return
			}
			top.d.List = append(top.d.List, d)
			return
		}
		m.Forms = append(m.Forms, d)
	}
	// tail checks, before a datum goes into the list on top, that a dotted list takes
	// no datum after its tail.
	tail := func(p Pos) error {
		if len(stack) > 0 {
			if top := stack[len(stack)-1]; top.what == waitList && top.d.Dot && len(top.d.List) == top.dot+1 {
				return interderive.Errorf(p, "a second datum after the dot of the list at %s: expected %q", top.d.P, closers[top.d.Open])
			}
		}
		return nil
	}
	wait := func(what waiting, d *Datum) error {
		if len(stack) >= MaxNesting {
			return interderive.Errorf(d.P, "lists and quote forms nested deeper than %d", MaxNesting)
		}
		stack = append(stack, &pending{what: what, d: d})
		return nil
	}
	for {
		if err := r.space(); err != nil {
			return nil, err
		}
		p := r.pos()
		if r.eof() {
			if len(stack) > 0 {
				return nil, stack[len(stack)-1].unfinished("the end of the file")
			}
			return m, nil
		}
		var d *Datum
		var err error
		switch c := r.peek(); c {
		case '(', '[', '{':
			r.next()
			err = wait(waitList, &Datum{P: p, Kind: List, Open: byte(c)})
		case ')', ']', '}':
			r.next()
			if len(stack) == 0 {
				return nil, interderive.Errorf(p, "unexpected %q: no list is open", c)
			}
			top := stack[len(stack)-1]
			if top.what != waitList {
				return nil, top.unfinished(fmt.Sprintf("%q", c))
			}
			if want := closers[top.d.Open]; byte(c) != want {
				return nil, interderive.Errorf(p, "%q closes %s at %s: expected %q", c, openText(top.d), top.d.P, want)
			}
			if top.d.Dot && len(top.d.List) != top.dot+1 {
				return nil, interderive.Errorf(p, "%q after the dot of the list at %s: expected its tail, one datum", c, top.d.P)
			}
			stack = stack[:len(stack)-1]
			d = top.d
		case '\'', '`', ',':
			r.next()
			q := string(c)
			if c == ',' && r.peek() == '@' {
				r.next()
				q = ",@"
			}
			err = wait(waitQuote, quoteForm(p, q))
		case '"':
			d, err = r.str(p)
		case '#':
			var h *Datum
			switch h, err = r.hash(p); {
			case err != nil:
			case h == nil: // #;
				err = wait(waitSkip, &Datum{P: p})
			case h.Kind == List && h.Quote == "": // #( a vector, #hash( a table
				err = wait(waitList, h)
			case h.Kind == List: // #', a syntax quote
				err = wait(waitQuote, h)
			default:
				d = h
			}
		default:
			d, err = r.atom(p)
			if err == nil && d.Kind == Symbol && d.Text == "." && d.Dot {
				err = dot(stack, p)
				d = nil
			}
		}
		if err == nil && d != nil {
			err = tail(p)
		}
		if err != nil {
			return nil, err
		}
		if d != nil {
			done(d)
		}
	}
}

// dot marks the list on top of the stack improper, at the dot read at p: it must
// have an element before the dot, and take one, its tail, after.
func dot(stack []*pending, p Pos) error {
	if len(stack) == 0 || stack[len(stack)-1].what != waitList {
		return interderive.Errorf(p, "a dot outside a list: Racket's pair notation is (a . b)")
	}
	top := stack[len(stack)-1]
	switch {
	case top.d.Dot && len(top.d.List) == top.dot+1 && !top.infix:
		// (a . op . b), Racket's infix notation: the datum between the dots goes first.
		op := top.d.List[top.dot]
		copy(top.d.List[1:], top.d.List[:top.dot])
		top.d.List[0] = op
		top.d.Dot, top.infix = false, true
		return nil
	case top.d.Dot || top.infix:
		return interderive.Errorf(p, "a dot where the list at %s takes none: after its tail, or a third", top.d.P)
	case len(top.d.List) == 0:
		return interderive.Errorf(p, "a dot before the first element of the list at %s", top.d.P)
	}
	top.d.Dot, top.dot = true, len(top.d.List)
	return nil
}

// pending is what waits for data while the reader reads: a list, to its closing
// bracket; a quote form, for its datum; a #; comment, for the datum it discards.
type pending struct {
	what waiting
	d    *Datum
	dot  int // a dotted list's: the number of elements before the dot
	// infix marks a list whose (a . op . b) infix dots were read.
	infix bool
}

// waiting says what a pending form waits for.
type waiting uint8

const (
	waitList waiting = iota
	waitQuote
	waitSkip
)

// unfinished is the error of the pending form w when what comes next (the end of
// the file, a closing bracket) cannot finish it.
func (w *pending) unfinished(next string) error {
	switch w.what {
	case waitQuote:
		return interderive.Errorf(w.d.P, "%s is followed by %s: expected a datum after it", w.d.Quote, next)
	case waitSkip:
		return interderive.Errorf(w.d.P, "#; is followed by %s: expected a datum to comment out", next)
	}
	return interderive.Errorf(w.d.P, "%s is never closed: expected %q before %s", openText(w.d), closers[w.d.Open], next)
}

// quoteForm is the quote form of prefix q at p, its datum to come.
func quoteForm(p Pos, q string) *Datum {
	return &Datum{P: p, Kind: List, Open: '(', Quote: q, List: []*Datum{{P: p, Kind: Symbol, Text: quoteNames[q]}}}
}

// openText names a list's opening bracket for a message.
func openText(d *Datum) string {
	return fmt.Sprintf("%q", d.Prefix+string(d.Open))
}

// reader is the state of a reading: the source and the position of the next rune.
type reader struct {
	src       string
	off       int
	line, col int32
}

func (r *reader) eof() bool { return r.off >= len(r.src) }

func (r *reader) pos() Pos { return Pos{Line: r.line, Col: r.col} }

// peek is the next rune (utf8.RuneError at the end or on a bad byte).
func (r *reader) peek() rune {
	c, _ := utf8.DecodeRuneInString(r.src[r.off:])
	return c
}

// next consumes the next rune.
func (r *reader) next() rune {
	c, n := utf8.DecodeRuneInString(r.src[r.off:])
	r.off += n
	if c == '\n' {
		r.line, r.col = r.line+1, 1
	} else {
		r.col++
	}
	return c
}

// lang reads the #lang line, if the file starts with one (after blanks and comments).
func (r *reader) lang(m *Module) error {
	if err := r.space(); err != nil {
		return err
	}
	if !strings.HasPrefix(r.src[r.off:], "#lang") {
		return nil
	}
	for range len("#lang") {
		r.next()
	}
	start := r.off
	for !r.eof() && r.peek() != '\n' {
		r.next()
	}
	m.Lang = strings.TrimSpace(r.src[start:r.off])
	return nil
}

// space skips blanks and comments: ; to the end of the line, and #| |#, nested.
func (r *reader) space() error {
	for !r.eof() {
		c := r.peek()
		switch {
		case unicode.IsSpace(c):
			r.next()
		case c == ';':
			for !r.eof() && r.peek() != '\n' {
				r.next()
			}
		case strings.HasPrefix(r.src[r.off:], "#|"):
			p := r.pos()
			r.next()
			r.next()
			for depth := 1; depth > 0; {
				switch {
				case r.eof():
					return interderive.Errorf(p, "#| is never closed: expected |# before the end of the file")
				case strings.HasPrefix(r.src[r.off:], "|#"):
					r.next()
					r.next()
					depth--
				case strings.HasPrefix(r.src[r.off:], "#|"):
					r.next()
					r.next()
					depth++
				default:
					r.next()
				}
			}
		default:
			return nil
		}
	}
	return nil
}

// delimiter reports whether c ends a symbol or a number.
func delimiter(c rune) bool {
	return unicode.IsSpace(c) || strings.ContainsRune("()[]{}\",'`;", c)
}

// atom reads a symbol or a number at p. A symbol may hold |quoted| parts and \
// escapes; a lone dot is Racket's pair notation, which Redex models do not use.
func (r *reader) atom(p Pos) (*Datum, error) {
	var b strings.Builder
	quoted := false
	for !r.eof() {
		c := r.peek()
		switch {
		case c == '|':
			r.next()
			quoted = true
			for {
				if r.eof() {
					return nil, interderive.Errorf(p, "a symbol's | is never closed: expected | before the end of the file")
				}
				if c := r.next(); c == '|' {
					break
				} else {
					b.WriteRune(c)
				}
			}
			continue
		case c == '\\':
			r.next()
			if r.eof() {
				return nil, interderive.Errorf(p, "a symbol ends with \\: expected the character it escapes")
			}
			quoted = true
			b.WriteRune(r.next())
			continue
		case delimiter(c):
		case c == utf8.RuneError && r.badByte():
			return nil, interderive.Errorf(r.pos(), "a byte that is not UTF-8")
		default:
			b.WriteRune(r.next())
			continue
		}
		break
	}
	text := b.String()
	switch {
	case !quoted && text == ".":
		return &Datum{P: p, Kind: Symbol, Text: ".", Dot: true}, nil // a list's dot
	case !quoted && isNumber(text):
		return &Datum{P: p, Kind: Number, Text: text}, nil
	case text == "" && !quoted:
		return nil, interderive.Errorf(p, "unexpected %q", r.peek())
	}
	return &Datum{P: p, Kind: Symbol, Text: text}, nil
}

// badByte reports whether the next byte is not the start of a valid rune.
func (r *reader) badByte() bool {
	_, n := utf8.DecodeRuneInString(r.src[r.off:])
	return n <= 1 && r.src[r.off] >= utf8.RuneSelf
}

// isNumber reports whether a token reads as a number: an integer, a decimal, an
// exponent, a fraction of integers, or one of Racket's special reals.
func isNumber(s string) bool {
	switch s {
	case "+inf.0", "-inf.0", "+nan.0", "-nan.0", "+inf.f", "-inf.f", "+nan.f", "-nan.f":
		return true
	}
	if num, den, ok := strings.Cut(s, "/"); ok {
		return isInteger(num) && isDigits(den)
	}
	if isInteger(s) {
		return true
	}
	if s == "" || strings.ContainsAny(s, "_xXpP") { // no digit separators, no hex floats
		return false
	}
	if c := s[len(s)-1]; c < '0' || c > '9' {
		if c != '.' {
			return false
		}
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || strings.Contains(err.Error(), "range")
}

// isInteger reports whether s is an optionally signed run of decimal digits.
func isInteger(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return isDigits(s)
}

// isDigits reports whether s is a non-empty run of decimal digits.
func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// str reads a string at p, its escapes read.
func (r *reader) str(p Pos) (*Datum, error) {
	r.next()
	var b strings.Builder
	for {
		if r.eof() {
			return nil, interderive.Errorf(p, "a string is never closed: expected \" before the end of the file")
		}
		c := r.next()
		switch c {
		case '"':
			return &Datum{P: p, Kind: String, Text: b.String()}, nil
		case '\\':
			if r.eof() {
				continue
			}
			e := r.pos()
			switch c := r.next(); c {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'e':
				b.WriteByte(27)
			case '\\', '"', '\'':
				b.WriteRune(c)
			case '\n': // a line continued
			case 'x', 'u', 'U':
				n, err := r.hexEscape(e, c)
				if err != nil {
					return nil, err
				}
				b.WriteRune(n)
			default:
				return nil, interderive.Errorf(e, "unknown escape \\%c in a string", c)
			}
		default:
			b.WriteRune(c)
		}
	}
}

// hexEscape reads the digits of a \x, \u or \U escape at e.
func (r *reader) hexEscape(e Pos, kind rune) (rune, error) {
	most := map[rune]int{'x': 2, 'u': 4, 'U': 8}[kind]
	var digits strings.Builder
	for digits.Len() < most && !r.eof() && strings.ContainsRune("0123456789abcdefABCDEF", r.peek()) {
		digits.WriteRune(r.next())
	}
	n, err := strconv.ParseUint(digits.String(), 16, 32)
	if err != nil || n > unicode.MaxRune {
		return 0, interderive.Errorf(e, "\\%c escape without hexadecimal digits of a character", kind)
	}
	return rune(n), nil
}

// hash reads what starts with # at p: a boolean, a keyword, a character, the opening
// of a vector, a syntax quote, or a datum comment (nil).
func (r *reader) hash(p Pos) (*Datum, error) {
	rest := r.src[r.off:]
	for _, b := range []struct {
		text string
		v    bool
	}{{"#true", true}, {"#false", false}, {"#t", true}, {"#f", false}} {
		if strings.HasPrefix(rest, b.text) && (len(rest) == len(b.text) || delimiter(rune(rest[len(b.text)]))) {
			for range len(b.text) {
				r.next()
			}
			return &Datum{P: p, Kind: Bool, Bool: b.v, Text: b.text}, nil
		}
	}
	switch {
	case strings.HasPrefix(rest, "#%"): // an identifier: #%top, #%app
		return r.atom(p)
	case strings.HasPrefix(rest, "#hash"):
		i := strings.IndexAny(rest, "([{")
		if i < 0 || !slices.Contains([]string{"#hash", "#hasheq", "#hasheqv"}, rest[:i]) {
			break
		}
		for range i + 1 {
			r.next()
		}
		return &Datum{P: p, Kind: List, Open: rest[i], Prefix: rest[:i]}, nil
	case strings.HasPrefix(rest, "#rx\"") || strings.HasPrefix(rest, "#px\""):
		for range 3 {
			r.next()
		}
		d, err := r.str(r.pos())
		if err != nil {
			return nil, err
		}
		return &Datum{P: p, Kind: Regexp, Text: d.Text, Prefix: rest[:3]}, nil
	}
	r.next() // #
	switch c := r.peek(); c {
	case '`', ',':
		r.next()
		q := "#" + string(c)
		if c == ',' && r.peek() == '@' {
			r.next()
			q = "#,@"
		}
		return quoteForm(p, q), nil
	case ';':
		r.next()
		return nil, nil
	case '(', '[', '{':
		r.next()
		return &Datum{P: p, Kind: List, Open: byte(c), Prefix: "#"}, nil
	case '\'':
		r.next()
		return quoteForm(p, "#'"), nil
	case ':':
		r.next()
		d, err := r.atom(r.pos())
		if err != nil {
			return nil, err
		}
		return &Datum{P: p, Kind: Keyword, Text: d.Text}, nil
	case '\\':
		r.next()
		return r.char(p)
	}
	word := rest
	if i := strings.IndexFunc(rest[1:], delimiter); i >= 0 {
		word = rest[:i+1]
	}
	return nil, interderive.Errorf(p, "%s: Racket reader syntax that Redex models do not use and this reader does not read", word)
}

// charNames are the named characters.
var charNames = map[string]rune{"space": ' ', "newline": '\n', "linefeed": '\n', "tab": '\t', "return": '\r', "nul": 0, "null": 0, "backspace": '\b', "rubout": 127, "delete": 127, "vtab": '\v', "page": '\f', "alarm": '\a', "escape": 27}

// char reads a character after #\ at p: one rune, or a name.
func (r *reader) char(p Pos) (*Datum, error) {
	if r.eof() {
		return nil, interderive.Errorf(p, "#\\ ends the file: expected a character")
	}
	first := r.next()
	var b strings.Builder
	b.WriteRune(first)
	for unicode.IsLetter(first) && !r.eof() && unicode.IsLetter(r.peek()) {
		b.WriteRune(r.next())
	}
	name := b.String()
	if utf8.RuneCountInString(name) == 1 {
		return &Datum{P: p, Kind: Char, Text: name}, nil
	}
	if c, ok := charNames[name]; ok {
		return &Datum{P: p, Kind: Char, Text: string(c)}, nil
	}
	return nil, interderive.Errorf(p, "#\\%s is not a character's name", name)
}

// String prints the datum back, as the reader reads it (lists in their brackets,
// quote forms with their prefixes, strings quoted).
func (d *Datum) String() string {
	var b strings.Builder
	type item struct {
		d   *Datum
		lit string
	}
	stack := []item{{d: d}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.d == nil {
			b.WriteString(it.lit)
			continue
		}
		switch x := it.d; x.Kind {
		case Symbol:
			b.WriteString(symbolText(x.Text))
		case Number:
			b.WriteString(x.Text)
		case String:
			b.WriteString(strconv.Quote(x.Text))
		case Bool:
			b.WriteString(map[bool]string{true: "#t", false: "#f"}[x.Bool])
		case Keyword:
			b.WriteString("#:" + symbolText(x.Text))
		case Char:
			b.WriteString(charText(x.Text))
		case Regexp:
			b.WriteString(x.Prefix + strconv.Quote(x.Text))
		case List:
			if x.Quote != "" && len(x.List) == 2 {
				b.WriteString(x.Quote)
				if arg := x.List[1]; strings.HasSuffix(x.Quote, ",") && arg.Kind == Symbol && strings.HasPrefix(symbolText(arg.Text), "@") {
					b.WriteString(" ") // , @ is not ,@
				}
				stack = append(stack, item{d: x.List[1]})
				continue
			}
			open, close := x.Prefix+string(x.Open), string(closers[x.Open])
			if x.Open == 0 {
				open, close = "(", ")"
			}
			b.WriteString(open)
			stack = append(stack, item{lit: close})
			for i := len(x.List) - 1; i >= 0; i-- {
				stack = append(stack, item{d: x.List[i]})
				switch {
				case i > 0 && x.Dot && i == len(x.List)-1:
					stack = append(stack, item{lit: " . "})
				case i > 0:
					stack = append(stack, item{lit: " "})
				}
			}
		}
	}
	return b.String()
}

// symbolText is a symbol's name as the reader reads it back: in |bars| (or with \
// escapes, if it holds a bar) where it would otherwise read as something else.
func symbolText(s string) string {
	plain := s != "" && s != "." && !isNumber(s) && (s[0] != '#' || strings.HasPrefix(s, "#%")) && !strings.ContainsAny(s, "|\\") &&
		strings.IndexFunc(s, delimiter) < 0 && utf8.ValidString(s)
	switch {
	case plain:
		return s
	case !strings.Contains(s, "|"):
		return "|" + s + "|"
	}
	var b strings.Builder
	for _, c := range s {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// charNamesOut are the names the printer gives the characters that have one.
var charNamesOut = map[rune]string{' ': "space", '\n': "newline", '\t': "tab", '\r': "return", 0: "nul", '\b': "backspace", 127: "rubout", '\v': "vtab", '\f': "page", '\a': "alarm", 27: "escape"}

// charText is a character as the reader reads it back.
func charText(s string) string {
	c, _ := utf8.DecodeRuneInString(s)
	if name, ok := charNamesOut[c]; ok {
		return `#\` + name
	}
	return `#\` + s
}
