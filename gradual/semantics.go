package gradual

// Names of the coercion reduction rules (spec §3.2, §3.3). Inside the layered
// reduction semantics a coercion step is reported as "StepCst/" + rule.
const (
	RuleIdL     = "IdL"
	RuleIdR     = "IdR"
	RuleInOut   = "InOut"
	RuleArr     = "Arr"
	RuleFailCo  = "FailCo"
	RuleInFail  = "InFail"
	RuleArrFail = "ArrFail" // lazy semantics only
	RuleFailL   = "FailL"   // eager semantics only
	RuleFailR   = "FailR"   // eager semantics only
)

// Semantics is a cast semantics: the parameter of every stage. A new semantics is a
// new value of this interface and touches no stage.
//
// The coercion reduction relation →X of a semantics is given by its rules (Contract);
// the strategy that finds the next redex (leftmost-innermost, sequences nested to the
// right) is shared by all semantics: see Step.
type Semantics interface {
	// Name is the short name used on the command line and in expectation comments
	// (ld, lud, ed, eud).
	Name() string
	// Translate is ⟨⟨target ⇐ source⟩⟩^l: the coercion that a type-based cast
	// <target <= source>^l means under this semantics. It returns a normal form.
	Translate(target, source Type, l Label) Coercion
	// Contract contracts c at its root if c is a redex of →X, returning the contractum
	// and the rule's name. It may assume that the proper subcoercions of c are in
	// normal form (reduction is innermost); ok is false if no rule applies at the root.
	Contract(c Coercion) (contractum Coercion, rule string, ok bool)
	// Seq composes two normal forms into the normal form of their sequence, in one
	// pass (Siek & Garcia's seq).
	Seq(c1, c2 Coercion) Coercion
}

// The four cast semantics of Siek, Garcia & Taha (2009).
var (
	LD  Semantics = castSemantics{name: "ld"}
	LUD Semantics = castSemantics{name: "lud", ud: true}
	ED  Semantics = castSemantics{name: "ed", eager: true}
	EUD Semantics = castSemantics{name: "eud", ud: true, eager: true}
)

// Standard returns the four semantics LD, LUD, ED, EUD, in that order.
func Standard() []Semantics { return []Semantics{LD, LUD, ED, EUD} }

// Lookup finds a semantics by name among the given ones (the standard four when none
// are given).
func Lookup(name string, among ...Semantics) (Semantics, bool) {
	if len(among) == 0 {
		among = Standard()
	}
	for _, s := range among {
		if s.Name() == name {
			return s, true
		}
	}
	return nil, false
}

// castSemantics is one point of the design space: downcast (D) or upcast-downcast
// (UD) blame tracking, lazy (L) or eager (E) checking of higher-order casts.
type castSemantics struct {
	name  string
	ud    bool // injectable types are the ground types (UD); else every type but Dyn (D)
	eager bool // arr is mkArr and fail propagates out of arrows (E); else arr is -> (L)
}

func (s castSemantics) Name() string { return s.name }

// String is the name in capitals, as the papers write it.
func (s castSemantics) String() string {
	b := []byte(s.name)
	for i := range b {
		b[i] -= 'a' - 'A'
	}
	return string(b)
}

// arr is the function-coercion constructor of the translation and of seq: c -> d for
// the lazy semantics, mkArr for the eager ones.
func (s castSemantics) arr(c, d Coercion) Coercion {
	if s.eager {
		return MkArr(c, d)
	}
	return &Func{Dom: c, Cod: d}
}

// MkArr is the eager function-coercion constructor: a failure on either side fails
// the whole, the domain's label winning when both fail.
func MkArr(c, d Coercion) Coercion {
	if f, ok := c.(*Fail); ok {
		return f
	}
	if f, ok := d.(*Fail); ok {
		return f
	}
	return &Func{Dom: c, Cod: d}
}

// Translate implements the translations of spec §3.1 (first matching clause wins).
func (s castSemantics) Translate(t, src Type, l Label) Coercion {
	if s.ud {
		return s.translateUD(t, src, l)
	}
	return s.translateD(t, src, l)
}

// translateD is ⟨⟨T ⇐ S⟩⟩ for the downcast strategy, with the semantics' arr.
func (s castSemantics) translateD(t, src Type, l Label) Coercion { return TranslateD(t, src, l, s.arr) }

// TranslateD is ⟨⟨T ⇐ S⟩⟩^l of the downcast strategy (every type but Dyn is
// injectable), building function coercions with arr (c -> d for the lazy semantics,
// MkArr for the eager ones; a custom semantics may pass its own).
func TranslateD(t, src Type, l Label, arr func(c, d Coercion) Coercion) Coercion {
	switch {
	case t == Dyn && src == Dyn:
		return Id
	case isBase(t) && t == src:
		return Id
	case src == Dyn:
		return &Proj{T: t, L: l}
	case t == Dyn:
		return &Inj{T: src}
	}
	if a, ok := t.(*Arrow); ok {
		if b, ok := src.(*Arrow); ok {
			return arr(TranslateD(b.From, a.From, l, arr), TranslateD(a.To, b.To, l, arr))
		}
	}
	return &Fail{L: l}
}

// translateUD is ⟨⟨T ⇐ S⟩⟩ for the upcast-downcast strategy: only ground types are
// injectable, and function types go through Dyn -> Dyn.
func (s castSemantics) translateUD(t, src Type, l Label) Coercion {
	switch {
	case t == Dyn && src == Dyn:
		return Id
	case isBase(t) && t == src:
		return Id
	case isBase(t) && src == Dyn:
		return &Proj{T: t, L: l}
	case t == Dyn && isBase(src):
		return &Inj{T: src}
	}
	a, tArrow := t.(*Arrow)
	b, srcArrow := src.(*Arrow)
	switch {
	case tArrow && src == Dyn:
		return Then(&Proj{T: DynDyn, L: l},
			&Func{Dom: s.translateUD(Dyn, a.From, l), Cod: s.translateUD(a.To, Dyn, l)})
	case t == Dyn && srcArrow:
		return Then(&Func{Dom: s.translateUD(b.From, Dyn, l), Cod: s.translateUD(Dyn, b.To, l)},
			&Inj{T: DynDyn})
	case tArrow && srcArrow:
		return s.arr(s.translateUD(b.From, a.From, l), s.translateUD(a.To, b.To, l))
	}
	return &Fail{L: l}
}

func isBase(t Type) bool {
	_, ok := t.(Base)
	return ok
}

// Contract implements the rules of spec §3.2 (lazy) and §3.3 (eager). Where two rules
// overlap (id ; id, fail^l ; id) the one the spec lists first wins: IdL, then IdR, then
// FailCo. Sequences are right-nested, so a pair rule c1 ; c2 -> c applies to c1 ; (c2 ; rest) as well,
// giving c ; rest ("up to associativity").
func (s castSemantics) Contract(c Coercion) (Coercion, string, bool) {
	switch c := c.(type) {
	case *Seq:
		return s.contractSeq(c)
	case *Func:
		if !s.eager {
			return nil, "", false
		}
		if f, ok := c.Dom.(*Fail); ok {
			return f, RuleFailL, true // (fail^l -> d̂) -> fail^l
		}
		if f, ok := c.Cod.(*Fail); ok {
			return f, RuleFailR, true // (c̃ -> fail^l) -> fail^l
		}
	}
	return nil, "", false
}

func (s castSemantics) contractSeq(c *Seq) (Coercion, string, bool) {
	first, rest := c.Fst, c.Snd
	second, tail := rest, Coercion(nil)
	if r, ok := rest.(*Seq); ok {
		second, tail = r.Fst, r.Snd
	}
	// withTail puts the contractum of the pair first ; second back in front of tail.
	withTail := func(d Coercion) Coercion {
		if tail == nil {
			return d
		}
		return Then(d, tail)
	}
	if _, ok := first.(IdC); ok {
		return rest, RuleIdL, true // id ; c -> c
	}
	if _, ok := second.(IdC); ok {
		return withTail(first), RuleIdR, true // c ; id -> c
	}
	if f, ok := first.(*Fail); ok {
		return f, RuleFailCo, true // fail^l ; c -> fail^l
	}
	switch a := first.(type) {
	case *Inj:
		switch b := second.(type) {
		case *Proj: // I1! ; I2?^l -> ⟨⟨I2 ⇐ I1⟩⟩^l
			return withTail(s.Translate(b.T, a.T, b.L)), RuleInOut, true
		case *Fail: // I! ; fail^l -> fail^l
			return withTail(b), RuleInFail, true
		}
	case *Func:
		switch b := second.(type) {
		case *Func: // (c1->c2) ; (d1->d2) -> (d1;c1) -> (c2;d2)
			return withTail(&Func{Dom: Then(b.Dom, a.Dom), Cod: Then(a.Cod, b.Cod)}), RuleArr, true
		case *Fail: // (c1->c2) ; fail^l -> fail^l, lazy only
			if !s.eager {
				return withTail(b), RuleArrFail, true
			}
		}
	}
	return nil, "", false
}

// Seq is Siek & Garcia's composition of normal forms (spec §3.4, clauses in order).
func (s castSemantics) Seq(c1, c2 Coercion) Coercion {
	if _, ok := c1.(IdC); ok { // 1
		return c2
	}
	if _, ok := c2.(IdC); ok { // 2
		return c1
	}
	if a, ok := c1.(*Inj); ok {
		if b, ok := c2.(*Proj); ok { // 3
			return s.Translate(b.T, a.T, b.L)
		}
	}
	if a, ok := c1.(*Func); ok {
		if b, ok := c2.(*Func); ok { // 4
			return s.arr(s.Seq(b.Dom, a.Dom), s.Seq(a.Cod, b.Cod))
		}
	}
	if f, ok := c1.(*Fail); ok { // 5
		return f
	}
	if f, ok := c2.(*Fail); ok {
		if _, ok := c1.(*Inj); ok { // 6
			return f
		}
		if _, ok := c1.(*Func); ok && !s.eager { // 7, lazy only
			return f
		}
	}
	if a, ok := c1.(*Seq); ok { // 8
		return s.Seq(a.Fst, s.Seq(a.Snd, c2))
	}
	if b, ok := c2.(*Seq); ok {
		if _, ok := c1.(*Proj); ok {
			if _, ok := b.Fst.(*Func); ok { // 9
				return Then(c1, c2)
			}
		}
		return s.Seq(s.Seq(c1, b.Fst), b.Snd) // 10
	}
	return Then(c1, c2) // 11
}

// Eager reports whether sem checks higher-order casts eagerly; it is false for
// semantics other than the four standard ones.
func Eager(sem Semantics) bool {
	cs, ok := sem.(castSemantics)
	return ok && cs.eager
}

// MergesSafely reports whether merging adjacent pending coercions (the space-efficient
// mode, interderive.Merged) preserves every answer of sem. Merging composes pending
// coercions before the value arrives, c̄ ; (d ; c) instead of (c̄ ; d) ; c, so it is
// answer-preserving exactly when composition of normal forms is associative.
//
// It holds for the lazy semantics LD and LUD (property-tested). It fails for the eager
// ones: with c1 = ⟨⟨Dyn->Int ⇐ Int->Int⟩⟩^l1 = Int?^l1 -> id,
// c2 = ⟨⟨Bool->Int ⇐ Dyn->Int⟩⟩^l2 = Bool! -> id and
// c3 = ⟨⟨Dyn->Dyn ⇐ Bool->Int⟩⟩^l3 = Bool?^l3 -> Int!, ED and EUD compose
// (c1 ; c2) ; c3 to fail^l1 (FailL), but c1 ; (c2 ; c3) to the normal wrapper
// (Bool?^l3 ; fail^l1) -> Int!, since Bool?^l3 ; fail^l1 is a normal part and FailL
// only fires on fail itself. So the eager semantics do not merge by default.
//
// A semantics defined elsewhere declares itself safe by implementing
// interface{ MergesSafely() bool }; otherwise it is taken not to be.
func MergesSafely(sem Semantics) bool {
	if cs, ok := sem.(castSemantics); ok {
		return !cs.eager
	}
	if m, ok := sem.(interface{ MergesSafely() bool }); ok {
		return m.MergesSafely()
	}
	return false
}
