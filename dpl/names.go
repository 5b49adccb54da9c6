package dpl

import (
	"strconv"
	"strings"
)

// Names is a supply of fresh names: base#k, for a counter k. The lexer never accepts
// # in a source identifier, so a fresh name can never collide with a name the
// programmer wrote; and a supply made by NewNames starts after every generated name of
// the terms it is given, so it cannot collide with those either. Generated names read
// well in printed traces (s#1, x#2) and ParseGenerated reads them back.
//
// A Names is not safe for concurrent use: each run of a stage has its own.
type Names struct{ last int }

// NewNames returns a supply whose names are fresh for the given terms (including the
// bodies of their resolved calls' closures).
func NewNames(ts ...Term) *Names {
	n := &Names{}
	seen := map[*Closure]bool{}
	stack := append([]Term(nil), ts...)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if isNil(t) {
			continue
		}
		for _, name := range boundOrUsedNames(t) {
			n.Reserve(name)
		}
		if c, ok := t.(*Call); ok && c.Clo != nil && !seen[c.Clo] {
			seen[c.Clo] = true
			n.Reserve(c.Clo.Name)
			n.Reserve(c.Clo.Param)
			stack = append(stack, c.Clo.Body)
		}
		stack = append(stack, Children(t)...)
	}
	return n
}

// boundOrUsedNames returns the names a node binds or mentions.
func boundOrUsedNames(t Term) []string {
	switch t := t.(type) {
	case *Var:
		return []string{t.Name}
	case *Let:
		return []string{t.Name}
	case *Letrec:
		return []string{t.Name, t.Param}
	case *Call:
		return []string{t.Name}
	case *Rd:
		return []string{t.Param}
	case *Fd:
		return []string{t.Param}
	}
	return nil
}

// Reserve makes sure that the supply never produces name.
func (n *Names) Reserve(name string) {
	if i := strings.LastIndexByte(name, '#'); i >= 0 {
		if k, err := strconv.Atoi(name[i+1:]); err == nil && k > n.last {
			n.last = k
		}
	}
}

// Fresh returns a new name built on base (without any # suffix base has): x#7.
func (n *Names) Fresh(base string) string {
	n.last++
	var num [20]byte
	digits := strconv.AppendInt(num[:0], int64(n.last), 10)
	b := BaseName(base)
	var sb strings.Builder
	sb.Grow(len(b) + 1 + len(digits))
	sb.WriteString(b)
	sb.WriteByte('#')
	sb.Write(digits)
	return sb.String()
}

// BaseName strips the # suffix of a generated name: BaseName("x#7") = "x".
func BaseName(name string) string {
	if i := strings.IndexByte(name, '#'); i >= 0 {
		return name[:i]
	}
	return name
}

// IsGenerated reports whether name was made by a Names supply.
func IsGenerated(name string) bool { return strings.IndexByte(name, '#') >= 0 }
