package workbench

import (
	"html/template"
	"io"
	"strings"
)

// The page of an aligned trace. Lines break at spaces, and a token only where it is
// wider than its cell (overflow-wrap, not word-break: break-all, which splits tokens
// anywhere). Above each row, the term before its contraction with the redex marked
// (<mark class="redex">), and the term after it with the contractum marked (<mark
// class="contractum">); a row where every stage contracts the same rule has the class
// "agree" and a ✓, one where they do not the class "disagree".
var page = template.Must(template.New("trace").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>interderive trace: {{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; }
h1 { font-size: 1.2em; } code, pre { font-family: ui-monospace, monospace; font-size: 12px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #ccc; padding: 4px; vertical-align: top; }
th { background: #eee; }
td pre, td code { white-space: pre-wrap; overflow-wrap: anywhere; word-break: normal; margin: 0; }
mark.redex { background: #ffd966; }
mark.contractum { background: #b6e3b6; }
.ok { color: #1a7f37; font-weight: bold; }
tr.term td { background: #fafafa; border-top: 2px solid #999; color: #555; }
tr.term td code { color: black; }
tr.term .arrow { padding: 0 .6em; }
tr.disagree td { background: #fdd; }
tr.current td { background: #eef4ff; }
tr.current td:first-child { border-left: 4px solid #36c; }
#bar { position: sticky; top: 0; background: white; padding: .5em 0; z-index: 2; }
</style></head><body>
<h1>interderive trace: {{.Title}}</h1>
<p><code>{{.Program}}</code></p>
<p>{{if .Terms}}Above each contraction, the term before it with its <mark class="redex">redex</mark> and the term after it with its <mark class="contractum">contractum</mark>, as the {{.Reference}} stage prints them; {{end}}<span class="ok">✓</span>: every stage contracts the row's rule.</p>
<div id="bar"><button id="prev">&larr; previous</button> <button id="next">next &rarr;</button>
<span id="where"></span></div>
<table><thead><tr><th style="width:8em">contraction</th>{{range .Lanes}}<th>{{.Stage}}</th>{{end}}</tr></thead>
<tbody>
{{range $i, $row := .Table}}{{if $row.Term}}<tr class="term"><td>term</td><td colspan="{{$.Columns}}">{{$row.Term}}</td></tr>
{{end}}<tr class="{{$row.Class}}" id="row{{$i}}"><td>{{if not $row.Agree}}{{$row.N}}. <b>the stages disagree</b>{{else if $row.Rule}}{{$row.N}}. <b>{{$row.Rule}}</b> <span class="ok" title="every stage contracts {{$row.Rule}}">✓</span>{{else}}end{{end}}</td>
{{range $row.Cells}}<td><pre>{{.}}</pre></td>{{end}}</tr>
{{end}}</tbody></table>
<p>{{range .Lanes}}<b>{{.Stage}}</b>: {{if .Error}}{{.Error}}{{else}}{{.Answer}}{{end}}<br>{{end}}</p>
<script>
let cur = 0; const rows = document.querySelectorAll("tr.step");
function mark(i, on) {
  rows[i].classList.toggle("current", on);
  const t = rows[i].previousElementSibling;
  if (t && t.classList.contains("term")) t.classList.toggle("current", on);
}
function show(i, scroll) {
  if (i < 0 || i >= rows.length) return;
  mark(cur, false); cur = i; mark(cur, true);
  if (scroll) rows[cur].scrollIntoView({block: "nearest"});
  document.getElementById("where").textContent = "row " + (cur + 1) + " of " + rows.length;
}
document.getElementById("prev").onclick = () => show(cur - 1, true);
document.getElementById("next").onclick = () => show(cur + 1, true);
document.addEventListener("keydown", e => { if (e.key === "ArrowDown" || e.key === "j") show(cur + 1, true); if (e.key === "ArrowUp" || e.key === "k") show(cur - 1, true); });
show(0, false);
</script></body></html>
`))

// WriteHTML writes a self-contained page in which a person can step through the
// aligned trace (buttons, or the arrow keys). Each row is named by its contraction's
// rule and marked ✓ (or says that the stages disagree, or that the run has ended),
// each stage's cell ends with the rule it contracted there: "⇒ RULE", and above the
// row stand the term before its contraction with the redex marked and the term after
// it with the contractum marked (Steps).
func (s SideBySide) WriteHTML(w io.Writer) error {
	type row struct {
		N     int
		Rule  string
		Agree bool
		Class string
		Term  template.HTML
		Cells []string
	}
	var rows []row
	terms := false
	for i, st := range s.Steps() {
		rule, agree := s.Rule(i)
		r := row{N: st.N, Rule: rule, Agree: agree, Class: "step", Term: termHTML(st)}
		terms = terms || r.Term != ""
		switch {
		case !agree:
			r.Class += " disagree"
		case rule != "":
			r.Class += " agree"
		}
		for _, l := range s.Lanes {
			cell := ""
			if i < len(l.Steps) {
				cell = strings.Join(l.Steps[i], "\n")
				if i < len(l.Rules) {
					if cell != "" {
						cell += "\n"
					}
					cell += "⇒ " + l.Rules[i]
				}
			}
			r.Cells = append(r.Cells, cell)
		}
		rows = append(rows, r)
	}
	return page.Execute(w, struct {
		SideBySide
		Title   string
		Columns int
		Terms   bool // some row shows its term
		Table   []row
	}{s, s.Title(), len(s.Lanes), terms, rows})
}

// termHTML shows a step's term before its contraction with the redex marked, and,
// where known, the term after it with the contractum marked; "" if the step has none.
func termHTML(st Step) template.HTML {
	if st.Redex == nil {
		return ""
	}
	h := focusHTML(st.Redex, "redex")
	if st.Contractum != nil {
		h += `<span class="arrow">⟶</span>` + focusHTML(st.Contractum, "contractum")
	}
	return template.HTML(h)
}

// focusHTML is the term of f in a <code>, its part in a <mark class="CLASS"> (none if
// the part is not located), escaped.
func focusHTML(f *Focus, class string) string {
	before, part, after, ok := f.split()
	if !ok {
		return "<code>" + template.HTMLEscapeString(f.Term) + "</code>"
	}
	return "<code>" + template.HTMLEscapeString(before) + `<mark class="` + class + `">` + template.HTMLEscapeString(part) + "</mark>" +
		template.HTMLEscapeString(after) + "</code>"
}
