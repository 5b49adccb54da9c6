package dpl

import (
	"strconv"
	"strings"

	"github.com/interderive/interderive/internal/slab"
)

// Names is a supply of fresh names: base#k, for a counter k. The lexer never accepts
// # in a source identifier, so a fresh name can never collide with a name the
// programmer wrote; and a supply made by NewNames starts after every generated name of
// the terms it is given, so it cannot collide with those either. Generated names read
// well in printed traces (s#1, x#2) and ParseGenerated reads them back.
//
// A Names is not safe for concurrent use: each run of a stage has its own. The bytes
// of the names it makes lie in shared chunks (slab.Text), so that a name costs no
// allocation of its own; a copy of a Names shares them, and goes on from the same
// counter.
type Names struct {
	last int
	text *slab.Text
	// num[len(num)-numLen:] are the decimal digits of numOf, kept by Fresh so that
	// the next number's digits take an increment, not a conversion (an array, so that
	// a copy of the supply has digits of its own).
	num           [20]byte
	numLen, numOf int
}

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
		switch t := t.(type) { // the names t binds or mentions
		case *Var:
			n.Reserve(t.Name)
		case *Let:
			n.Reserve(t.Name)
		case *Letrec:
			n.Reserve(t.Name)
			n.Reserve(t.Param)
		case *Call:
			n.Reserve(t.Name)
			if c := t.Clo; c != nil && !seen[c] {
				seen[c] = true
				n.Reserve(c.Name)
				n.Reserve(c.Param)
				stack = append(stack, c.Body)
			}
		case *Rd:
			n.Reserve(t.Param)
		case *Fd:
			n.Reserve(t.Param)
		}
		stack = AppendChildren(stack, t)
	}
	return n
}

// FreshNumber is k for a fresh name base#k (one a Names made), or -1 for any other
// name, or a number too large to be a run's. Tables keyed by names use it to keep
// fresh names in slices (the tape's scope, the environment index of internal/values/dplval).
func FreshNumber(name string) int {
	k, unit := 0, 1
	for i := len(name) - 1; i >= 0; i-- {
		switch c := name[i]; {
		case '0' <= c && c <= '9':
			k += int(c-'0') * unit
			if unit *= 10; unit > 1e15 {
				return -1
			}
		case c == '#' && unit > 1:
			return k
		default:
			return -1
		}
	}
	return -1
}

// FreshSlots numbers the slots of a table that keeps fresh names in a slice: the slot
// of base#k is k less the first number it was asked about (numbers grow through a run,
// and a table holds recent ones), so that the slice stays as small as the range of
// numbers it holds. The zero FreshSlots is ready to use.
type FreshSlots struct {
	first   int
	started bool
}

// Slot is the slot of name, below limit, or -1: name is not fresh, or its number is
// below the first or limit past it.
func (s *FreshSlots) Slot(name string, limit int) int {
	k := FreshNumber(name)
	if k < 0 {
		return -1
	}
	if !s.started {
		s.first, s.started = k, true
	}
	if i := k - s.first; 0 <= i && i < limit {
		return i
	}
	return -1
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
	var buf [48]byte
	name := append(buf[:0], BaseName(base)...)
	name = append(name, '#')
	name = append(name, n.digits()...)
	if n.text == nil {
		n.text = &slab.Text{}
	}
	return n.text.String(name)
}

// digits returns the decimal digits of n.last: the previous number's plus one, in
// place, when num holds the previous number (as it does but after a Reserve, or at
// the first call).
func (n *Names) digits() []byte {
	if n.numLen == 0 || n.numOf != n.last-1 || n.last <= 0 {
		var tmp [20]byte
		d := strconv.AppendInt(tmp[:0], int64(n.last), 10)
		n.numLen = copy(n.num[len(n.num)-len(d):], d)
		n.numOf = n.last
		return n.num[len(n.num)-n.numLen:]
	}
	i := len(n.num) - 1
	for ; n.num[i] == '9' && i >= len(n.num)-n.numLen; i-- {
		n.num[i] = '0'
	}
	if i < len(n.num)-n.numLen { // 99 + 1: one digit more
		n.num[i] = '1'
		n.numLen++
	} else {
		n.num[i]++
	}
	n.numOf = n.last
	return n.num[len(n.num)-n.numLen:]
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
