package interderive

import (
	"errors"
	"strings"
	"testing"
)

// TestDescribe shows the line and a caret under the column; a line longer than
// maxShown runes is shown as a window around the column, elided with … .
func TestDescribe(t *testing.T) {
	err := ErrorList{Errorf(Pos{Line: 2, Col: 3}, "boom")}
	want := "f:2:3: boom\n\tab\tc\n\t  ^" // column 3 is the tab: two spaces, then the caret
	if got := Describe("f", []byte("x\nab\tc\n"), err); got != want {
		t.Errorf("got %q, want %q", got, want)
	}

	long := strings.Repeat("a", 1000) + "X" + strings.Repeat("b", 1000)
	got := Describe("f", []byte(long), ErrorList{Errorf(Pos{Line: 1, Col: 1001}, "here")})
	lines := strings.Split(got, "\n")
	if len(lines) != 3 {
		t.Fatalf("got %q", got)
	}
	shown, caretLine := []rune(strings.TrimPrefix(lines[1], "\t")), []rune(strings.TrimPrefix(lines[2], "\t"))
	// The window: … then 160 runes starting 80 before the X, then … .
	if len(shown) != maxShown+2 || shown[0] != '…' || shown[len(shown)-1] != '…' {
		t.Fatalf("window %q", string(shown))
	}
	if at := len(caretLine) - 1; caretLine[at] != '^' || shown[at] != 'X' {
		t.Errorf("the caret is under %q, want under X", string(shown[at]))
	}
	// At the start of a long line there is nothing to elide on the left.
	got = Describe("f", []byte(long), ErrorList{Errorf(Pos{Line: 1, Col: 1}, "here")})
	if lines := strings.Split(got, "\n"); !strings.HasPrefix(lines[1], "\ta") || !strings.HasSuffix(lines[1], "…") || lines[2] != "\t^" {
		t.Errorf("got %q", got)
	}
}

// TestDescribeEscapes: control characters of the source line, the message and the
// file name are shown as escapes, never sent to the terminal; the caret still stands
// under the column (each escape counted as wide as it is shown), and tabs are kept.
func TestDescribeEscapes(t *testing.T) {
	tests := []struct {
		name, file, src string
		pos             Pos
		msg, want       string
	}{
		// "1 + ESC[2J 2": column 5 is the ESC, shown as \x1b.
		{"escape sequence", "f", "1 + \x1b[2J 2", Pos{1, 5}, "unexpected character",
			"f:1:5: unexpected character\n\t1 + \\x1b[2J 2\n\t    ^"},
		// Column 7 is the '[' after the ESC: four columns for \x1b, then the caret.
		{"after an escape", "f", "1 + \x1b[2J 2", Pos{1, 6}, "here",
			"f:1:6: here\n\t1 + \\x1b[2J 2\n\t        ^"},
		// A tab is kept in the line and in the caret line.
		{"tab kept", "f", "\tx\a y", Pos{1, 5}, "bell before",
			"f:1:5: bell before\n\t\tx\\x07 y\n\t\t      ^"},
		// The message and the file name are escaped too; an invalid byte is \xff, a
		// C1 control \u009b, a right-to-left override \u202e.
		{"message and file", "a\x1b]0;x\a.gtlc", "\xff\u009b\u202ex", Pos{1, 4}, "bad \x1b[31mred",
			"a\\x1b]0;x\\x07.gtlc:1:4: bad \\x1b[31mred\n\t\\xff\\u009b\\u202ex\n\t                ^"},
	}
	for _, tt := range tests {
		got := Describe(tt.file, []byte(tt.src), ErrorList{Errorf(tt.pos, "%s", tt.msg)})
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	if got, want := Escape("a\tb\nc\x7f"), `a\x09b\x0ac\x7f`; got != want {
		t.Errorf("Escape: got %q, want %q", got, want)
	}
	if got, want := EscapeLines("one\x1b\n\ttwo"), "one\\x1b\n\ttwo"; got != want {
		t.Errorf("EscapeLines: got %q, want %q", got, want)
	}
	// An error without a position: FILE: message, both escaped.
	if got, want := Describe("f\x1b", nil, errors.New("no\x1bpe")), `f\x1b: no\x1bpe`; got != want {
		t.Errorf("Describe without a position: got %q, want %q", got, want)
	}
}

// TestErrorListSort: Add appends; Sort orders by line, then column, the errors
// without a position first, and keeps the order of errors at one position.
func TestErrorListSort(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Fatalf("an empty list is an error: %v", l.Err())
	}
	l.Add(Pos{Line: 2, Col: 5}, "d")
	l.Add(Pos{Line: 1, Col: 9}, "b")
	l.Add(Pos{Line: 2, Col: 1}, "c")
	l.Add(Pos{}, "a")
	l.Add(Pos{Line: 2, Col: 5}, "e")
	l.Add(Pos{Line: 1, Col: 9}, "b2")
	l.Sort()
	var got []string
	for _, e := range l {
		got = append(got, e.Pos.String()+" "+e.Msg)
	}
	want := "- a, 1:9 b, 1:9 b2, 2:1 c, 2:5 d, 2:5 e"
	if strings.Join(got, ", ") != want {
		t.Errorf("sorted %q, want %q", strings.Join(got, ", "), want)
	}
	if err := l.Err(); err == nil || err.Error() != "-: a (and 5 more errors)" {
		t.Errorf("Err() = %v", err)
	}
}
