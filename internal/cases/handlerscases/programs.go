package handlerscases

// The test vectors' programs (docs/handlers.md), shared by the cases and the corpus.

// Layer is the handler of the spec's scalar layers FC_a(x) = a * x with the weight in
// the heap location LOC, for an operation OP, as a clause.
func layer(op, loc string) string {
	return op + `(x) -> let w <= get[` + loc + `]() in [<w * x, <w, x>>]
       | y, z -> let <w, x> <= [z] in let u <= put[` + loc + `](w - y * x) in [w * y]`
}

// TwoLayers is the spec's two-layer vector.
var TwoLayers = `op fca : real -> real
op fcb : real -> real
heap a : real = 2
heap b : real = 3
rev handle(1) <x>. let h <= fca(x) in fcb(h)
with { return o -> [0.5 * (o - 4)]
     ; ` + layer("fca", "a") + `
     ; ` + layer("fcb", "b") + ` }
`

// TwoInputs is the spec's two-input vector.
var TwoInputs = `op fca : real -> real
heap a : real = 2
rev handle(<1, 1>) <x1, x2>. let h <= fca(x1) in [h + x2]
with { return o -> [0.5 * (o - 4)]
     ; ` + layer("fca", "a") + ` }
`

// MLP is the paper's MLP (Example 4.1, Fig. 8) as the spec gives it: n_in = n_hid = 2,
// n_out = 1, fc0 by the row-major 2×2 matrix in l0, fc1 by the 1×2 matrix in l1, swish
// componentwise, learning rate 0.1, target 0.5, input <1, 2>. Qf = let w <= get[l]()
// in [<w * x, <w, x>>], Qb = let <w, x> <= [z] in let _ <= put[l](w - y * transpose(x))
// in [transpose(w) * y], with the matrix products written out on tuples.
const MLP = `op fc0 : real * real -> real * real
op fc1 : real * real -> real
heap l0 : real * real * real * real = <0.5, -0.3, 0.8, 0.2>
heap l1 : real * real = <1, -1>
rev handle(<1, 2>) <x>.
  let zh <= fc0(x) in
  let xh <= [<swish(fst(zh)), swish(snd(zh))>] in
  let zo <= fc1(xh) in
  [zo]
with { return o -> [0.1 * (o - 0.5)]
     ; fc0(x) -> let w <= get[l0]() in
                 [<let <w0:real, w1:real, w2:real, w3:real> = w in
                   let <x0:real, x1:real> = x in <w0 * x0 + w1 * x1, w2 * x0 + w3 * x1>,
                   <w, x>>]
               | y, z -> let <w, x> <= [z] in
                 let u <= put[l0](let <w0:real, w1:real, w2:real, w3:real> = w in
                                  let <x0:real, x1:real> = x in let <y0:real, y1:real> = y in
                                  <w0 - y0 * x0, w1 - y0 * x1, w2 - y1 * x0, w3 - y1 * x1>) in
                 [let <w0:real, w1:real, w2:real, w3:real> = w in let <y0:real, y1:real> = y in
                  <w0 * y0 + w2 * y1, w1 * y0 + w3 * y1>]
     ; fc1(x) -> let w <= get[l1]() in
                 [<let <v0:real, v1:real> = w in let <x0:real, x1:real> = x in v0 * x0 + v1 * x1, <w, x>>]
               | y, z -> let <w, x> <= [z] in
                 let u <= put[l1](let <v0:real, v1:real> = w in let <x0:real, x1:real> = x in
                                  <v0 - y * x0, v1 - y * x1>) in
                 [let <v0:real, v1:real> = w in <v0 * y, v1 * y>] }
`
