package compile

// EvalCastDepth is EvalCast with a depth bound of the test's.
var EvalCastDepth = evalCast
