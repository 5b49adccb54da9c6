// Package interderive holds the plumbing every semantic artefact of the workbench
// shares, whatever the calculus and whatever the derivation stage: source positions
// and positioned errors, the fuel bound, and the stream of contraction events by which
// stages are compared in lockstep.
//
// The artefacts themselves live in the stage packages (reduction, closures, machine,
// cps2, interp); the calculi in their language packages (gradual, ...).
package interderive
