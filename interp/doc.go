// Package interp holds the big-step, direct-style interpreters of the workbench's
// calculi: the last stage of the derivation, obtained from the two-level CPS evaluator
// by going back to direct style. They recurse on the structure of the program, so
// their depth is bounded explicitly (MaxDepth) and exceeding it is an error, not a
// crash of the process.
package interp
