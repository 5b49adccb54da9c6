package main

import (
	"runtime/debug"
	"time"

	"github.com/interderive/interderive"
	"github.com/spf13/cobra"
)

// The command's default budgets. The library's are none (zero in
// interderive.Options): a program that embeds the workbench chooses its own; the
// command, which a person runs on any file, ends every run within about a minute and
// within half of the computer's memory, and prints no value or trace item longer than
// a mebibyte.
const (
	defaultTimeout = time.Minute
	defaultOutput  = 1 << 20
)

// byteSize is a flag's value in bytes, written with a unit (4GiB, 512MiB, 2GB).
type byteSize int64

func (b *byteSize) String() string {
	if *b == 0 {
		return "0"
	}
	return interderive.FormatBytes(int64(*b))
}

func (b *byteSize) Set(s string) error {
	n, err := interderive.ParseBytes(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

func (*byteSize) Type() string { return "size" }

// budgetFlags are the memory and output budgets of run, trace and compare.
type budgetFlags struct {
	memory, output byteSize
}

// register adds --memory and --output to cmd, with their defaults.
func (b *budgetFlags) register(cmd *cobra.Command) {
	b.memory = byteSize(interderive.DefaultMemory())
	b.output = defaultOutput
	cmd.Flags().Var(&b.memory, "memory", "stop a run once its live heap passes this many bytes (e.g. 4GiB, 512MiB), "+
		"0 for no limit; the default is half of the computer's memory, or of its control group's limit if lower")
	cmd.Flags().Var(&b.output, "print-limit", "the most bytes any one value or term is printed in (e.g. 4MiB): a longer answer "+
		"stops the run (exit status 3), a longer item of a trace is cut and marked; 0 for no limit")
}

// apply puts the budgets in opts, and sets the runtime's soft memory limit to the
// memory budget (debug.SetMemoryLimit), so that the collector works harder as the
// heap nears it and the run's look at its live heap is up to date.
func (b *budgetFlags) apply(opts interderive.Options) interderive.Options {
	opts.Memory, opts.Output = int64(b.memory), int(b.output)
	if opts.Memory > 0 {
		debug.SetMemoryLimit(opts.Memory)
	}
	return opts
}
