package handlersgen

import (
	"testing"

	"github.com/interderive/interderive/handlers"
	"pgregory.net/rapid"
)

// Every generated program parses and type-checks (Program fails the test otherwise),
// and the forms the generator promises occur.
func TestGenerated(t *testing.T) {
	seen := map[string]bool{}
	rapid.Check(t, func(t *rapid.T) {
		p := Program(t, Config{Depth: 5, Undefined: true})
		s := handlers.Format(p)
		for _, form := range []string{"rev handle", "RH", ".rd[", "get[", "put[", "<a, b>", "| y, z ->", "let "} {
			if contains(s, form) {
				seen[form] = true
			}
		}
	})
	for _, form := range []string{"rev handle", ".rd[", "<a, b>", "| y, z ->", "let "} {
		if !seen[form] {
			t.Errorf("no generated program has %q", form)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
