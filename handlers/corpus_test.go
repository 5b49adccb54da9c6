package handlers

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// The corpus parses and type-checks, and each file that expects a type error is
// refused where its comment says (error at L:C); running it is the stages' and the
// calculus's business.
func TestCorpusStatics(t *testing.T) {
	files, err := filepath.Glob("../testdata/handlers/*.rh")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	at := regexp.MustCompile(`\(error at (\d+:\d+)\)`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		_, err = Check(p)
		wantErr := strings.Contains(string(src), "-- expect: type error")
		if !wantErr {
			if err != nil {
				t.Errorf("%s: %v", f, err)
			}
			continue
		}
		var list interderive.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%s: want a type error, got %v", f, err)
			continue
		}
		if m := at.FindStringSubmatch(string(src)); m != nil && list[0].Pos.String() != m[1] {
			t.Errorf("%s: type error at %s, want %s (%v)", f, list[0].Pos, m[1], err)
		}
	}
}
