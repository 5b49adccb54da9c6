package dpl

import "github.com/interderive/interderive/internal/names"

// NameMap maps names to values like a Go map, but keeps fresh names (base#k, see
// Names) in a list by their number k, counted from the first fresh number it was
// given (numbers grow through a run, and a trace's names are recent ones): the names
// of traces and derivatives are nearly all fresh, and R looks one up at every binding.
// The list's elements never move as it grows: a long trace's numbers arrive in
// increasing order, and a slice would be copied over and over. Two names with the
// same number (a#5 and s#5, from two supplies) share a slot: the first to arrive
// holds it, the other goes to the map, as do numbers below the first or maxSlot past
// it. A name is in one place at a time: its slot or the map. The map starts as a
// short list, searched without hashing (a trace mentions few names of the program, x
// and y, again and again). The zero NameMap is empty and ready to use; it is not safe
// for concurrent use.
type NameMap[V any] struct {
	slots FreshSlots
	fresh list[nameSlot[V]]
	other smallMap[V]
}

type nameSlot[V any] struct {
	name string // "" when empty
	v    V
}

// maxSlot bounds the list.
const maxSlot = 1 << 22

// slot is the index of name's slot, or -1 if it has none.
func (m *NameMap[V]) slot(name string) int { return m.slots.Slot(name, maxSlot) }

// Get is m[name]; a nil *NameMap is empty.
func (m *NameMap[V]) Get(name string) (V, bool) {
	if m == nil { // as a nil Go map
		var zero V
		return zero, false
	}
	if i := m.slot(name); i >= 0 && i < m.fresh.len() {
		if s := m.fresh.at(i); names.Same(s.name, name) {
			return s.v, true
		}
	}
	return m.other.get(name)
}

// Set is m[name] = v.
func (m *NameMap[V]) Set(name string, v V) {
	if i := m.slot(name); i >= 0 {
		m.fresh.extend(i + 1)
		s := m.fresh.at(i)
		if names.Same(s.name, name) {
			s.v = v
			return
		}
		if s.name == "" && !m.other.has(name) {
			s.name, s.v = name, v
			return
		}
	}
	m.other.set(name, v)
}

// Remove is delete(m, name).
func (m *NameMap[V]) Remove(name string) {
	if i := m.slot(name); i >= 0 && i < m.fresh.len() {
		if s := m.fresh.at(i); names.Same(s.name, name) {
			*s = nameSlot[V]{}
			return
		}
	}
	m.other.remove(name)
}

// smallMap is a map from names, kept as a list while it holds at most maxFew names.
type smallMap[V any] struct {
	few  []nameSlot[V]
	many map[string]V // once past maxFew (few is then unused)
}

const maxFew = 8

func (m *smallMap[V]) get(name string) (V, bool) {
	if m.many != nil {
		v, ok := m.many[name]
		return v, ok
	}
	for i := range m.few {
		if names.Same(m.few[i].name, name) {
			return m.few[i].v, true
		}
	}
	var zero V
	return zero, false
}

// has reports whether name is in m (at once when m is empty, as it is for the names
// of a derivative's evaluation: all fresh).
func (m *smallMap[V]) has(name string) bool {
	if m.many == nil && len(m.few) == 0 {
		return false
	}
	_, ok := m.get(name)
	return ok
}

func (m *smallMap[V]) set(name string, v V) {
	if m.many != nil {
		m.many[name] = v
		return
	}
	for i := range m.few {
		if names.Same(m.few[i].name, name) {
			m.few[i].v = v
			return
		}
	}
	if len(m.few) < maxFew {
		m.few = append(m.few, nameSlot[V]{name, v})
		return
	}
	m.many = make(map[string]V, 2*maxFew)
	for _, e := range m.few {
		m.many[e.name] = e.v
	}
	m.few = nil
	m.many[name] = v
}

func (m *smallMap[V]) remove(name string) {
	if m.many != nil {
		delete(m.many, name)
		return
	}
	for i := range m.few {
		if names.Same(m.few[i].name, name) {
			last := len(m.few) - 1
			m.few[i] = m.few[last]
			m.few[last] = nameSlot[V]{}
			m.few = m.few[:last]
			return
		}
	}
}
