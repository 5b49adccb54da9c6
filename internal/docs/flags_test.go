package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// commandTree is what the command accepts, as its help prints it: each subcommand's
// name and its flags' long names ("" the root's own).
func commandTree(t *testing.T, bin string) map[string]map[string]bool {
	t.Helper()
	help := func(args ...string) string {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("interderive %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	tree := map[string]map[string]bool{"": flagsOf(help("--help"))}
	for _, name := range subcommands(help("help")) {
		tree[name] = flagsOf(help(name, "--help"))
	}
	if len(tree) < 8 || len(tree["run"]) < 5 {
		t.Fatalf("the command tree read from the help is too small to be right: %v", tree)
	}
	return tree
}

// subcommands are the names listed under "Available Commands:" in cobra's help.
func subcommands(help string) []string {
	var names []string
	_, rest, ok := strings.Cut(help, "Available Commands:\n")
	if !ok {
		return nil
	}
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		if f := strings.Fields(line); len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

var helpFlag = regexp.MustCompile(`^\s+(?:-[a-zA-Z], )?--([a-z][a-z0-9-]*)`)

// flagsOf are the long flags a help text lists under "Flags:" and "Global Flags:"
// (not those its prose names).
func flagsOf(help string) map[string]bool {
	flags := map[string]bool{}
	in := false
	for _, line := range strings.Split(help, "\n") {
		switch {
		case line == "Flags:" || line == "Global Flags:":
			in = true
		case !strings.HasPrefix(line, " "):
			in = false
		case in:
			if m := helpFlag.FindStringSubmatch(line); m != nil {
				flags[m[1]] = true
			}
		}
	}
	return flags
}

// mention is "interderive SUBCOMMAND ... --flag ..." in a page's code: a fenced
// block's line or an inline code span.
type mention struct {
	where string
	sub   string   // "" for the root (interderive --version)
	flags []string // the long flags after it, lower case only (--VARIANT is a placeholder)
}

var (
	invocation = regexp.MustCompile(`(?:^|[\s(/\x60])interderive\s+(-[-a-z]+|[a-z][a-z0-9-]*)`)
	longFlag   = regexp.MustCompile(`(?:^|[\s\[|(])--([a-z][a-z0-9-]*)`)
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	// separator ends a command in a shell line: a pipe, a list, a comment (a synopsis's
	// alternatives, S|all, have no blanks around their bar).
	separator = regexp.MustCompile(`\s\|\s|&&|;|(?:^|\s)#`)
)

// mentions finds the commands a page names in its code. What follows an invocation up
// to a shell separator (" | ", ;, &&, " #") or the end of the span is its flags.
func mentions(file, text string) []mention {
	var out []mention
	scan := func(line int, code string) {
		for _, loc := range invocation.FindAllStringSubmatchIndex(code, -1) {
			sub := code[loc[2]:loc[3]]
			rest := code[loc[3]:]
			if strings.HasPrefix(sub, "-") {
				rest = code[loc[2]:]
				sub = ""
			}
			if i := separator.FindStringIndex(rest); i != nil {
				rest = rest[:i[0]]
			}
			if j := invocation.FindStringIndex(rest); j != nil {
				rest = rest[:j[0]]
			}
			m := mention{where: fmt.Sprintf("%s:%d", file, line), sub: sub}
			for _, f := range longFlag.FindAllStringSubmatch(rest, -1) {
				m.flags = append(m.flags, f[1])
			}
			out = append(out, m)
		}
	}
	lines := strings.Split(text, "\n")
	inFence := false
	for i, l := range lines {
		if fenceOpen.MatchString(l) {
			inFence = !inFence
			continue
		}
		if inFence {
			scan(i+1, l)
			continue
		}
		for _, c := range codeSpan.FindAllStringSubmatch(l, -1) {
			scan(i+1, c[1])
		}
	}
	return out
}

// TestCommandsExist: every "interderive SUBCOMMAND --flag" the README and docs/ show
// names a subcommand the command has, and flags that subcommand takes.
func TestCommandsExist(t *testing.T) {
	dir := root(t)
	tree := commandTree(t, interderive(t, dir))
	n := 0
	for _, page := range pages(t, dir) {
		text, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mentions(page, string(text)) {
			n++
			flags, ok := tree[m.sub]
			if !ok {
				t.Errorf("%s: interderive %s: no such command", m.where, m.sub)
				continue
			}
			for _, f := range m.flags {
				if !flags[f] {
					t.Errorf("%s: interderive %s --%s: no such flag", m.where, m.sub, f)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d commands named in the README and docs/: the pages are not read right", n)
	}
}

// TestFlagsOf: the flags of a help text are those under its Flags headings.
func TestFlagsOf(t *testing.T) {
	help := "Run it.\n\nExit status:\n  3  out of fuel (--fuel), or --print-limit\n\nUsage:\n  interderive run [flags] FILE\n\n" +
		"Flags:\n      --ad string   strategy\n  -h, --help        help for run\n\nGlobal Flags:\n  -v, --version   version\n"
	got := flagsOf(help)
	if len(got) != 3 || !got["ad"] || !got["help"] || !got["version"] {
		t.Errorf("flagsOf = %v, want ad, help, version", got)
	}
}

// TestMentions: what mentions reads of lines written here.
func TestMentions(t *testing.T) {
	page := "Run `interderive run --stage machine FILE` or `go run ./cmd/interderive --version`.\n" +
		"```sh\ngo run ./cmd/interderive check [--stage all|S,...] --json testdata   # --not-a-flag\n" +
		"interderive fuzz --VARIANT all && interderive calculi --json\n```\n" +
		"`interderive.Stage` is a type; interderive run --fuel outside code is prose.\n"
	var got []string
	for _, m := range mentions("p.md", page) {
		got = append(got, fmt.Sprintf("%s %s %v", m.where, m.sub, m.flags))
	}
	want := []string{"p.md:1 run [stage]", "p.md:1  [version]", "p.md:3 check [stage json]", "p.md:4 fuzz []", "p.md:4 calculi [json]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("mentions:\n got %q\nwant %q", got, want)
	}
}
