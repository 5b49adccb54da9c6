package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRender: render writes a standalone document, or its body; to a new file with
// -o, saying what it typeset (cbv.sem by hand: 3 sorts, the terms, the types and the
// typing environments; 1 kind, 9 rules, 5 stuck shapes); an existing file only with --force and the rule file never; an unknown
// flag, a missing file, a file that is not a rule file and an ill-formed rule file are
// errors (exit status 2). The document itself is sem's golden test's.
func TestRender(t *testing.T) {
	rules := filepath.Join("..", "..", "testdata", "rules")
	cbv, strict := filepath.Join(rules, "cbv.sem"), filepath.Join(rules, "cbn-strict.sem")
	dir := t.TempDir()
	out, old := filepath.Join(dir, "cbv.tex"), filepath.Join(dir, "old.tex")
	if err := os.WriteFile(old, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	beta := `\item[{[\textsf{beta}]}] $\mathsf{app}\;(\mathsf{lam}\;x\;T\;t)\;v \longrightarrow t[x :=\nobreak v]$`
	strictSrc, err := os.ReadFile(strict)
	if err != nil {
		t.Fatal(err)
	}
	// A notation: cbv.sem with application as juxtaposition; and one that names no
	// constructor, on the line after cbv.sem's last.
	cbvSrc, err := os.ReadFile(cbv)
	if err != nil {
		t.Fatal(err)
	}
	juxtaposed := string(cbvSrc) + "(notation app \"#1\\\\;#2\")\n"
	badLine := strconv.Itoa(strings.Count(string(cbvSrc), "\n") + 1)
	bad := string(cbvSrc) + "(notation ap \"#1\")\n"
	tests := []struct {
		stdin  string
		args   []string
		stdout []string // parts of it, in order; the first is a prefix
		stderr string   // a part of it
		code   int
	}{
		{"", []string{"render", cbv}, []string{"\\documentclass{article}\n\\usepackage{amsmath}\n", beta, "\\end{document}\n"}, "", 0},
		{"", []string{"render", "--fragment", cbv}, []string{"% A rule file typeset by interderive render.\n", beta}, "", 0},
		{string(strictSrc), []string{"render", "-"}, []string{"\\documentclass", `\item[{[\textsf{bang}]}] $\mathsf{bang}\;t \longrightarrow_{\mathcal{F}} t$`}, "", 0},
		{"", []string{"render", "-o", out, cbv}, []string{"wrote " + out + ": 3 sorts, 1 kind, 9 rules, 5 stuck shapes, 0 declarations as written\n"}, "", 0},
		{"", []string{"render", "-o", old, cbv}, nil, "old.tex exists: give --force to overwrite it", 2},
		{"", []string{"render", "--output", old, "--force", "--fragment", strict}, []string{"wrote " + old + ": 1 sort, 2 kinds, 6 rules, 4 stuck shapes"}, "", 0},
		{"", []string{"render", "-o", cbv, "--force", cbv}, nil, "is an input of this command", 2},
		{"", []string{"render", "--pdf", cbv}, nil, "unknown flag: --pdf", 2},
		{"", []string{"render"}, nil, "accepts 1 arg(s), received 0", 2},
		{"", []string{"render", filepath.Join(rules, "none.sem")}, nil, "none.sem", 2},
		{"", []string{"render", filepath.Join(rules, "cbv", "fact.term")}, nil, "fact.term: not a rule file (*.sem)", 2},
		{"", []string{"render", filepath.Join(rules, "errors", "ambiguous.sem")}, nil, "ambiguous.sem:27:1: frames overlap", 2},
		{"(language x)", []string{"render", "-"}, nil, "<stdin>:1:1: no (sort ...) declaration", 2},
		{juxtaposed, []string{"render", "-"}, []string{"\\documentclass", `\item[{[\textsf{beta}]}] $(\mathsf{lam}\;x\;T\;t)\;v \longrightarrow t[x :=\nobreak v]$`}, "", 0},
		{bad, []string{"render", "-"}, nil, "<stdin>:" + badLine + ":11: ap is not a constructor (the constructors: lam, app, add, sub, mul, if0, let, letrec, int, arrow, empty, extend)\n\t(notation ap \"#1\")\n\t          ^", 2},
	}
	for _, tt := range tests {
		stdout, stderr, code := runCmdIn(tt.stdin, tt.args...)
		rest, ok := stdout, true
		for i, part := range tt.stdout {
			j := strings.Index(rest, part)
			if j < 0 || i == 0 && j != 0 {
				ok = false
				break
			}
			rest = rest[j+len(part):]
		}
		if tt.stdout == nil {
			ok = stdout == ""
		}
		if !ok || code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: stdout %q, stderr %q, exit %d; want %q, %q, %d", tt.args, stdout, stderr, code, tt.stdout, tt.stderr, tt.code)
		}
	}
	// The file -o wrote is the document render prints.
	doc, _, _ := runCmd("render", cbv)
	if written, err := os.ReadFile(out); err != nil || string(written) != doc {
		t.Errorf("-o wrote %d bytes (%v), render prints %d", len(written), err, len(doc))
	}
	if src, _ := os.ReadFile(cbv); !strings.HasPrefix(string(src), "; The simply-typed call-by-value") {
		t.Errorf("the rule file changed")
	}
}
