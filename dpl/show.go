package dpl

import (
	"strconv"
	"strings"

	"github.com/interderive/interderive"
)

// A Shower prints the items of an observed run of the language — terms, types, the
// bindings a trace grows by — within the run's budgets, for the stages' observers
// (interderive.Observer).
type Shower struct{ *interderive.ItemPrinter }

// NewShower prints within the budgets of a run configured by opts, whose limits
// watches (nil: only the output budget).
func NewShower(opts interderive.Options, limits *interderive.Limits) Shower {
	return Shower{interderive.NewItemPrinter(opts, limits)}
}

// Term prints a term.
func (s Shower) Term(t Term) string {
	return s.Item(func(b interderive.PrintBudget) (string, error) { return FormatBounded(t, b) })
}

// Type prints a type.
func (s Shower) Type(t Type) string {
	return s.Item(func(b interderive.PrintBudget) (string, error) { return FormatTypeBounded(t, b) })
}

// Binding prints let x:T = C in, the body to come: what a trace grows by.
func (s Shower) Binding(b *Let) string {
	return "let " + b.Name + ":" + s.Type(b.T) + " = " + s.Term(b.Bound) + " in"
}

// Indent marks the lines of a nested layer (a symbolic evaluation inside rd, or the
// nested evaluations of Figure 5).
func Indent(layer int) string { return strings.Repeat("| ", layer) }

// Where says, after a decomposition in a nested layer, which layer and mode it is in.
func Where(layer int, mode string) string {
	if layer == 0 {
		return ""
	}
	return "   (layer " + strconv.Itoa(layer) + ", " + mode + ")"
}

// ReportRd reports an rd whose contraction n (0 if the stage does not know it) is
// complete to obs: the trace term of its body and its derivative term, indented.
func (s Shower) ReportRd(obs interderive.Observer, n int, indent string, trace, derivative Term) {
	obs.Report(n, ReportTrace, trace, indent+"trace:      "+s.Term(trace))
	obs.Report(n, ReportDerivative, derivative, indent+"derivative: "+s.Term(derivative))
}
