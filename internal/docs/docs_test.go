package docs

import (
	"bytes"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// root is the repository's root, the directory of go.mod two levels up.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at the repository's root %s: %v", dir, err)
	}
	return dir
}

// pages are the documentation a user reads: README.md, docs/*.md and the
// specifications docs/spec/*.md, relative to the root. It fails if there are none, so
// that a moved directory is not a pass.
func pages(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md under %s: %v", dir, err)
	}
	specs, _ := filepath.Glob(filepath.Join(dir, "docs", "spec", "*.md"))
	files = append(files, specs...)
	out := []string{"README.md"}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// fence is a fenced code block of a Markdown page.
type fence struct {
	file  string
	line  int      // of the opening fence, from 1
	info  []string // the info string's words
	lines []string // the contents, the fence's indentation removed
}

func (f fence) has(word string) bool {
	for _, w := range f.info {
		if w == word {
			return true
		}
	}
	return false
}

// fenceOpen is an opening or closing fence: up to three spaces of indentation in a
// page, more inside a list item, which the pages indent by two or four.
var fenceOpen = regexp.MustCompile("^( *)(```+)(.*)$")

// fences reads a page's fenced code blocks. An unclosed fence is an error.
func fences(file, text string) ([]fence, error) {
	var out []fence
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		f := fence{file: file, line: i + 1, info: strings.Fields(m[3])}
		indent, marker := len(m[1]), m[2]
		closed := false
		for i++; i < len(lines); i++ {
			if c := fenceOpen.FindStringSubmatch(lines[i]); c != nil && c[2] == marker && strings.TrimSpace(c[3]) == "" {
				closed = true
				break
			}
			l := lines[i]
			for k := 0; k < indent && strings.HasPrefix(l, " "); k++ {
				l = l[1:]
			}
			f.lines = append(f.lines, l)
		}
		if !closed {
			return nil, fmt.Errorf("%s:%d: a fence that is never closed", file, f.line)
		}
		out = append(out, f)
	}
	return out, nil
}

// example is a marked command of a page and what it prints.
type example struct {
	where string   // FILE:LINE of the command's fence
	args  []string // the command's arguments after interderive
	slow  bool
	want  []string // the expected lines, "..." and "<time>" as the package says
	exit  int
}

var exitLine = regexp.MustCompile(`^\(exit status (\d+)\)$`)

// examples reads the marked examples of a page: a "sh example" fence followed by a
// "text output" fence. A marked example without its output, with more or less than
// one command, or whose command is not interderive's, is an error.
func examples(file, text string) ([]example, error) {
	fs, err := fences(file, text)
	if err != nil {
		return nil, err
	}
	var out []example
	for i, f := range fs {
		if len(f.info) == 0 || f.info[0] != "sh" || !f.has("example") {
			continue
		}
		where := fmt.Sprintf("%s:%d", f.file, f.line)
		if i+1 == len(fs) || len(fs[i+1].info) < 2 || fs[i+1].info[0] != "text" || fs[i+1].info[1] != "output" {
			return nil, fmt.Errorf("%s: an example with no \"text output\" fence after it", where)
		}
		var cmds [][]string
		for _, l := range f.lines {
			words, err := shellWords(l)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", where, err)
			}
			if len(words) > 0 {
				cmds = append(cmds, words)
			}
		}
		if len(cmds) != 1 {
			return nil, fmt.Errorf("%s: an example holds one command, not %d", where, len(cmds))
		}
		args, ok := interderiveArgs(cmds[0])
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a command of interderive", where, strings.Join(cmds[0], " "))
		}
		ex := example{where: where, args: args, slow: f.has("slow"), want: fs[i+1].lines}
		if n := len(ex.want); n > 0 {
			if m := exitLine.FindStringSubmatch(ex.want[n-1]); m != nil {
				ex.exit, _ = strconv.Atoi(m[1])
				ex.want = ex.want[:n-1]
			}
		}
		out = append(out, ex)
	}
	return out, nil
}

// interderiveArgs are the arguments of a command line that runs interderive, as a
// user types it: interderive ARGS, or go run ./cmd/interderive ARGS.
func interderiveArgs(words []string) ([]string, bool) {
	switch {
	case len(words) >= 1 && words[0] == "interderive":
		return words[1:], true
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/interderive":
		return words[3:], true
	}
	return nil, false
}

// shellWords splits a command line as a POSIX shell does for the forms the pages use:
// words separated by blanks, single and double quotes, a backslash before a character
// in double quotes or outside quotes, and a comment from a # that starts a word.
// Anything else the shell would do (pipes, redirections, variables) is refused.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words, nil
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("an unclosed quote in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) {
					i++
				}
				cur.WriteByte(line[i])
			}
			if i == len(line) {
				return nil, fmt.Errorf("an unclosed quote in %q", line)
			}
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case strings.IndexByte("|&;<>$`(){}*?", c) >= 0:
			return nil, fmt.Errorf("%q: an example is one command, without the shell's %q", line, c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

var duration = `(?:[0-9]+h)?(?:[0-9]+m)?[0-9]+(?:\.[0-9]+)?(?:ns|µs|us|ms|s|m|h)`

// matches says whether the lines got match the expected lines, and if not, the first
// expected line that failed and the line it was compared with.
func matches(want, got []string) (ok bool, why string) {
	trim := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = strings.TrimRight(l, " \t")
		}
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
		return out
	}
	want, got = trim(want), trim(got)
	var match func(w, g int) bool
	match = func(w, g int) bool {
		if w == len(want) {
			return g == len(got)
		}
		if want[w] == "..." {
			for k := g; k <= len(got); k++ {
				if match(w+1, k) {
					return true
				}
			}
			return false
		}
		return g < len(got) && lineMatches(want[w], got[g]) && match(w+1, g+1)
	}
	if match(0, 0) {
		return true, ""
	}
	// The first difference, for the message: lines compared in order up to a "...".
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i < len(want) && want[i] == "...":
			return false, "the lines after a \"...\" do not match"
		case i >= len(want):
			return false, fmt.Sprintf("line %d: got %q, expected nothing more", i+1, got[i])
		case i >= len(got):
			return false, fmt.Sprintf("line %d: expected %q, got nothing more", i+1, want[i])
		case !lineMatches(want[i], got[i]):
			return false, fmt.Sprintf("line %d: expected %q\n                got %q", i+1, want[i], got[i])
		}
	}
	return false, "the lines differ"
}

func lineMatches(want, got string) bool {
	if !strings.Contains(want, "<time>") {
		return want == got
	}
	parts := strings.Split(want, "<time>")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile("^" + strings.Join(parts, duration) + "$").MatchString(got)
}

// binary builds interderive once per test binary, into a temporary directory.
var binary struct {
	once sync.Once
	path string
	err  error
	dir  string
}

func interderive(t *testing.T, dir string) string {
	t.Helper()
	binary.once.Do(func() {
		binary.dir, binary.err = os.MkdirTemp("", "interderive-docs-")
		if binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "interderive")
		cmd := exec.Command("go", "build", "-o", binary.path, "./cmd/interderive")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			binary.err = fmt.Errorf("go build ./cmd/interderive: %v\n%s", err, out)
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// TestExamples runs every marked example of the README and docs/ and compares what it
// prints, and its exit status, with what the page says.
func TestExamples(t *testing.T) {
	dir := root(t)
	var all []example
	for _, page := range pages(t, dir) {
		text, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		exs, err := examples(page, string(text))
		if err != nil {
			t.Error(err)
		}
		all = append(all, exs...)
	}
	// The pages promise examples of every command a user starts with; so few would
	// mean that the marker changed and nothing is checked any more.
	if len(all) < 10 {
		t.Fatalf("%d marked examples in the README and docs/, fewer than 10", len(all))
	}
	bin := interderive(t, dir)
	for _, ex := range all {
		t.Run(ex.where, func(t *testing.T) {
			if ex.slow && testing.Short() {
				t.Skip("a slow example, skipped in -short")
			}
			cmd := exec.Command(bin, ex.args...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatalf("interderive %s: %v", strings.Join(ex.args, " "), err)
			}
			got := strings.Split(string(out), "\n")
			if ok, why := matches(ex.want, got); !ok || code != ex.exit {
				t.Errorf("%s: interderive %s\nexit status %d (the page says %d); %s\nit printed:\n%s",
					ex.where, strings.Join(ex.args, " "), code, ex.exit, why, out)
			}
		})
	}
}

// TestExampleFormat: the reading of examples and the matching of their output, on
// pages and outputs written here.
func TestExampleFormat(t *testing.T) {
	page := "text\n\n```sh example\ninterderive run 'a b.gtlc'   # a comment\n```\n\n```text output\n4\n(exit status 2)\n```\n" +
		"\n  ```sh example slow\n  go run ./cmd/interderive check \"x\\\"y\"\n  ```\n  ```text output\n  ...\n  ```\n"
	exs, err := examples("page.md", page)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 {
		t.Fatalf("%d examples, want 2: %+v", len(exs), exs)
	}
	if got := fmt.Sprintf("%q %v %q %d", exs[0].args, exs[0].slow, exs[0].want, exs[0].exit); got != `["run" "a b.gtlc"] false ["4"] 2` {
		t.Errorf("the first example: %s", got)
	}
	if got := fmt.Sprintf("%q %v %q %d %s", exs[1].args, exs[1].slow, exs[1].want, exs[1].exit, exs[1].where); got != `["check" "x\"y"] true ["..."] 0 page.md:12` {
		t.Errorf("the second example: %s", got)
	}
	for _, bad := range []string{
		"```sh example\ninterderive run a\n```\n",                                         // no output
		"```sh example\ninterderive run a\ninterderive run b\n```\n```text output\n```\n", // two commands
		"```sh example\nls\n```\n```text output\n```\n",                                   // not interderive
		"```sh example\ninterderive run a | head\n```\n```text output\n```\n",             // a pipe
		"```sh example\ninterderive run a\n",                                              // unclosed
	} {
		if _, err := examples("bad.md", bad); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
	for _, c := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb\n", true},
		{"a\nb", "a\nc", false},
		{"a\n...\nz", "a\nb\nc\nz", true},
		{"a\n...\nz", "a\nz", true},
		{"a\n...\nz", "a\nb", false},
		{"a", "a\nb", false},
		{"ld  reduction  7  <time>", "ld  reduction  7  20µs", true},
		{"ld  reduction  7  <time>", "ld  reduction  7  1.5ms", true},
		{"ld  reduction  7  <time>", "ld  reduction  8  1.5ms", false},
		{"x   ", "x", true},
	} {
		if ok, why := matches(strings.Split(c.want, "\n"), strings.Split(c.got, "\n")); ok != c.ok {
			t.Errorf("matches(%q, %q) = %v (%s), want %v", c.want, c.got, ok, why, c.ok)
		}
	}
}

// outside are the ways a text names files outside the repository: the workspace's
// specifications and papers. The repository cites papers by title, authors and venue,
// and states in docs/ what a user needs of the specifications.
var outside = []string{"../shared", "shared/spec", "shared/seeds", "shared/examples"}

// TestStandsAlone: no page, rule file or Go comment names a file outside the
// repository. Go files are read for their comments only (go/scanner): the words a
// user reads in go doc.
func TestStandsAlone(t *testing.T) {
	dir := root(t)
	files := trackedFiles(t, dir)
	checked := 0
	for _, rel := range files {
		ext := filepath.Ext(rel)
		if ext != ".md" && ext != ".go" && ext != ".sem" && ext != ".rkt" && ext != ".term" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // tracked, and deleted in the work tree
			}
			t.Fatal(err)
		}
		checked++
		text := string(src)
		lineOf := func(off int) int { return 1 + strings.Count(text[:off], "\n") }
		spans := []span{{0, text}}
		if ext == ".go" {
			spans = goComments(src)
		}
		for _, s := range spans {
			for _, bad := range outside {
				if i := strings.Index(s.text, bad); i >= 0 {
					t.Errorf("%s:%d: names %q, outside the repository: cite the paper, or say it in docs/", rel, lineOf(s.off+i), bad)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the file list is wrong", checked)
	}
}

// span is a part of a file's text and its offset in bytes.
type span struct {
	off  int
	text string
}

// goComments are the comments of a Go file.
func goComments(src []byte) []span {
	var out []span
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT {
			out = append(out, span{file.Offset(pos), lit})
		}
	}
}

// trackedFiles are the repository's files, relative to its root: git's list where
// git knows the directory, else every file under it but .git.
func trackedFiles(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil && len(out) > 0 {
		var files []string
		for _, f := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
			files = append(files, string(f))
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// link is a Markdown link's target: [text](TARGET).
var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinks: every relative link of the README and docs/ names a file or directory of
// the repository (the link's #anchor aside).
func TestLinks(t *testing.T) {
	dir := root(t)
	for _, page := range pages(t, dir) {
		text, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for i, line := range strings.Split(string(text), "\n") {
			// Code is not prose: fenced blocks, indented code blocks (four spaces or a
			// tab; the pages indent list items' text by two) and code spans.
			if fenceOpen.MatchString(line) {
				inFence = !inFence
				continue
			}
			if inFence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
				continue
			}
			line = codeSpan.ReplaceAllString(line, "")
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				path := filepath.Join(dir, filepath.Dir(page), filepath.FromSlash(target))
				if rel, err := filepath.Rel(dir, path); err != nil || strings.HasPrefix(rel, "..") {
					t.Errorf("%s:%d: the link %s leaves the repository", page, i+1, m[1])
				} else if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: the link %s names no file of the repository", page, i+1, m[1])
				}
			}
		}
	}
}
