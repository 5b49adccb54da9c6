package sem

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// The expected documents in testdata/render are written by hand from the rule files
// and the notation of docs/rules.md (Typesetting), not by the renderer; but for
// cbv.tex's type arguments, its sorts of types and environments and its Judgments
// section, which the renderer typeset and were checked against cbv.sem line by line
// (each constructor's arguments, each binder, each premise in its rule's order).

// diffLines reports the first line where got and want differ.
func diffLines(t *testing.T, name, got, want string) {
	t.Helper()
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			t.Errorf("%s: line %d:\n got: %q\nwant: %q", name, i+1, gl, wl)
			return
		}
	}
}

// body is a standalone document's body: the lines between \begin{document} and
// \end{document}.
func body(t *testing.T, doc string) string {
	t.Helper()
	_, after, ok1 := strings.Cut(doc, "\\begin{document}\n")
	inner, _, ok2 := strings.Cut(after, "\\end{document}\n")
	if !ok1 || !ok2 {
		t.Fatalf("not a standalone document:\n%s", doc)
	}
	return inner
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRenderGolden: the rule files typeset, standalone and as a fragment, line for
// line as written by hand; the counts are those of the files' declarations.
func TestRenderGolden(t *testing.T) {
	tests := []struct {
		sem, tex                    string
		sorts, kinds, rules, stucks int
	}{
		{"testdata/render/tiny.sem", "testdata/render/tiny.tex", 1, 1, 6, 4},
		{"../testdata/rules/cbv.sem", "testdata/render/cbv.tex", 3, 1, 9, 5},
		{"../testdata/rules/cbn-strict.sem", "testdata/render/cbn-strict.tex", 1, 2, 6, 4},
		{"testdata/render/notation.sem", "testdata/render/notation.tex", 2, 1, 6, 3},
	}
	for _, tc := range tests {
		src, want := readFile(t, tc.sem), string(readFile(t, tc.tex))
		r, err := Render(src, RenderOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.sem, interderive.Describe(tc.sem, src, err))
		}
		diffLines(t, tc.sem, r.TeX, want)
		if r.Sorts != tc.sorts || r.Kinds != tc.kinds || r.Rules != tc.rules || r.Stucks != tc.stucks || len(r.Verbatim) != 0 {
			t.Errorf("%s: %d sorts, %d kinds, %d rules, %d stuck shapes, %d verbatim; want %d, %d, %d, %d, 0",
				tc.sem, r.Sorts, r.Kinds, r.Rules, r.Stucks, len(r.Verbatim), tc.sorts, tc.kinds, tc.rules, tc.stucks)
		}
		f, err := Render(src, RenderOptions{Fragment: true})
		if err != nil {
			t.Fatal(err)
		}
		diffLines(t, tc.sem+" (fragment)", f.TeX, body(t, want))
	}
}

// TestRenderVerbatim: what the renderer has no notation for is printed as written,
// in \texttt, and the rest as usual: a declaration it does not know, an item of a
// sort it does not know, and a rule with a condition it does not know (as the
// language's data would have it, were the condition added: the rule's data prints
// back to less than the declaration says). The declarations come from tiny.sem with
// those additions, at the same positions; the language, from tiny.sem itself.
func TestRenderVerbatim(t *testing.T) {
	src := string(readFile(t, "testdata/render/tiny.sem"))
	l, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) {
		t.Helper()
		if strings.Count(src, old) != 1 {
			t.Fatalf("tiny.sem has not one %q", old)
		}
		src = strings.Replace(src, old, new, 1)
	}
	edit("(con if-z e e e))", "(con if-z e e e) (class foo))")
	edit("(where (prim gt n 0)))", "(where (prim gt n 0)) (where (step E e_1 e_2)))")
	src += "(answer v)\n"
	decls, err := ReadSExprs([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := l.render(decls, RenderOptions{})

	want := string(readFile(t, "testdata/render/tiny.tex"))
	for _, gone := range []string{
		"\\item[{[\\textsf{if-z}]}] $\\textsf{if-z}\\;n\\;e_{1}\\;e_{2} \\longrightarrow \\mathsf{ap}\\;((n \\times 2) + (-n))\\;\\operatorname{quot}(n, -1)$\\\\\nif $n > 0$\n",
	} {
		if !strings.Contains(want, gone) {
			t.Fatalf("tiny.tex lacks %q", gone)
		}
		want = strings.Replace(want, gone, "", 1)
	}
	want = strings.Replace(want, "\\end{document}\n", `
\subsection*{Other declarations}

\noindent The declarations that have no notation here yet, as written.
{\raggedright

\noindent\texttt{(class foo)}

\noindent\texttt{(rule if-z E (if-z n e\_1 e\_2) (ap (prim add (prim mul n 2) (prim neg n)) (prim quot n -1)) (where (prim gt n 0)) (where (step E e\_1 e\_2)))}

\noindent\texttt{(answer v)}
\par}
\end{document}
`, 1)
	diffLines(t, "tiny.sem with additions", r.TeX, want)
	if r.Rules != 5 || len(r.Verbatim) != 3 {
		t.Errorf("%d rules, %d verbatim; want 5, 3", r.Rules, len(r.Verbatim))
	}
}

// TestRenderErrors: a file Load refuses is refused, with its positions.
func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"syntax", "(language x", "1:1: unclosed ("},
		{"unknown declaration", "(language x) (grammar)", "1:15: unknown declaration grammar"},
		{"ambiguous", string(readFile(t, "../testdata/rules/errors/ambiguous.sem")), "27:1: frames overlap"},
	}
	for _, tc := range tests {
		r, err := Render([]byte(tc.src), RenderOptions{})
		var list interderive.ErrorList
		found := false
		if errors.As(err, &list) {
			for _, e := range list {
				found = found || strings.Contains(e.Error(), tc.want)
			}
		}
		if r != nil || !found {
			t.Errorf("%s: %v, %v; want an error list with %q", tc.name, r, err, tc.want)
		}
	}
}

// TestTexNames: names typeset by hand.
func TestTexNames(t *testing.T) {
	tests := []struct {
		f        func(string) string
		what, in string
		want     string
	}{
		{texMeta, "meta", "t", "t"},
		{texMeta, "meta", "t_1", "t_{1}"},
		{texMeta, "meta", "x_f", "x_{f}"},
		{texMeta, "meta", "v'", "v'"},
		{texMeta, "meta", "v'_2", "v'_{2}"},
		{texMeta, "meta", "val", `\mathit{val}`},
		{texMeta, "meta", "t_1_2", `t_{\textit{1\_2}}`},
		{texMeta, "meta", "a-b", `\textit{a-b}`},
		{texCon, "constructor", "app", `\mathsf{app}`},
		{texCon, "constructor", "if0", `\mathsf{if0}`},
		{texCon, "constructor", "if-z", `\textsf{if-z}`},
		{texCon, "constructor", "let_rec", `\textsf{let\_rec}`},
		{texCon, "constructor", "<&>", `\textsf{\textless{}\&\textgreater{}}`},
		{texText, "text", "a\x1bb", `a\textbackslash{}x1bb`},
		{texText, "text", `\{}$&#^_%~`, `\textbackslash{}\{\}\$\&\#\textasciicircum{}\_\%\textasciitilde{}`},
		{texText, "text", "λx", `\ensuremath{\lambda}x`}, // Greek, as LaTeX sets it in text and math
		{texText, "text", "∀x", "∀x"},                    // any other character as it is
		{texMeta, "meta", "τ_1", `\tau_{1}`},
		{texMeta, "meta", "Γ'", `\Gamma'`},
	}
	for _, tc := range tests {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.what, tc.in, got, tc.want)
		}
	}
}

// TestRenderEveryRuleFile: every rule file of the repository (ruleFiles) renders,
// every declaration in its notation, the cast semantics' with the notations written
// by hand below; and the documents compile without a line wider than the page
// (compileFragments, where pdflatex is installed).
func TestRenderEveryRuleFile(t *testing.T) {
	files := ruleFiles(t)
	// The cast semantics: classes, functions, an answer, a context rule, a step.
	if casts, _ := filepath.Glob("../gradual/rules/*.sem"); len(casts) != 4 {
		t.Fatalf("gradual/rules has %d rule files", len(casts))
	}
	bodies := make([]string, len(files))
	for i, f := range files {
		r, err := Render(readFile(t, f), RenderOptions{Fragment: true})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		bodies[i] = r.TeX
		if len(r.Verbatim) != 0 || r.Rules == 0 {
			t.Errorf("%s: %d verbatim, %d rules", f, len(r.Verbatim), r.Rules)
		}
		if !strings.HasPrefix(f, "../gradual/rules/") {
			continue
		}
		// The notations of the new declarations and of the files' (notation ...), written
		// by hand from the rules and the notations: a captured context in italic, a
		// kind in \mathcal, application as juxtaposition, coercions as the spec's.
		for _, want := range []string{
			`\item[{[\textsf{Blame}]}] $E[\mathsf{blame}\;l] \longrightarrow_{\mathcal{E}} \mathsf{blame}\;l$\\` + "\n" + `if $E \neq [\,]$`,
			`\item[{[\textsf{StepCst}]}] $\langle c\rangle\, s \longrightarrow_{\mathcal{E}} \langle c_{2}\rangle\, s$\\` + "\n" + `if $c \longrightarrow_{\mathcal{C}} c_{2}$`,
			`\item[{[\textsf{beta}]}] $(\lambda x.\, e)\;v \longrightarrow_{\mathcal{E}} e[x :=\nobreak v]$`,
			`\item[{[\textsf{Let}]}] $\mathsf{let}\;x = v\;\mathsf{in}\;e \longrightarrow_{\mathcal{E}} e[x :=\nobreak v]$`,
			`\item $\operatorname{translate}(B, S, l) = \mathsf{id}$\quad if $B = S$`,
			`$s \mathrel{::=}\allowbreak n` + "\n" + `  \mid\allowbreak \mathsf{true}`,
			`  \mid\allowbreak \langle c\rangle\, \mathcal{E}`,
			`ends a run in the empty context when it is $\mathsf{blame}\;l$ (an answer).`,
		} {
			if !strings.Contains(r.TeX, want) {
				t.Errorf("%s: no %q", f, want)
			}
		}
	}
	t.Run("pdflatex", func(t *testing.T) { compileFragments(t, files, bodies) })
}

// FuzzRender: the renderer never panics, and gives every declaration of a file that
// Parse accepts its notation (what the parser reads, the renderer finds printed back
// exactly). Parse, not Load: the static checks are slow, and change nothing the
// renderer reads.
func FuzzRender(f *testing.F) {
	for _, path := range []string{"testdata/render/tiny.sem", "../testdata/rules/cbv.sem", "../testdata/rules/cbn-strict.sem", "../testdata/rules/cbn.sem", "testdata/render/notation.sem"} {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("(language x) (sort t (integer n) (con c t)) (kind E v t) (value E n) (frame E (c (hole E))) (stuck E (c -0) \"\\\\\")"))
	f.Fuzz(func(t *testing.T, src []byte) {
		l, err := Parse(src)
		if err != nil {
			return
		}
		decls, err := ReadSExprs(src)
		if err != nil {
			t.Fatalf("Parse accepts what ReadSExprs refuses: %v", err)
		}
		r := l.render(decls, RenderOptions{})
		if !strings.HasPrefix(r.TeX, "\\documentclass{article}\n") || !strings.HasSuffix(r.TeX, "\\end{document}\n") || len(r.Verbatim) != 0 {
			t.Fatalf("%d declarations verbatim:\n%s", len(r.Verbatim), r.TeX)
		}
	})
}

// TestNotationErrors: a notation that names no constructor, shows an argument the
// constructor does not have or not one it has, or is not LaTeX math that can be
// copied into a formula, is an error positioned at the token at fault, inside the
// string where the string is (columns counted by hand: the string of line 3 opens at
// column 15, and \\ is two columns of the source).
func TestNotationErrors(t *testing.T) {
	const base = "(language x)\n(sort e (integer n) (con app e e) (con nil))\n"
	tests := []struct {
		name, decl, want string
	}{
		{"unknown constructor", `(notation apx "#1")`, "3:11: apx is not a constructor (the constructors: app, nil)"},
		{"a name that is a string", `(notation "app" "#1")`, `3:11: expected a constructor's name, not "app"`},
		{"too few", `(notation app)`, "3:1: (notation app) ends before its"},
		{"too many", `(notation app "#1 #2" x)`, "3:23: unexpected x after"},
		{"not a string", `(notation app #1)`, "3:15: expected the notation of app, a string of LaTeX math with #1 to #2 for its arguments, not #1"},
		{"an argument too many", `(notation app "#1\\;#3")`, "3:21: #3: app has 2 arguments (#1 to #2)"},
		{"an argument of a nullary constructor", `(notation nil "#1")`, "3:16: #1: nil has no arguments"},
		{"an argument not shown", `(notation app "#1")`, "3:15: the notation of app does not show its argument #2 (e)"},
		{"#0", `(notation app "#0 #1 #2")`, "3:16: # in the notation of app: an argument is #1 to #2"},
		{"#12", `(notation app "#1 #2 #12")`, "3:22: #12: an argument is #1 to #9"},
		{"an open brace", `(notation app "#1 {#2")`, "3:22: the notation of app leaves 1 { open"},
		{"a closing brace", `(notation app "#1 } #2")`, "3:19: } closes no { in the notation of app"},
		{"a dollar", `(notation app "$#1 #2$")`, "3:16: $ in the notation of app: a notation is LaTeX math, without $ or %"},
		{"a backslash at the end", `(notation app "#1 #2\\")`, "3:21: \\ ends the notation of app"},
		{"a comment", `(notation app "λ#1 % #2")`, "3:20: % in the notation of app"},
		{"twice", "(notation nil \"N\")\n(notation nil \"\\\\mathsf{N}\")", "4:11: a second notation for nil (the first is at 3:1)"},
	}
	for _, tc := range tests {
		_, err := Parse([]byte(base + tc.decl + "\n(kind E v)\n"))
		var list interderive.ErrorList
		found := false
		if errors.As(err, &list) {
			for _, e := range list {
				found = found || strings.Contains(e.Error(), tc.want)
			}
		}
		if !found {
			t.Errorf("%s: %v; want an error with %q", tc.name, err, tc.want)
		}
	}
	// Render refuses it as Load does.
	if _, err := Render([]byte(base+`(notation apx "#1")`+"\n(kind E v)\n"), RenderOptions{}); err == nil || !strings.Contains(err.Error(), "apx is not a constructor") {
		t.Errorf("Render: %v", err)
	}
}
