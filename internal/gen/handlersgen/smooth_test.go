package handlersgen

import (
	"testing"

	"github.com/interderive/interderive/handlers"
	"pgregory.net/rapid"
)

// Every smooth program, its term-level gradient and its forward run parse and
// type-check.
func TestSmooth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := DrawSmooth(t, 5)
		for _, src := range []string{s.Handled, s.RdProgram(), s.ForwardProgram(s.Point)} {
			p, err := handlers.Parse([]byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if _, err := handlers.Check(p); err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
		}
	})
}
