package compile

// EvalCastDepth is EvalCast with a depth bound of the test's.
var EvalCastDepth = evalCast

// LambdaEvalDepth is the λ-calculus's Eval with a depth bound of the test's.
var LambdaEvalDepth = lambdaEval
