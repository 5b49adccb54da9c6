// Package closures holds the calculi of closures of the workbench's calculi (Biernacka
// & Danvy 2007): the same reduction semantics as package reduction, over closures
// e[ρ] — terms paired with environments — instead of substitution. Substitution is made
// explicit by environment steps (ephemeral expansion of a closure into closures of its
// parts, on-demand variable lookup, delayed β), which are administrative: they are not
// contractions, spend no fuel, and are not reported as events.
//
// Like the reduction semantics, every step decomposes the whole closure from its root
// and plugs the contractum back.
package closures
