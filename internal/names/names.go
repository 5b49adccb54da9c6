// Package names compares the names of environments quickly: the stages look names up
// in lists of bindings, and Go's == on two strings of the same length calls the
// runtime to compare their bytes.
package names

import "unsafe"

// Same is a == b, deciding without a call to the runtime when a and b share their
// bytes, as the occurrences of a name do (the gradual lexer interns identifiers, and
// a derivative term writes a fresh name with the string that made it). That call was
// a sixth of interp's time on fib; checks before it (the last byte, say) cost fib
// more than they save elsewhere.
func Same(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}
