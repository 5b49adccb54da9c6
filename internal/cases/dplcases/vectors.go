package dplcases

// Vectors are the test vectors of spec §6 and the paper's, with their hand
// derivations: every stage's tests run them under every strategy (Suite's
// SpecVectors), and they seed the fuzz targets.
var Vectors = []struct{ Name, Src, Want string }{
	// Paper §3: no perturbation confusion. Inner: d/dy (x + y) = 1 whatever x; the body
	// is x * 1, whose derivative is 1. A confused implementation gives 2.
	{"nested-rd", "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", "1"},
	// Paper §3: f(x) = 1.rd[1](y. x + y) = 1 is constant; d/dx (x + f(x)) = 1 + 0.
	{"letrec-rd", "letrec f(x:real):real = 1.rd[1](y:real. x + y) in 1.rd[1](x:real. x + f(x))", "1"},
	// The same through forward mode, and with a third level: the innermost derivative
	// is 1 whatever x and y are, and no level is confused.
	{"fd-inside-rd", "1.rd[1](x:real. x * 1.fd[1](y:real. x + y))", "1"},
	{"three-levels", "1.rd[1](x:real. x * 1.rd[1](y:real. y * 1.rd[1](z:real. x + y + z)))", "1"},
	// ReLU: the branch is chosen with the current value; at -1 the trace is 0, at 2 it is
	// x; at 0, lt is undefined on the diagonal.
	{"relu-left", "1.rd[-1](x:real. if x <. 0 then 0 else x)", "0"},
	{"relu-right", "1.rd[2](x:real. if x <. 0 then 0 else x)", "1"},
	{"relu-at-zero", "1.rd[0](x:real. if x <. 0 then 0 else x)", "undefined"},
	// d/dx (d/dy y^3 at x) = d/dx 3x^2 = 6x = 12 at 2.
	{"second-derivative", "1.rd[2](x:real. 1.rd[x](y:real. y * y * y))", "12"},
	// The gradient of a * b at <2, 3> is <b, a>.
	{"gradient-pair", "1.rd[<2, 3>](z:real * real. fst(z) * snd(z))", "<3, 2>"},
	// d/dx x^4 = 4x^3 = 108 at 3.
	{"let-square", "1.rd[3](x:real. let y:real = x * x in y * y)", "108"},
	// The cotangent x = 3 is outside the binder's scope: 3 * (2 * 2) = 12 (8 if captured).
	{"capture", "let x:real = 3 in x.rd[2](x:real. x * x)", "12"},
	// d/dx log x = 1/x = 0.5 at 2; undefined at -1 (log_r is undefined where log is).
	{"log", "1.rd[2](x:real. log(x))", "0.5"},
	{"log-negative", "1.rd[-1](x:real. log(x))", "undefined"},
	// Forward mode: 1.fd[3](x. x^2) = 2 * 3 = 6; 1.fd[0](x. sin x) = cos 0 = 1.
	{"fd-square", "1.fd[3](x:real. x * x)", "6"},
	{"fd-sin", "1.fd[0](x:real. sin(x))", "1"},
	// Spec §2: ev(dprod2, <<a,b>,<a',b'>>) = aa' + bb' = 1*3 + 2*4 = 11;
	// ev(dprod2_r, <<<a,b>,<a',b'>>, c>) = <<ca', cb'>, <ca, cb>> = <<15, 20>, <5, 10>> at c = 5;
	// mul_rr(<<<2,3>,5>, <7,11>>) = <<55,35>,43>.
	{"dprod2", "dprod2(<<1, 2>, <3, 4>>)", "11"},
	{"dprod2_r", "dprod2_r(<<<1, 2>, <3, 4>>, 5>)", "<<15, 20>, <5, 10>>"},
	{"mul_rr", "mul_rr(<<<2, 3>, 5>, <7, 11>>)", "<<55, 35>, 43>"},
	// d/dx (x^2 + 1) = 4 at 2; d/dx (x^2 + x) = 7 at 3; d/dx (x^2 + 1) = 6 at 3: a let, a
	// call and an if as redexes in a nontrivial context.
	{"let-in-context", "1.rd[2](x:real. (let y:real = x in y * y) + 1)", "4"},
	{"call-in-context", "letrec sq(a:real):real = a * a in 1.rd[3](x:real. sq(x) + x)", "7"},
	{"if-in-context", "1.rd[3](x:real. (if x <. 2 then x else x * x) + 1)", "6"},
	// The outer variable a is substituted into the trace: d/dx (a * x) = a = 3.
	{"outer-variable", "let a:real = 3 in 1.rd[2](x:real. a * x)", "3"},
	// f(x) = x^2 below 1, f'(x - 1) above: f(1.5) = 2 * 0.5, f(2.5) = 2 (two nested rd,
	// the inner one met by symbolic evaluation inside a call).
	{"own-derivative", "letrec f(x:real):real = if x <. 1 then x * x else 1.rd[x - 1](y:real. f(y)) in <f(1.5), f(2.5)>", "<1, 2>"},
}
