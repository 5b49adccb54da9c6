// Package custom holds cast semantics defined outside package gradual and registered
// by name, so that the command (run, trace, compare, check, fuzz) can use them. The
// stages need no change: a cast semantics is any value of gradual.Semantics.
//
// To add one: write a file here defining a type that implements gradual.Semantics
// (Name, Translate, Contract, Seq; see edn.go for a worked example), list a value of
// it in All, and test that its Seq agrees with its rules (custom_test.go does so for
// every semantics listed). Then
//
//	go run ./cmd/interderive run --semantics NAME FILE
//	go run ./cmd/interderive compare FILE          # every stage, every semantics
//	go run ./cmd/interderive fuzz --semantics NAME --calculus gradual
//
// and programs may carry expectations for it: -- expect[NAME]: ANSWER. (A plain
// -- expect: covers the four standard semantics only.)
package custom

import g "github.com/interderive/interderive/gradual"

// All lists the registered custom semantics.
func All() []g.Semantics {
	return []g.Semantics{EDN{}}
}
