package interderive

import (
	"errors"
	"fmt"
	"strings"
)

// Pos is a position in a source file: 1-based line and column (columns count runes).
// The zero Pos means "no position".
type Pos struct {
	Line, Col int32
}

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as LINE:COL, the form used in messages and positional blame labels.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Error is a message attached to a source position: a syntax error, a type error, or a
// limit that the input exceeded.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errorf makes a positioned error.
func Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// ErrorList is a list of positioned errors, in source order, as go/scanner collects them.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil for an empty list and the list itself otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Describe renders err for a person: for every positioned error it gives
// FILE:LINE:COL: message, then the source line and a caret under the column.
// Errors without a position are rendered as FILE: message.
func Describe(file string, src []byte, err error) string {
	var list ErrorList
	var single *Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &single):
		list = ErrorList{single}
	default:
		return fmt.Sprintf("%s: %v", file, err)
	}
	lines := strings.Split(string(src), "\n")
	var b strings.Builder
	for i, e := range list {
		if i > 0 {
			b.WriteByte('\n')
		}
		if !e.Pos.IsValid() {
			fmt.Fprintf(&b, "%s: %s", file, e.Msg)
			continue
		}
		fmt.Fprintf(&b, "%s:%s: %s", file, e.Pos, e.Msg)
		if int(e.Pos.Line) <= len(lines) {
			line, col := window(strings.TrimRight(lines[e.Pos.Line-1], "\r"), int(e.Pos.Col))
			b.WriteString("\n\t" + line + "\n\t" + caret(line, col))
		}
	}
	return b.String()
}

// maxShown is the longest source line Describe shows whole; a longer one is shown as a
// window of that many runes around the column, elided with … on either side.
const maxShown = 160

// window cuts a long line down to maxShown runes around column col, and returns the
// column in the cut line.
func window(line string, col int) (string, int) {
	rs := []rune(line)
	if len(rs) <= maxShown {
		return line, col
	}
	start := max(0, min(col-1-maxShown/2, len(rs)-maxShown))
	end := start + maxShown
	out := string(rs[start:end])
	if start > 0 {
		out, col = "…"+out, col-start+1
	}
	if end < len(rs) {
		out += "…"
	}
	return out, col
}

// caret returns spaces (keeping the line's tabs, so the caret lines up) up to column
// col, then '^'.
func caret(line string, col int) string {
	var b strings.Builder
	i := 1
	for _, r := range line {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	for ; i < col; i++ {
		b.WriteByte(' ')
	}
	b.WriteByte('^')
	return b.String()
}
