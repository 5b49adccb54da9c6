package dpl

// TapeR is Tape's R with the depth of the derivative it works out (tapeR).
var TapeR = tapeR
