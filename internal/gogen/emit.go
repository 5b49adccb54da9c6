package gogen

import (
	"fmt"
	"strings"
	"unicode"
)

// emitter accumulates Go source, with fresh local names.
type emitter struct {
	b      strings.Builder
	tmps   int
	labels int // the labels of inlined tests (inline)
}

// p writes one line, formatted.
func (e *emitter) p(format string, args ...any) {
	fmt.Fprintf(&e.b, format, args...)
	e.b.WriteByte('\n')
}

// tmp is a fresh local name with the prefix.
func (e *emitter) tmp(prefix string) string {
	e.tmps++
	return fmt.Sprintf("%s%d", prefix, e.tmps)
}

// ident is s as a Go identifier's tail: letters and digits kept, anything else an
// underscore.
func ident(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// camel is s as the tail of a camel-case identifier: its first letter upper case.
func camel(s string) string {
	s = ident(s)
	if s == "" {
		return "X"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// table emits var name = [...]typ{...}, its items item(0) ... item(n-1), one a line.
func (e *emitter) table(name, typ string, n int, item func(int) string) {
	e.p("var %s = [...]%s{", name, typ)
	for i := range n {
		e.p("%s,", item(i))
	}
	e.p("}")
	e.p("")
}
