package main

import (
	"errors"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/sem"
)

// The relation of a rule file explored whole (sem.Explore): run --all prints every
// normal form a program reaches, trace --graph draws the reduction graph. They run
// any rule file, and are the only runs of one whose relation is non-deterministic
// ((nondeterministic)), which the derived stages refuse.

// defaultMaxTerms bounds the terms an exploration visits (--max-terms).
const defaultMaxTerms = 10_000

// explore explores the relation from a loaded rule-file program.
func explore(path string, l loaded, maxTerms int, opts interderive.Options) (*sem.Graph, *sem.Language, error) {
	p, ok := l.prog.(rules.Program)
	if !ok {
		return nil, nil, fmt.Errorf("%s: --all and --graph explore a rule file's relation, and this is a %s program", interderive.Escape(path), l.c.Name())
	}
	if maxTerms < 1 {
		return nil, nil, fmt.Errorf("--max-terms %d: at least one term", maxTerms)
	}
	lang := p.Language()
	g, err := lang.Explore(p.Term, maxTerms, opts)
	return g, lang, err
}

// runAll is run --all: each normal form the program reaches, one a line (a stuck
// one, neither a value nor an answer, marked), in the order the exploration meets
// them (where the root kind has values or answers); on standard error, how much was explored. An exploration cut at its budget
// exits with status 3, after what it found.
func (a *app) runAll(path string, l loaded, maxTerms int, opts interderive.Options) error {
	g, lang, err := explore(path, l, maxTerms, opts)
	if err != nil {
		return a.finish(path, err)
	}
	for _, i := range g.Normal {
		t := g.Terms[i]
		mark := ""
		if root := lang.Root(); len(root.Values)+len(root.Answers) > 0 && !lang.IsValue(t, root) && !lang.IsAnswer(t, root) {
			// (A kind without values, as an unrestricted Redex context's: every
			// normal form is an answer.)
			mark = "   (stuck: no rule applies, and it is not a value)"
		}
		fmt.Fprintf(a.stdout, "%s%s\n", sem.Format(t), mark)
	}
	fmt.Fprintf(a.stderr, "%s, of %s reached by %s\n", plural(len(g.Normal), "normal form", "normal forms"),
		plural(len(g.Terms), "term", "terms"), plural(len(g.Steps), "step", "steps"))
	if g.Cut != "" {
		fmt.Fprintf(a.stderr, "interderive: the exploration stopped: %s; --max-terms or --timeout allows more\n", g.Cut)
		return &exitError{exitFuel}
	}
	return nil
}

// traceGraph is trace --graph FORMAT: the reduction graph, in DOT or as SVG.
func (a *app) traceGraph(path string, l loaded, format string, maxTerms int, opts interderive.Options) error {
	g, lang, err := explore(path, l, maxTerms, opts)
	if err != nil {
		return a.finish(path, err)
	}
	switch format {
	case "dot":
		writeDOT(a.stdout, g, lang.Name)
	case "svg":
		writeGraphSVG(a.stdout, g, lang.Name)
	default:
		return errors.New("unreachable: the format is checked first")
	}
	if g.Cut != "" {
		fmt.Fprintf(a.stderr, "interderive: the exploration stopped: %s; --max-terms or --timeout allows more\n", g.Cut)
		return &exitError{exitFuel}
	}
	return nil
}

// graphFormats are trace --graph's formats.
var graphFormats = []string{"dot", "svg"}

// label is a term as a node shows it: at most 60 characters.
func label(t *sem.Term) string { return sem.FormatShort(t, 60) }

// writeDOT writes the graph in Graphviz's DOT: a node per term (the program first,
// the normal forms with a double border), an edge per step labelled by its event.
func writeDOT(w io.Writer, g *sem.Graph, name string) {
	normal := map[int]bool{}
	for _, i := range g.Normal {
		normal[i] = true
	}
	fmt.Fprintf(w, "digraph %s {\n  node [shape=box, fontname=\"monospace\"];\n", strconv.Quote(name))
	for i, t := range g.Terms {
		extra := ""
		if normal[i] {
			extra = ", peripheries=2"
		}
		if i == 0 {
			extra += ", style=bold"
		}
		fmt.Fprintf(w, "  n%d [label=%s%s];\n", i, strconv.Quote(label(t)), extra)
	}
	for _, s := range g.Steps {
		fmt.Fprintf(w, "  n%d -> n%d [label=%s];\n", s.From, s.To, strconv.Quote(s.Event))
	}
	fmt.Fprintln(w, "}")
}

// writeGraphSVG draws the graph as SVG, laid out by distance from the program: a row
// per number of steps, the terms of a row side by side, each step an arrow with its
// event (a step back to an earlier row curves to the side).
func writeGraphSVG(w io.Writer, g *sem.Graph, name string) {
	const charW, rowH, boxH, pad = 7.2, 90.0, 26.0, 24.0
	depth := make([]int, len(g.Terms))
	for i := range depth {
		depth[i] = -1
	}
	depth[0] = 0
	// The steps are in the order the exploration took them, breadth first from the
	// program: a term's first step in is from a term of the least depth.
	for _, s := range g.Steps {
		if depth[s.To] < 0 {
			depth[s.To] = depth[s.From] + 1
		}
	}
	var rows [][]int
	for i, d := range depth {
		for len(rows) <= d {
			rows = append(rows, nil)
		}
		if d >= 0 {
			rows[d] = append(rows[d], i)
		}
	}
	x, y, wd := make([]float64, len(g.Terms)), make([]float64, len(g.Terms)), make([]float64, len(g.Terms))
	width := 0.0
	for r, row := range rows {
		cx := pad
		for _, i := range row {
			wd[i] = float64(len([]rune(label(g.Terms[i]))))*charW + 16
			x[i], y[i] = cx, pad+float64(r)*rowH
			cx += wd[i] + pad
		}
		width = max(width, cx)
	}
	height := pad*2 + float64(len(rows))*rowH
	normal := map[int]bool{}
	for _, i := range g.Normal {
		normal[i] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="monospace" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, "<title>%s: the reduction graph</title>\n", html.EscapeString(name))
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>` + "\n")
	for _, s := range g.Steps {
		x1, y1 := x[s.From]+wd[s.From]/2, y[s.From]+boxH
		x2, y2 := x[s.To]+wd[s.To]/2, y[s.To]
		if depth[s.To] <= depth[s.From] { // a step back, or within a row: around the side
			x2, y2 = x[s.To]+wd[s.To], y[s.To]+boxH/2
			fmt.Fprintf(&b, `<path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="#888" marker-end="url(#arrow)"/>`+"\n",
				x1, y1, x1+60, y1+40, x2+60, y2, x2, y2)
		} else {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#888" marker-end="url(#arrow)"/>`+"\n", x1, y1, x2, y2)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#555">%s</text>`+"\n", (x1+x2)/2+4, (y1+y2)/2, html.EscapeString(s.Event))
	}
	for i, t := range g.Terms {
		if depth[i] < 0 {
			continue
		}
		stroke := "1"
		if normal[i] || i == 0 {
			stroke = "2.5"
		}
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="4" fill="white" stroke="black" stroke-width="%s"/>`+"\n", x[i], y[i], wd[i], boxH, stroke)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x[i]+8, y[i]+17, html.EscapeString(label(t)))
	}
	b.WriteString("</svg>\n")
	io.WriteString(w, b.String())
}
