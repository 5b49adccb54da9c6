package driver

// The floor is the smallest tree-walking interpreter of fib we know how to write in
// Go, a yardstick for the stages' distance from native code (the fib target). It has
// what no stage can have — de Bruijn indices resolved ahead of time, one method call
// per node, no contraction counting, no fuel, no depth bound, no casts, no blame, no
// read-back — and what every environment-based interpreter has: values behind an
// interface (integers boxed as Go boxes them), a heap-allocated environment cell per
// call, and a Go call per subterm. It is not a stage: nothing but the benchmarks runs
// it.
type (
	floorNode interface{ eval(r *floorEnv) floorVal }
	floorVal  interface{}
	floorEnv  struct {
		v    floorVal
		next *floorEnv
	}
	floorInt   int64
	floorVar   int // de Bruijn index
	floorConst int64
	floorBin   struct {
		op   byte
		x, y floorNode
	}
	floorIf  struct{ c, t, e floorNode }
	floorApp struct{ f, a floorNode }
	floorClo struct {
		body floorNode
		env  *floorEnv
	}
)

func (x floorVar) eval(r *floorEnv) floorVal {
	for i := x; i > 0; i-- {
		r = r.next
	}
	return r.v
}

func (c floorConst) eval(*floorEnv) floorVal { return floorInt(c) }

func (b *floorBin) eval(r *floorEnv) floorVal {
	x, y := b.x.eval(r).(floorInt), b.y.eval(r).(floorInt)
	switch b.op {
	case '<':
		return x < y
	case '-':
		return x - y
	}
	return x + y
}

func (c *floorIf) eval(r *floorEnv) floorVal {
	if c.c.eval(r).(bool) {
		return c.t.eval(r)
	}
	return c.e.eval(r)
}

func (a *floorApp) eval(r *floorEnv) floorVal {
	f := a.f.eval(r).(*floorClo)
	return f.body.eval(&floorEnv{v: a.a.eval(r), next: f.env})
}

// FloorFib is fib n on the floor interpreter (see floorNode): the body of fib sees k
// at index 0 and fib at index 1. It returns fib n.
func FloorFib(n int) int64 {
	k, fib := floorVar(0), floorVar(1)
	body := &floorIf{
		c: &floorBin{'<', k, floorConst(2)},
		t: k,
		e: &floorBin{'+',
			&floorApp{fib, &floorBin{'-', k, floorConst(1)}},
			&floorApp{fib, &floorBin{'-', k, floorConst(2)}}},
	}
	clo := &floorClo{body: body}
	clo.env = &floorEnv{v: clo}
	return int64((&floorApp{floorVar(0), floorConst(n)}).eval(&floorEnv{v: clo}).(floorInt))
}
