package targets

// The floor is the fastest tree-walking interpreter of fib we know how to write in Go
// with the stages' values, a yardstick for their distance from native code (the fib
// target). It has what no stage can have: de Bruijn indices resolved ahead of time,
// frames on a value stack (a call allocates nothing, as no closure is ever made), one
// method call per node, and no contraction counting, fuel, depth bound, casts, blame
// or read-back. It shares with the stages what an interpreter of this calculus has:
// values behind an interface (integers boxed as Go boxes them) and a Go call per
// subterm. (Unboxed int64 values would make it faster still, about 10× native; a heap
// environment cell per call, slower, about 35×.) It is not a stage: nothing but the
// benchmarks runs it.
type (
	floorNode interface {
		eval(m *floorMachine) floorVal
	}
	floorVal interface{}
	// floorMachine is the value stack: a call's argument is at fp.
	floorMachine struct {
		stack []floorVal
		fp    int
	}
	floorInt   int64
	floorVar   int // de Bruijn index, from the frame pointer
	floorConst int64
	floorBin   struct {
		op   byte
		x, y floorNode
	}
	floorIf   struct{ c, t, e floorNode }
	floorCall struct {
		body *floorNode // the called function's body (fib's, so its one recursive call)
		arg  floorNode
	}
)

func (x floorVar) eval(m *floorMachine) floorVal { return m.stack[m.fp+int(x)] }

func (c floorConst) eval(*floorMachine) floorVal { return floorInt(c) }

func (b *floorBin) eval(m *floorMachine) floorVal {
	x, y := b.x.eval(m).(floorInt), b.y.eval(m).(floorInt)
	switch b.op {
	case '<':
		return x < y
	case '-':
		return x - y
	}
	return x + y
}

func (c *floorIf) eval(m *floorMachine) floorVal {
	if c.c.eval(m).(bool) {
		return c.t.eval(m)
	}
	return c.e.eval(m)
}

func (c *floorCall) eval(m *floorMachine) floorVal {
	a := c.arg.eval(m)
	caller := m.fp
	m.fp = len(m.stack)
	m.stack = append(m.stack, a)
	r := (*c.body).eval(m)
	m.stack[m.fp] = nil
	m.stack, m.fp = m.stack[:m.fp], caller
	return r
}

// FloorFib is fib n on the floor interpreter (see floorNode): the body of fib sees k
// at index 0 of its frame. It returns fib n.
func FloorFib(n int) int64 {
	var body floorNode
	k := floorVar(0)
	body = &floorIf{
		c: &floorBin{'<', k, floorConst(2)},
		t: k,
		e: &floorBin{'+',
			&floorCall{&body, &floorBin{'-', k, floorConst(1)}},
			&floorCall{&body, &floorBin{'-', k, floorConst(2)}}},
	}
	m := &floorMachine{stack: make([]floorVal, 0, 64)}
	return int64((&floorCall{&body, floorConst(n)}).eval(m).(floorInt))
}
