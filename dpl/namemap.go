package dpl

// nameMap maps names to values like a Go map, but keeps fresh names (base#k, see
// Names) in a slice by their number k: the names of traces and derivatives are nearly
// all fresh, and R looks one up at every binding. Two names with the same number
// (a#5 and s#5, from two supplies) share a slot: the first to arrive holds it, the
// other goes to the map. A name is in one place at a time: the slot or the map.
type nameMap[V any] struct {
	fresh []nameSlot[V]
	other map[string]V
}

type nameSlot[V any] struct {
	name string // "" when empty
	v    V
}

// maxSlot bounds the numbers kept in the slice; larger ones go to the map.
const maxSlot = 1 << 22

// freshNumber is k for a fresh name base#k, or -1 for any other name.
func freshNumber(name string) int {
	k, unit := 0, 1
	for i := len(name) - 1; i >= 0; i-- {
		switch c := name[i]; {
		case '0' <= c && c <= '9':
			k += int(c-'0') * unit
			if unit *= 10; k >= maxSlot {
				return -1
			}
		case c == '#' && unit > 1:
			return k
		default:
			return -1
		}
	}
	return -1
}

// get is m[name].
func (m *nameMap[V]) get(name string) (V, bool) {
	if k := freshNumber(name); k >= 0 && k < len(m.fresh) && m.fresh[k].name == name {
		return m.fresh[k].v, true
	}
	v, ok := m.other[name]
	return v, ok
}

// set is m[name] = v.
func (m *nameMap[V]) set(name string, v V) {
	if k := freshNumber(name); k >= 0 {
		if k >= len(m.fresh) {
			m.fresh = append(m.fresh, make([]nameSlot[V], k+1-len(m.fresh))...)
		}
		s := &m.fresh[k]
		if s.name == name {
			s.v = v
			return
		}
		if _, inMap := m.other[name]; s.name == "" && !inMap {
			s.name, s.v = name, v
			return
		}
	}
	if m.other == nil {
		m.other = map[string]V{}
	}
	m.other[name] = v
}

// remove is delete(m, name).
func (m *nameMap[V]) remove(name string) {
	if k := freshNumber(name); k >= 0 && k < len(m.fresh) && m.fresh[k].name == name {
		m.fresh[k] = nameSlot[V]{}
		return
	}
	delete(m.other, name)
}
