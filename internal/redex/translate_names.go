package redex

import (
	"fmt"
	"strings"
)

// conName names a constructor by the first literal of its shape, made unique.
func (t *translator) conName(c *tcon) string {
	base := ""
	var find func(d *Datum)
	find = func(d *Datum) {
		if base != "" {
			return
		}
		if d.Kind == Symbol {
			if _, isArg := argIndex(d.Text); !isArg && !isEllipsis(d) {
				base = d.Text
			}
			return
		}
		for _, x := range d.List {
			find(x)
		}
	}
	find(c.tmpl)
	switch base {
	case "#t":
		base = "true"
	case "#f":
		base = "false"
	}
	if base == "" || reservedWords[base] || strings.ContainsAny(base, "_\"") {
		// No literal: (e e) of a sort's own terms is an application; another is
		// named by its sort, (x τ Γ) a Γ-node.
		base = c.sort.name + "-node"
		if len(c.args) == 2 && c.tmpl.Kind == List && len(c.tmpl.List) == 2 && t.byName[c.args[0]] == c.sort.nt && t.byName[c.args[1]] == c.sort.nt {
			base = "app"
		}
		if len(c.args) == 1 && c.seq[0] && c.tmpl.Kind == List && len(c.tmpl.List) == 2 && t.byName[c.args[0]] == c.sort.nt {
			base = "app" // (e e ...), written (e ...)
		}
	}
	if t.conNames == nil {
		t.conNames = map[string]bool{}
	}
	name := base
	for i := 2; t.conNames[name] || t.byName[name] != nil || reservedWords[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	t.conNames[name] = true
	return name
}

// reservedWords are the rule language's reserved words and keywords, which name no
// constructor.
var reservedWords = map[string]bool{"hole": true, "subst": true, "prim": true, "where": true, "fresh": true,
	"=": true, "!=": true, "bind": true, "step": true, "context": true, "match": true, "not": true, "infer": true,
	"language": true, "sort": true, "variable": true, "integer": true, "con": true, "kind": true, "class": true,
	"function": true, "value": true, "frame": true, "rule": true, "stuck": true, "answer": true, "notation": true,
	"hook": true, "judgment": true, "typing": true, "atom": true, "shape": true}
