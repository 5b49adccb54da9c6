package interderive

import (
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
