package sem

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var renderKeep = flag.String("render.keep", "", "TestRenderEveryRuleFile/pdflatex: also write the document and its PDF to this directory")

// ruleFiles are every rule file of the repository that loads (the faulty ones are in
// testdata/rules/errors), and the renderer's own test file.
func ruleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"../gradual/rules/*.sem", "../testdata/rules/*.sem", "../testdata/gradual/rules/*.sem", "testdata/render/*.sem"} {
		m, err := filepath.Glob(pat)
		if err != nil || len(m) == 0 {
			t.Fatalf("no rule files %s (%v)", pat, err)
		}
		files = append(files, m...)
	}
	return files
}

// overfull matches pdflatex's report of a line wider than the page, with the input
// lines of its paragraph or alignment.
var overfull = regexp.MustCompile(`Overfull \\hbox \(([0-9.]+pt) too wide\) (?:in paragraph|in alignment|detected) at lines? (\d+)`)

// compileFragments: the documents' bodies (fragments, one a rule file) compile with
// pdflatex, and no line of them is wider than the page (no Overfull \hbox in the
// log). They are one document, one pdflatex run, each file on its own pages; an
// overfull line is traced back to its file by its input line. Skipped, saying so,
// where pdflatex is not installed.
func compileFragments(t *testing.T, files, bodies []string) {
	if testing.Short() {
		t.Skip("pdflatex takes a while: the full run compiles the rendered documents")
	}
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex is not installed: the rendered documents are not compiled (apt-get install texlive-latex-base texlive-latex-recommended)")
	}
	var doc strings.Builder
	doc.WriteString("\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n")
	starts := make([]int, len(files)) // the first input line of each file's body
	for i, body := range bodies {
		doc.WriteString("\\clearpage\n")
		starts[i] = strings.Count(doc.String(), "\n") + 1
		doc.WriteString(body)
	}
	doc.WriteString("\\end{document}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rules.tex"), []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "rules.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(filepath.Join(dir, "rules.log"))
	if err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, tail(string(log)+string(out), 30))
	}
	if *renderKeep != "" {
		for _, name := range []string{"rules.tex", "rules.pdf"} {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			if err := os.WriteFile(filepath.Join(*renderKeep, name), b, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	for _, m := range overfull.FindAllStringSubmatch(string(log), -1) {
		line, _ := strconv.Atoi(m[2])
		i, found := slices.BinarySearch(starts, line)
		if !found {
			i--
		}
		file := "the preamble"
		if i >= 0 {
			file = files[i]
		}
		t.Errorf("%s: Overfull \\hbox (%s too wide) at line %d of its body", file, m[1], line-starts[max(i, 0)]+1)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
