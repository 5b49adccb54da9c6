package interderive

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
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

// Add appends an error at pos with the message msg, as go/scanner's ErrorList.Add.
func (l *ErrorList) Add(pos Pos, msg string) { *l = append(*l, &Error{Pos: pos, Msg: msg}) }

// Sort sorts the list by position, line then column, as go/scanner's ErrorList.Sort:
// the errors without a position first; errors at one position keep the order they
// were added in.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if c := cmp.Compare(a.Pos.Line, b.Pos.Line); c != 0 {
			return c
		}
		return cmp.Compare(a.Pos.Col, b.Pos.Col)
	})
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
// Errors without a position are rendered as FILE: message. The file name, the
// messages and the source line are shown with their control characters escaped
// (Escape; the line keeps its tabs, so that the caret lines up), so that an input
// cannot drive the terminal that shows the error.
func Describe(file string, src []byte, err error) string {
	var list ErrorList
	var single *Error
	file = Escape(file)
	switch {
	case errors.As(err, &list):
	case errors.As(err, &single):
		list = ErrorList{single}
	default:
		return fmt.Sprintf("%s: %s", file, Escape(err.Error()))
	}
	lines := strings.Split(string(src), "\n")
	var b strings.Builder
	for i, e := range list {
		if i > 0 {
			b.WriteByte('\n')
		}
		if !e.Pos.IsValid() {
			fmt.Fprintf(&b, "%s: %s", file, Escape(e.Msg))
			continue
		}
		fmt.Fprintf(&b, "%s:%s: %s", file, e.Pos, Escape(e.Msg))
		if int(e.Pos.Line) <= len(lines) {
			shown, col := window(runesOf(strings.TrimRight(lines[e.Pos.Line-1], "\r")), int(e.Pos.Col))
			b.WriteString("\n\t" + strings.Join(shown, "") + "\n\t" + caret(shown, col))
		}
	}
	return b.String()
}

// Escape returns s with every character that could control a terminal written as an
// escape: C0 control characters (tabs and newlines included) and DEL as \x1b, C1
// control characters and the bidirectional formatting characters as \u202e, and bytes
// that are not UTF-8 as \xff. Everything else, backslashes included, is kept.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for _, r := range runesOf(s) {
		if r == "\t" {
			r = `\x09`
		}
		b.WriteString(r)
	}
	return b.String()
}

// EscapeLines is Escape for a message of several lines, as Describe writes them:
// the newlines and tabs are kept, every other character Escape rewrites is escaped.
func EscapeLines(s string) string {
	if !needsEscape(strings.NewReplacer("\n", "", "\t", "").Replace(s)) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(runesOf(l), "")
	}
	return strings.Join(lines, "\n")
}

// needsEscape reports whether s has a character Escape rewrites.
func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if escaped(r, size) {
			return true
		}
		i += size
	}
	return false
}

// escaped reports whether a rune decoded from size bytes is shown as an escape.
func escaped(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1, r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // left-to-right and right-to-left marks, embeddings, overrides, isolates
	}
	return false
}

// runesOf splits a line into its characters as shown: one string per rune (columns
// count runes, an invalid byte being one), a character that Escape rewrites as its
// escape, except tabs.
func runesOf(line string) []string {
	out := make([]string, 0, len(line))
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == '\t' || !escaped(r, size):
			out = append(out, line[i:i+size])
		case r == utf8.RuneError || r < 0x80:
			out = append(out, fmt.Sprintf("\\x%02x", line[i]))
		default:
			out = append(out, fmt.Sprintf("\\u%04x", r))
		}
		i += size
	}
	return out
}

// maxShown is the longest source line Describe shows whole; a longer one is shown as a
// window of that many runes around the column, elided with … on either side.
const maxShown = 160

// window cuts a long line (its characters as shown) down to maxShown characters
// around column col, and returns the column in the cut line.
func window(line []string, col int) ([]string, int) {
	if len(line) <= maxShown {
		return line, col
	}
	start := max(0, min(col-1-maxShown/2, len(line)-maxShown))
	end := start + maxShown
	out := line[start:end:end]
	if start > 0 {
		out, col = append([]string{"…"}, out...), col-start+1
	}
	if end < len(line) {
		out = append(out, "…")
	}
	return out, col
}

// caret returns spaces (keeping the line's tabs, and as many spaces as an escape
// takes, so that the caret lines up) up to column col, then '^'.
func caret(line []string, col int) string {
	var b strings.Builder
	i := 1
	for _, r := range line {
		if i >= col {
			break
		}
		switch {
		case r == "\t":
			b.WriteByte('\t')
		case strings.HasPrefix(r, "\\"):
			b.WriteString(strings.Repeat(" ", len(r)))
		default:
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
