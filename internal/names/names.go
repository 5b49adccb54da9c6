// Package names compares the names of environments quickly: the stages look names up
// in lists of bindings, and Go's == on two strings of the same length calls the
// runtime to compare their bytes.
package names

import "unsafe"

// Same is a == b, deciding without a call to the runtime when a and b share their
// bytes (as the occurrences of a name do: the gradual lexer interns identifiers, and a
// derivative term writes a fresh name with the string that made it) or differ in
// their last byte (as fresh names base#k of consecutive numbers do).
func Same(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) {
		return true
	}
	return a[len(a)-1] == b[len(b)-1] && a == b
}
