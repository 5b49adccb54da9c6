package sem_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/interderive/interderive/sem"
)

// The fuzz targets of the rule-file language: a rule file is a program its user
// wrote, and no bytes may crash the parser or the static checks. Their corpora are
// Go's: testdata/fuzz/FuzzParse and testdata/fuzz/FuzzCheck in this package's
// directory (the layout go test -fuzz reads and writes, so that a crasher it finds is
// a regression test at once), seeded here from every rule file of the repository:
// testdata/rules/*.sem, its errors/, gradual/rules/*.sem and the hostile files of
// cmd/interderive/testdata/hostile.
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 10m -parallel 1 ./sem
//	go test -run '^$' -fuzz '^FuzzCheck$' -fuzztime 10m -parallel 1 ./sem

// seedRuleFiles adds every rule file of the repository to f's corpus.
func seedRuleFiles(f *testing.F) {
	f.Helper()
	var files []string
	for _, glob := range []string{
		filepath.Join("..", "testdata", "rules", "*.sem"),
		filepath.Join("..", "testdata", "rules", "errors", "*.sem"),
		filepath.Join("..", "gradual", "rules", "*.sem"),
		filepath.Join("..", "cmd", "interderive", "testdata", "hostile", "*.sem"),
	} {
		found, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) < 10 {
		f.Fatalf("%d rule files to seed the corpus with, want the repository's (10 or more)", len(files))
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
}

// FuzzParse: sem.Parse never panics, and a file it parses prints (Language.String)
// as a file that parses and prints the same: the printer and the parser agree.
func FuzzParse(f *testing.F) {
	seedRuleFiles(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		l, err := sem.Parse(src)
		if err != nil {
			return
		}
		printed := l.String()
		again, err := sem.Parse([]byte(printed))
		if err != nil {
			t.Fatalf("the printed file does not parse: %v\n%s", err, printed)
		}
		if reprinted := again.String(); reprinted != printed {
			t.Fatalf("printed, parsed and printed again, the file differs:\n%s\nthen\n%s", printed, reprinted)
		}
	})
}

// FuzzCheck: the static checks (sem.Check) never panic on a file that parses, and
// give the same verdict on the file printed.
func FuzzCheck(f *testing.F) {
	seedRuleFiles(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		l, err := sem.Parse(src)
		if err != nil {
			return
		}
		err = sem.Check(l)
		again, perr := sem.Parse([]byte(l.String()))
		if perr != nil {
			return // FuzzParse's failure, reported there
		}
		if errAgain := sem.Check(again); (err == nil) != (errAgain == nil) {
			t.Fatalf("the checks say %v of the file and %v of it printed:\n%s", err, errAgain, l.String())
		}
	})
}
